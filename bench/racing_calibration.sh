#!/bin/sh
# bench/racing_calibration.sh - the tables of docs/methods.md §6b
# ("Adaptive collection": the precision rule's calibration, and racing
# against it): tests/unit/test_settle_calibration.c with N simulated
# suites per cell instead of the test's 2,000 (precision rule) and 600
# (racing), niced. CPU only: it needs no quiet machine. About 4 CPU
# minutes at N = 10,000 on one core of the 2-core box.
#
#   bench/racing_calibration.sh            # N = 10000
#   SUITES=2000 bench/racing_calibration.sh
#
# Environment: BUILD (default build, made when missing), SUITES (N, at
# least 100). Prints the test's Markdown rows as they come.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SUITES=${SUITES:-10000}

[ -f "$BUILD/CMakeCache.txt" ] ||
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
nice cmake --build "$BUILD" --target test_settle_calibration >/dev/null
echo "# test_settle_calibration, $SUITES suites per cell"
RD_SETTLE_SUITES=$SUITES nice "$BUILD/tests/test_settle_calibration" |
    grep -E '^(\||A/A bound|racing A/A bound|\[  (FAILED|ERROR) )'
