#!/usr/bin/env bash
# bench_runner_sections.sh BUILD ROOT - bench/runner.sh's SECTIONS: with
# SECTIONS=1 it runs only the comparison with hyperfine -N (the `true` and
# `sleep 0.01` lines and their intervals, in the format they always had,
# each followed by the line on the runs the guard set aside)
# and none of parts 1b, 2 and 3; a part it does not know is a usage error
# (exit 2) before anything runs. No timing is asserted: six pairs (the fewest
# with an interval of the median ratio) of two runs, the guard off
# (RUNDOWN_CONTENTION), so a busy machine cannot stall it.
set -u
. "$(dirname "$0")/require.bash" hyperfine python3
. "$(dirname "$0")/runner_lib.bash" "$1"
ROOT=$2

SECTIONS=1 PAIRS=6 RUNS=2 RUNDOWN_CONTENTION=off bash "$ROOT/bench/runner.sh" "$BUILD" \
    >out.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] || { fail "SECTIONS=1: exit $rc"; cat err.txt; }
grep -q '^true: hyperfine -N median [0-9.]* ms, rundown median [0-9.]* ms; rundown / hyperfine -N paired median [0-9.]*x' out.txt ||
    fail "SECTIONS=1: no line for true: $(cat out.txt)"
grep -q '^sleep 0.01: hyperfine -N median' out.txt || fail "SECTIONS=1: no line for sleep 0.01"
[ "$(grep -c '% CI of the median ratio' out.txt)" = 2 ] || fail "SECTIONS=1: not two intervals"
# The guard is off: no run set aside, and the quiet-only ratio is there.
[ "$(grep -c "^  rundown's guard: 0 of 12 measured runs contended (load 0, speed 0, wakeup 0); none; paired median ratio over the quiet runs only [0-9.]*x$" out.txt)" = 2 ] ||
    fail "SECTIONS=1: no line on the guard's redos per command: $(cat out.txt)"
! grep -q 'sampler and guard\|^sleep 0.1\|posix_spawn\|pipes' out.txt ||
    fail "SECTIONS=1 ran other parts: $(cat out.txt)"

SECTIONS="1 4" bash "$ROOT/bench/runner.sh" "$BUILD" >bad.txt 2>bad.err
rc=$?
[ $rc -eq 2 ] || fail "SECTIONS='1 4': exit $rc, expected 2"
grep -q "SECTIONS: expected parts among 1 1b 2 3, got '4'" bad.err || fail "no usage message: $(cat bad.err)"
[ ! -s bad.txt ] || fail "SECTIONS='1 4' ran something: $(cat bad.txt)"

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "bench_runner_sections: ok"
