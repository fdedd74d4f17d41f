#!/bin/sh
# fuzz.sh - builds the libFuzzer targets with clang and runs each for a bounded
# time or number of executions, on a scratch copy of its seed corpus (the
# checked-in corpus is never modified).
#
#   scripts/fuzz.sh [-t SECONDS | -n RUNS] [-l MAXLEN] [TARGET...]
#
# Default: every target, 60 s each, inputs up to 65536 bytes (-l lowers that
# for a target whose executions slow down as its inputs grow).
#
# Prints one line per target: executions, time, and whether it crashed. A
# crashing input is kept as build-fuzz/crash-<target>-*: add it to the
# target's corpus as a regression test once fixed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build-fuzz"
limit="-max_total_time=60"
maxlen=65536
while getopts t:n:l: opt; do
    case $opt in
        t) limit="-max_total_time=$OPTARG" ;;
        n) limit="-runs=$OPTARG" ;;
        l) maxlen=$OPTARG ;;
        *) echo "usage: fuzz.sh [-t SECONDS | -n RUNS] [-l MAXLEN] [TARGET...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
command -v clang >/dev/null || { echo "fuzz: clang is needed (apt-get install clang)" >&2; exit 3; }
CC=clang cmake -S "$here" -B "$build" -DRD_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 3
if [ $# -eq 0 ]; then
    set -- $(cd "$here/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
fi
status=0
for name in "$@"; do
    cmake --build "$build" --target "fuzz_$name" -j 2 >/dev/null || { echo "fuzz: $name: build failed" >&2; status=1; continue; }
    scratch=$(mktemp -d)
    cp -R "$here/tests/fuzz/corpus/$name/." "$scratch/" 2>/dev/null
    log="$build/fuzz_$name.log"
    (cd "$build" && ./tests/fuzz/"fuzz_$name" $limit -max_len=$maxlen \
        -artifact_prefix="$build/crash-$name-" "$scratch" >"$log" 2>&1)
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    [ -z "$execs" ] && execs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -Eo '[0-9]+ second' | grep -Eo '[0-9]+')
    if [ $rc -eq 0 ]; then
        echo "fuzz_$name: ${execs:-?} executions${secs:+ in ${secs}s}, no crash"
    else
        echo "fuzz_$name: FAILED after ${execs:-?} executions (see $log)"
        status=1
    fi
    rm -rf "$scratch"
done
exit $status
