#!/bin/sh
# bench/scale.sh - how analyze and render grow (issue 31, docs/performance.md,
# "Scale"): stores of 10^3, 10^4 and 10^5 configs (one workload, 3 runs
# each) and of 10^4, 10^5 and 10^6 runs (10 workloads x 10 configs), each
# analysed and the analysis rendered (all formats) once under
# /usr/bin/time -v. Prints one table per series: wall and CPU seconds and
# peak RSS (/usr/bin/time -v's "Maximum resident set size") of analyze and
# of render, each size beside the one before with the factor it grew by.
# Then the other sizes of issue 17: a hyperfine export of 10^4..10^6 runs
# imported, 10^4 workloads of 10 configs, and render refusing /dev/zero.
#
#   bench/scale.sh
#   CONFIGS="1000 10000" RUNS="10000 100000" HF_RUNS= WORKLOADS= bench/scale.sh   # quick
#
# Environment: BUILD (default build-perf, a Release build made when
# missing), PYTHON (default /usr/bin/python3), CONFIGS (sizes of the
# one-workload series), RUNS (sizes of the runs series, multiples of 100),
# HF_RUNS (hyperfine imports; empty: none), WORKLOADS (of 10 configs; empty:
# none). Everything generated stays under $BUILD/bench-data and
# $BUILD/bench-out; the inputs are made once and kept. Takes several
# minutes on a quiet 2-core machine. Figures from a busy machine mean
# nothing: run it alone.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-perf}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PY=${PYTHON:-/usr/bin/python3}
CONFIGS=${CONFIGS-1000 10000 100000}
RUNS=${RUNS-10000 100000 1000000}
HF_RUNS=${HF_RUNS-10000 100000 1000000}
WORKLOADS=${WORKLOADS-10000}
DATA=$BUILD/bench-data
OUT=$BUILD/bench-out/scale
mkdir -p "$DATA" "$OUT"
[ -x /usr/bin/time ] || { echo "bench/scale.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 3; }

[ -f "$BUILD/CMakeCache.txt" ] ||
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" --target rundown-collect rundown-analyze rundown-render -j "$(nproc)" >/dev/null
RC=$BUILD/collect/rundown-collect
RA=$BUILD/analyze/rundown-analyze
RR=$BUILD/render/rundown-render

# timed COMMAND...: runs the command once under /usr/bin/time -v and sets
# T_WALL, T_CPU (seconds), T_MIB (peak RSS) and T_RC; the first lines of
# its stderr are shown when it fails.
timed() {
    set +e
    /usr/bin/time -v -o "$OUT/time" "$@" >"$OUT/stdout" 2>"$OUT/stderr"
    T_RC=$?
    set -e
    eval "$(awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0
                                   for (i = 1; i <= n; i++) w = w * 60 + p[i]; printf "T_WALL=%.2f\n", w }
        /User time/   { u = $2 }
        /System time/ { s = $2 }
        /Maximum resident set size/ { printf "T_MIB=%.1f\n", $2 / 1024 }
        END { printf "T_CPU=%.2f\n", u + s }' "$OUT/time")"
    [ "$T_RC" -eq 0 ] || sed -n 1,2p "$OUT/stderr" | sed 's/^/    /' >&2
}

# grow NEW OLD: the factor from OLD to NEW, "" for the first size.
grow() { [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "x%.1f", a / b; else print "-" }' || true; }

# series TITLE UNIT SIZE:STORE...: analyze and render of each store, in
# order, one row per size with the growth from the size before. Analyses
# parse their stores whole (--no-cache): the targets are for a first read.
series() {
    title=$1 unit=$2
    shift 2
    echo
    echo "$title"
    printf '%-10s | %8s %8s %9s %6s %6s | %8s %8s %9s %6s %6s | %s\n' "$unit" \
        "an. s" "an. CPU" "an. MiB" "x s" "x MiB" "rend. s" "rend. CPU" "rend. MiB" "x s" "x MiB" "exit"
    pa_w= pa_m= pr_w= pr_m=
    for pair in "$@"; do
        size=${pair%%:*} store=${pair#*:}
        tag=$(basename "$store" .jsonl)
        timed "$RA" --no-cache -o "$OUT/a-$tag.json" "$store"
        a_w=$T_WALL a_c=$T_CPU a_m=$T_MIB a_rc=$T_RC
        rm -rf "$OUT/r-$tag"
        timed "$RR" -o "$OUT/r-$tag" "$OUT/a-$tag.json"
        printf '%-10s | %8s %8s %9s %6s %6s | %8s %8s %9s %6s %6s | %s %s\n' "$size" \
            "$a_w" "$a_c" "$a_m" "$(grow "$a_w" "$pa_w")" "$(grow "$a_m" "$pa_m")" \
            "$T_WALL" "$T_CPU" "$T_MIB" "$(grow "$T_WALL" "$pr_w")" "$(grow "$T_MIB" "$pr_m")" \
            "$a_rc" "$T_RC"
        pa_w=$a_w pa_m=$a_m pr_w=$T_WALL pr_m=$T_MIB
    done
}

set --
for n in $CONFIGS; do
    f=$DATA/store-1x$n.jsonl
    [ -s "$f" ] || "$PY" "$ROOT/bench/gen_store.py" --workloads 1 --configs "$n" --runs 3 -o "$f"
    set -- "$@" "$n:$f"
done
[ $# -eq 0 ] || series "Configs (1 workload, 3 runs each): analyze | render (all formats)" configs "$@"

set --
for n in $RUNS; do
    f=$DATA/store-runs$n.jsonl
    [ -s "$f" ] || "$PY" "$ROOT/bench/gen_store.py" --workloads 10 --configs 10 --runs $((n / 100)) -o "$f"
    set -- "$@" "$n:$f"
done
[ $# -eq 0 ] || series "Runs (10 workloads x 10 configs): analyze | render (all formats)" runs "$@"

[ -z "$HF_RUNS$WORKLOADS" ] && exit 0
echo
printf '%-44s %9s %9s %10s  %s\n' "other sizes" "wall s" "CPU s" "peak MiB" "exit"
row() {
    label=$1
    shift
    timed "$@"
    printf '%-44s %9s %9s %10s  %s\n' "$label" "$T_WALL" "$T_CPU" "$T_MIB" "$T_RC"
}

# A hyperfine --export-json file of N runs of one command, with the per-run
# arrays a current hyperfine writes (exit codes, peak memory).
for n in $HF_RUNS; do
    f=$DATA/hyperfine-$n.json
    [ -s "$f" ] || "$PY" - "$n" >"$f" <<'EOF'
import random, sys
n = int(sys.argv[1]); rng = random.Random(1)
t = ",".join("%.6f" % (0.01 + rng.random() * 0.002) for _ in range(n))
codes = ",".join("0" for _ in range(n))
mem = ",".join(str(1000000 + rng.randrange(10000)) for _ in range(n))
sys.stdout.write('{"results":[{"command":"sleep 0.01","mean":0.011,"stddev":0.0005,'
                 '"median":0.011,"user":0.001,"system":0.001,"min":0.01,"max":0.012,'
                 '"times":[%s],"exit_codes":[%s],"memory_usage_byte":[%s]}]}\n' % (t, codes, mem))
EOF
    rm -f "$OUT/hf.jsonl"
    row "import hyperfine, $n runs" "$RC" import -t hyperfine -w sleep -o "$OUT/hf.jsonl" "$f"
done

if [ -n "$WORKLOADS" ]; then
    many=$DATA/store-${WORKLOADS}x10.jsonl
    [ -s "$many" ] || "$PY" "$ROOT/bench/gen_store.py" --workloads "$WORKLOADS" --configs 10 --runs 3 -o "$many"
    row "analyze $WORKLOADS workloads x 10 configs x 3" "$RA" --no-cache -o "$OUT/a-many.json" "$many"
    rm -rf "$OUT/r-many"
    row "render $WORKLOADS workloads (all formats)" "$RR" -o "$OUT/r-many" "$OUT/a-many.json"
    for fmt in md html xlsx charts; do
        rm -rf "$OUT/r-many-$fmt"
        row "render $WORKLOADS workloads, $fmt only" "$RR" -o "$OUT/r-many-$fmt" --formats "$fmt" "$OUT/a-many.json"
    done
fi
row "render /dev/zero (refused)" "$RR" -o "$OUT/r-zero" /dev/zero
row "render - < /dev/zero (refused)" sh -c "exec '$RR' -o '$OUT/r-zero' - </dev/zero"
