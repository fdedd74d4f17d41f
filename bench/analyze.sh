#!/bin/sh
# bench/analyze.sh - times rundown-analyze on synthetic stores of 10k, 50k,
# 100k and 1M run records, side by side with the pandas + scipy equivalent
# (bench/pandas_equivalent.py) and a bare cJSON parse of the same file
# (bench/cjson_floor.c), and prints the table and the targets of issue 31 /
# DESIGN.md section 7.
#
#   bench/analyze.sh        everything (about 5 minutes on an idle 2-core
#                           machine, most of it pandas)
#   RUNS=5 PANDAS_RUNS=3 SIZES="10k 50k 100k 1m" PANDAS_SIZES=1m bench/analyze.sh
#
# The stores (bench/gen_store.py, seed 1): 100 workloads x 10 configs x 10,
# 50, 100 and 1000 runs. 50k is there because n <= 50 per config is where
# the exact Mann-Whitney p (and, with --bootstrap B, the bootstrap of the
# median) is used.
#
# Environment: BUILD (default build-perf, a Release build of its own),
# PYTHON (default /usr/bin/python3: Debian's, which has pandas and scipy),
# ANALYZE (a rundown-analyze to time instead of building one), ANALYZE_ARGS
# (default "--metric wall_ms --bootstrap 0 --no-cache": the work the pandas
# script does too -- it has no bootstrap -- on the same primary metric, the
# store parsed whole), WARM=0 to skip timing it with its parse cache warm
# (the cache in $BUILD/bench-out/cache, filled by one run first), DEFAULTS=0 to
# skip timing rundown-analyze once per store with its default options (since
# issue 9 the exact binomial CI of the median, no bootstrap), STRICT=1 to exit 1
# when a target is missed. Stores and results stay under
# $BUILD/bench-data and $BUILD/bench-out (not in git).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-perf}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
PY=${PYTHON:-/usr/bin/python3}
RUNS=${RUNS:-5}
PANDAS_RUNS=${PANDAS_RUNS:-3}
SIZES=${SIZES:-10k 50k 100k 1m}
PANDAS_SIZES=${PANDAS_SIZES:-1m}
ANALYZE_ARGS=${ANALYZE_ARGS:---metric wall_ms --bootstrap 0 --no-cache}
DATA=$BUILD/bench-data
OUT=$BUILD/bench-out
mkdir -p "$DATA" "$OUT"

"$PY" -c 'import pandas, scipy' 2>/dev/null || {
    echo "bench/analyze.sh: $PY lacks pandas or scipy: apt-get install python3-pandas python3-scipy" >&2
    exit 3
}

if [ -z "${ANALYZE:-}" ]; then
    [ -f "$BUILD/CMakeCache.txt" ] ||
        cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD" --target rundown-analyze -j "$(nproc)" >/dev/null
    ANALYZE=$BUILD/rundown-analyze
    [ -x "$ANALYZE" ] || ANALYZE=$BUILD/analyze/rundown-analyze
fi
FLOOR=$BUILD/bench/cjson_floor
mkdir -p "$BUILD/bench"
if [ ! -x "$FLOOR" ] || [ -n "$(find "$ROOT/bench/cjson_floor.c" -newer "$FLOOR")" ]; then
    # shellcheck disable=SC2046
    ${CC:-cc} -O2 -std=c11 -Wall -Wextra -o "$FLOOR" "$ROOT/bench/cjson_floor.c" \
        $(pkg-config --cflags --libs libcjson)
fi

runs_of() {
    case $1 in 10k) echo 10 ;; 50k) echo 50 ;; 100k) echo 100 ;; 1m) echo 1000 ;;
        *) echo "bench/analyze.sh: unknown size '$1' (10k, 50k, 100k, 1m)" >&2; exit 2 ;; esac
}
for s in $SIZES; do
    f=$DATA/store-$s.jsonl
    if [ ! -s "$f" ]; then
        echo "generating $f" >&2
        "$PY" "$ROOT/bench/gen_store.py" --workloads 100 --configs 10 --runs "$(runs_of "$s")" \
            --seed 1 -o "$f.tmp" && mv "$f.tmp" "$f"
    fi
done
# The generator is deterministic; say so if this machine's bytes differ.
if [ -f "$DATA/store-10k.jsonl" ]; then
    sum=$(sha256sum "$DATA/store-10k.jsonl" | cut -d' ' -f1)
    [ "$sum" = 9df126c352949c1f8f5fd7861c25aa3914f8ebff79e6a69c4fbbc523522195f8 ] ||
        echo "bench/analyze.sh: warning: store-10k.jsonl differs from the reference bytes" >&2
fi

# The commands, interleaved round by round by measure.py.
SPEC=$OUT/analyze-spec.json
{
    echo '{"rounds": '"$RUNS"', "commands": ['
    sep=
    for s in $SIZES; do
        f=$DATA/store-$s.jsonl
        args=
        for x in $ANALYZE_ARGS; do args="$args\"$x\","; done
        printf '%s{"label":"analyze %s","reps":%s,"argv":["%s",%s"-o","%s","%s"]}\n' \
            "$sep" "$s" "$RUNS" "$ANALYZE" "$args" "$OUT/analysis-$s.json" "$f"
        sep=,
        if [ "${WARM:-1}" = 1 ]; then
            "$ANALYZE" --metric wall_ms --bootstrap 0 --cache-dir "$OUT/cache" -o /dev/null "$f"
            printf ',{"label":"analyze %s warm","reps":%s,"argv":["%s","--metric","wall_ms","--bootstrap","0","--cache-dir","%s","-o","%s","%s"]}\n' \
                "$s" "$RUNS" "$ANALYZE" "$OUT/cache" "$OUT/analysis-$s-warm.json" "$f"
        fi
        if [ "${DEFAULTS:-1}" = 1 ]; then
            printf ',{"label":"analyze %s defaults","reps":1,"argv":["%s","--metric","wall_ms","-o","%s","%s"]}\n' \
                "$s" "$ANALYZE" "$OUT/analysis-$s-defaults.json" "$f"
        fi
        printf ',{"label":"floor %s","reps":%s,"argv":["%s","%s"]}\n' "$s" "$RUNS" "$FLOOR" "$f"
        for p in $PANDAS_SIZES; do
            [ "$p" = "$s" ] || continue
            printf ',{"label":"pandas %s","reps":%s,"argv":["%s","%s","%s"]}\n' \
                "$s" "$PANDAS_RUNS" "$PY" "$ROOT/bench/pandas_equivalent.py" "$f"
        done
    done
    echo ']}'
} >"$SPEC"

echo "timing (runs interleaved; analyze/floor x$RUNS, pandas x$PANDAS_RUNS) ..." >&2
"$PY" "$ROOT/bench/measure.py" "$SPEC" "$OUT/analyze-results.json"
rc=0
"$PY" "$ROOT/bench/tables.py" analyze "$OUT/analyze-results.json" "$SIZES" || rc=$?

# Same work? Compare the 10k analysis with the pandas figures, value by value.
if [ "${CROSSCHECK:-1}" = 1 ] && [ -f "$OUT/analysis-10k.json" ]; then
    "$PY" "$ROOT/bench/pandas_equivalent.py" -o "$OUT/pandas-10k" "$DATA/store-10k.jsonl" 2>/dev/null
    "$PY" "$ROOT/bench/crosscheck.py" "$OUT/analysis-10k.json" "$OUT/pandas-10k" ||
        echo "bench/analyze.sh: rundown-analyze and pandas disagree (see above)" >&2
fi
exit $rc
