#!/usr/bin/env bash
# store_turns.sh BUILD ROOT - writers sharing one store (issue 28, items 6
# and 11; docs/reliability.md): concurrent `run --resume -n N` store exactly
# N runs, and two writers take turns run by run. ctest label timing.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"

# Item 6: four writers top up the same command to 12 runs at once. Each
# planned 12 at its start; before the fix they stored up to 4 × 12.
for i in 1 2 3 4; do
    "$RC" run -q --resume -n 12 -w w -o resume.jsonl -- sleep 0.02 &
done
wait
check resume.jsonl "concurrent --resume stores exactly 12" \
    "sorted(r['run'] for r in recs if r['phase'] == 'measure') == list(range(1, 13))"

# Item 11: two writers of 5 runs each, started together: the store must
# show them alternating, not the second waiting for all of the first's runs
# (its polls lost every time to the first's immediate re-lock).
"$RC" run -q -n 5 -w a -o turns.jsonl -- sleep 0.1 &
sleep 0.05
"$RC" run -q -n 5 -w b -o turns.jsonl -- sleep 0.1 &
wait
check turns.jsonl "two writers take turns" \
    "(lambda ws: sum(x != y for x, y in zip(ws, ws[1:])) >= 6)([r['workload'] for r in recs])"

finish store_turns
