#!/bin/sh
# bench/verdict-calibration.sh - the verdicts' calibration table of
# docs/methods.md §6 ("Calibration"): the seeded simulation of
# tests/unit/test_verdict_calibration.c run with more workloads per cell
# (27 cells: k = 2, 5, 15; n = 5, 10, 20; CV 3 %, 20 %, 3 %/30 %), A/A
# share with any config worse, A/A share decided equivalent, and for one
# config truly 2 % slower the shares called "more than 5 % slower" and
# "slower". Pure CPU, one core; about 20 minutes at the default 20,000 on
# an idle machine.
#
#   bench/verdict-calibration.sh              20,000 workloads per cell
#   WORKLOADS=200 bench/verdict-calibration.sh   a smoke test
#
# Then the verdicts over several looks (tests/unit/test_looks_calibration.c,
# docs/methods.md §6 "Looks"): A/A at k = 2 and 5, N = 30 planned runs,
# looks at 6, 12, 18, 24 and 30, CV 3 % and 20 %: the share with any
# config worse at any look when every look spends its increment of the
# spending function, when the first look keeps alpha, and with no
# spending; and the cost of one look at 10 of 30 runs. About 40 s per CV
# at 20,000.
#
# Then the order claims with the study's figures
# (tests/unit/test_claims_calibration.c, docs/methods.md §7a): a true order
# at the margin's edge, one pair alike, the order as published; CV 3 % and
# 20 %, n = 5, 10, 20; a few seconds at 20,000.
#
# Then the verdicts paired within rounds (tests/unit/
# test_paired_calibration.c, docs/methods.md §6 "Paired within rounds"):
# 72 cells (k = 2, 5, 15; n = 5, 10, 30; CV 3 %, 20 %; round offsets of
# sd 0 and 20 %; complete rounds and rounds with gaps), paired beside
# unpaired on the same draws; about 4 minutes at 20,000.
#
# Environment: BUILD (default build, configured and built if missing).
# The table goes to stdout; with 20,000 the bound of the A/A column is
# alpha + 2 Monte Carlo standard errors, 0.0531.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
WORKLOADS=${WORKLOADS:-20000}

if [ ! -x "$BUILD/tests/test_verdict_calibration" ] || [ ! -x "$BUILD/tests/test_looks_calibration" ] ||
   [ ! -x "$BUILD/tests/test_claims_calibration" ] || [ ! -x "$BUILD/tests/test_paired_calibration" ]; then
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$BUILD" --target test_verdict_calibration test_looks_calibration \
        test_claims_calibration test_paired_calibration >/dev/null
fi
# The test's own assertions use make test's looser bound; the table is
# read against alpha + 2 SE here, so its exit status is informative only.
RD_CALIBRATION_WORKLOADS=$WORKLOADS "$BUILD/tests/test_verdict_calibration" |
    grep -E '^(k n|[0-9]+ [0-9]+ |  |worst|power)' || true
awk -v w="$WORKLOADS" 'BEGIN { printf "alpha + 2 MC SE at %d workloads: %.4f\n", w, 0.05 + 2 * sqrt(0.05 * 0.95 / w) }'
for cv in 0.03 0.2; do
    RD_LOOKS_CV=$cv RD_CALIBRATION_WORKLOADS=$WORKLOADS "$BUILD/tests/test_looks_calibration" |
        grep -E '^(looks|one look)' || true
done
echo "order claims with their figures (docs/methods.md §7a):"
RD_CALIBRATION_WORKLOADS=$WORKLOADS "$BUILD/tests/test_claims_calibration" | grep -E '^(cv|0\.)' || true
echo "verdicts paired within rounds (docs/methods.md §6):"
RD_CALIBRATION_WORKLOADS=$WORKLOADS "$BUILD/tests/test_paired_calibration" |
    grep -E '^(k n|[0-9]+ [0-9]+ |  |worst)' || true
