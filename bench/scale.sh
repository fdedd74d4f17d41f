#!/bin/sh
# bench/scale.sh - the sizes of issue 17 (docs/performance.md, "Scale"):
# a hyperfine export of 10^4, 10^5 and 10^6 runs imported, analyses of 10^5
# configs (one workload of 100,000 configs, and 10,000 workloads of 10)
# and their renders, and how fast render refuses /dev/zero. Prints one row
# per command: wall and CPU seconds, peak RSS, and the size of the output.
#
#   bench/scale.sh
#   HF_RUNS="10000 100000" CONFIGS=30000 bench/scale.sh
#
# Environment: BUILD (default build-perf, a Release build made when
# missing), PYTHON (default /usr/bin/python3), HF_RUNS, CONFIGS (the one
# big workload), WORKLOADS (of 10 configs each). Everything generated stays
# under $BUILD/bench-data and $BUILD/bench-out. Takes a few minutes on a
# quiet 2-core machine; the inputs are made once and kept.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-perf}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PY=${PYTHON:-/usr/bin/python3}
HF_RUNS=${HF_RUNS:-10000 100000 1000000}
CONFIGS=${CONFIGS:-100000}
WORKLOADS=${WORKLOADS:-10000}
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

# row LABEL OUTPUT COMMAND...: runs the command once under /usr/bin/time.
printf '%-44s %9s %9s %10s %10s  %s\n' "what" "wall s" "CPU s" "peak MiB" "out MiB" "exit"
row() {
    label=$1 out=$2
    shift 2
    set +e
    /usr/bin/time -f '%e %U %S %M' -o "$OUT/time" "$@" >"$OUT/stdout" 2>"$OUT/stderr"
    rc=$?
    set -e
    size=$(du -sk "$out" 2>/dev/null | cut -f1)
    awk -v l="$label" -v s="${size:-0}" -v rc="$rc" \
        'END { printf "%-44s %9.2f %9.2f %10.0f %10.1f  %d\n", l, $1, $2 + $3, $4 / 1024, s / 1024, rc }' \
        "$OUT/time"
    [ "$rc" -eq 0 ] || sed -n 1,2p "$OUT/stderr" | sed 's/^/    /'
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
    row "import hyperfine, $n runs" "$OUT/hf.jsonl" "$RC" import -t hyperfine -w sleep -o "$OUT/hf.jsonl" "$f"
done

one=$DATA/store-1x$CONFIGS.jsonl
many=$DATA/store-${WORKLOADS}x10.jsonl
[ -s "$one" ] || "$PY" "$ROOT/bench/gen_store.py" --workloads 1 --configs "$CONFIGS" --runs 3 -o "$one"
[ -s "$many" ] || "$PY" "$ROOT/bench/gen_store.py" --workloads "$WORKLOADS" --configs 10 --runs 3 -o "$many"
row "analyze 1 workload x $CONFIGS configs x 3" "$OUT/a-one.json" "$RA" -o "$OUT/a-one.json" "$one"
row "analyze $WORKLOADS workloads x 10 configs x 3" "$OUT/a-many.json" "$RA" -o "$OUT/a-many.json" "$many"
for a in one many; do
    rm -rf "$OUT/r-$a"
    row "render $a (all formats)" "$OUT/r-$a" "$RR" -o "$OUT/r-$a" "$OUT/a-$a.json"
    for fmt in md html xlsx charts; do
        rm -rf "$OUT/r-$a-$fmt"
        row "render $a, $fmt only" "$OUT/r-$a-$fmt" "$RR" -o "$OUT/r-$a-$fmt" --formats "$fmt" "$OUT/a-$a.json"
    done
done
row "render /dev/zero (refused)" /dev/null "$RR" -o "$OUT/r-zero" /dev/zero
row "render - < /dev/zero (refused)" /dev/null sh -c "exec '$RR' -o '$OUT/r-zero' - </dev/zero"
