#!/usr/bin/env bash
# store_turns.sh BUILD ROOT - writers sharing one store (issue 28, items 6
# and 11; docs/reliability.md): concurrent `run --resume -n N` store exactly
# N runs, and two writers take turns run by run. ctest label timing.
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"

# Item 6: four writers top up the same command to 12 runs at once. Each
# planned 12 at its start; before the fix they stored up to 4 × 12.
for i in 1 2 3 4; do
    "$RC" run -q --resume -r 12 --workload w -o resume.jsonl -- sleep 0.02 &
done
wait
check resume.jsonl "concurrent --resume stores exactly 12" \
    "sorted(r['run'] for r in recs if r['phase'] == 'measure') == list(range(1, 13))"

# Item 11: two writers share a store: from the second's first run until
# either has stored its last they alternate run by run; before, the second waited for
# all of the first's runs (its polls lost every time to the first's
# immediate re-lock). The second starts once the first has stored a run;
# its own start-up (version probe, environment, store read) may take the
# first's next runs on a loaded machine, which is not a turn lost (the
# torture run's one failure in 59 was that: scripts/torture.sh, turns).
"$RC" run -q -r 8 --workload a -o turns.jsonl -- sleep 0.1 &
for _ in $(seq 100); do [ -s turns.jsonl ] && break; sleep 0.02; done
"$RC" run -q -r 4 --workload b -o turns.jsonl -- sleep 0.1 &
wait
check turns.jsonl "two writers take turns" \
    "(lambda ws: (lambda j, k: j < k and all(ws[i] != ws[i + 1] for i in range(j, k)))(next(i for i, x in enumerate(ws) if x != ws[0]), min(max(i for i, x in enumerate(ws) if x == w) for w in set(ws))))([r['workload'] for r in recs])"

finish store_turns
