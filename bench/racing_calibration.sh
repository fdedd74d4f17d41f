#!/bin/sh
# bench/racing_calibration.sh - the tables of docs/methods.md §6b
# ("Adaptive collection": the precision rule's calibration, and racing
# against it): tests/unit/test_settle_calibration.c with N simulated
# suites per cell instead of the test's 2,000 (precision rule), 400
# (racing A/A) and 300 (study-like suites), niced. CPU only: it needs no
# quiet machine. Each look of the race decides the verdicts at its own
# tiny level (a studentized-range quantile each): the racing tests at
# N = 600 took 6.5 minutes at nice 15 beside a load average of 15
# (2026-12-02); on a loaded machine take a smaller N.
#
#   bench/racing_calibration.sh                          # N = 10000, every table
#   SUITES=600 TESTS='racing_*' bench/racing_calibration.sh   # racing's tables only
#   PAIRED_ONLY=1 SUITES=10000 bench/racing_calibration.sh     # the paired table only
#
# Then workloads paired within rounds (§6b, "Paired workloads"):
# tests/unit/test_paired_settle_calibration.c with N suites per cell (the
# test's 200 and 100), the unpaired rules beside the paired on the same
# draws. N = 10,000 took 706 CPU seconds (17 minutes, niced, beside
# another session).
#
# Environment: BUILD (default build, made when missing), SUITES (N, at
# least 100), TESTS (a cmocka name pattern: only those tests). Prints the
# test's Markdown rows.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SUITES=${SUITES:-10000}

[ -f "$BUILD/CMakeCache.txt" ] ||
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
nice cmake --build "$BUILD" --target test_settle_calibration test_paired_settle_calibration >/dev/null
if [ -z "${PAIRED_ONLY:-}" ]; then
    echo "# test_settle_calibration, $SUITES suites per cell${TESTS:+, tests $TESTS}"
    RD_SETTLE_SUITES=$SUITES RD_SETTLE_TESTS=${TESTS:-} nice "$BUILD/tests/test_settle_calibration" |
        grep -E '^(\||A/A bound|racing A/A bound|\[  (FAILED|ERROR) )'
fi
echo "# test_paired_settle_calibration, $SUITES suites per cell"
RD_PAIRED_SETTLE_SUITES=$SUITES nice "$BUILD/tests/test_paired_settle_calibration" |
    grep -E '^(\||paired A/A bound|\[  (FAILED|ERROR) )'
