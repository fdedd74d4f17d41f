#!/usr/bin/env bash
# bench/tree_sampling.sh - what sampling the process tree from /proc costs
# a timed run (issue 16): a CPU-bound command is run by rundown-collect with
# the tree sampled every 20 ms (the default), every 5 ms, and not at all,
# interleaved, and compared.
#
#   bench/tree_sampling.sh [BUILD]      (default BUILD=build)
#
# The command is bench/spin.c, built by this script: one core busy for
# about SPIN_MS (default 500) ms, pinned to CPU 0 (CPUS=0, the default;
# CPUS= runs it unpinned) so that the sampling (rundown itself, unpinned)
# need not share its core. ROUNDS
# rounds (default 10); in each, RUNS runs (default 10) of every variant,
# the order of the variants rotating from round to round. Reported per
# variant: the median wall_ms over all runs, the median of the per-round
# differences to the unsampled variant, the samples per run, and
# rundown's own CPU time per run (its rusage from /usr/bin/time less the
# command's user_ms + sys_ms) and per sample. Timing is never asserted:
# the figures go into docs/performance.md by hand, with the machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
RC=$BUILD/collect/rundown-collect
ROUNDS=${ROUNDS:-10}
RUNS=${RUNS:-10}
SPIN_MS=${SPIN_MS:-500}
CPUS=${CPUS-0}
[ -x "$RC" ] || { echo "bench/tree_sampling.sh: no $RC (build first)" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "bench/tree_sampling.sh: needs /usr/bin/time" >&2; exit 3; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/spin.c" <<'C'
#include <stdlib.h>
#include <time.h>
/* Busy for about argv[1] ms of CPU on one core, then exits. */
int main(int argc, char **argv)
{
    double ms = argc > 1 ? atof(argv[1]) : 500;
    volatile unsigned long x = 0;
    clock_t end = clock() + (clock_t)(ms / 1000.0 * CLOCKS_PER_SEC);
    while (clock() < end)
        for (int i = 0; i < 100000; i++)
            x += (unsigned long)i;
    return (int)(x & 0);
}
C
cc -O2 -o "$TMP/spin" "$TMP/spin.c"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(uname -sr)"
echo "rundown-collect: $("$RC" --version); rounds $ROUNDS x $RUNS runs per variant, spin $SPIN_MS ms, cpus ${CPUS:-unpinned}"
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
variants=(0 20 5)
for r in $(seq 1 "$ROUNDS"); do
    for k in 0 1 2; do
        v=${variants[$(((k + r) % 3))]}
        out="$TMP/r$r-v$v.jsonl"
        /usr/bin/time -f '%U %S' -o "$TMP/r$r-v$v.time" \
            "$RC" run -r "$RUNS" --env bench --sample-interval "$v" ${CPUS:+--cpus "$CPUS"} -o "$out" \
            --log-dir "$TMP/logs" -- "$TMP/spin" "$SPIN_MS" >/dev/null
    done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$TMP" "$ROUNDS" "$RUNS" <<'PY'
import json, os, statistics, sys
tmp, rounds, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(r, v):
    recs = [json.loads(l) for l in open(os.path.join(tmp, f'r{r}-v{v}.jsonl'))]
    u, s = map(float, open(os.path.join(tmp, f'r{r}-v{v}.time')).read().split()[-2:])
    child = sum(x['metrics']['user_ms'] + x['metrics']['sys_ms'] for x in recs)
    own = (u + s) * 1000 - child
    samples = sum(int(x['info'].get('tree_rss_samples', 0)) for x in recs)
    return [x['metrics']['wall_ms'] for x in recs], own / runs, samples / runs
data = {v: [load(r, v) for r in range(1, rounds + 1)] for v in (0, 20, 5)}
base = [statistics.median(w) for w, _, _ in data[0]]
print(f"{'interval':>9} {'wall_ms median':>15} {'paired diff (ms)':>17} {'samples/run':>12} "
      f"{'rundown CPU/run (ms)':>21} {'per sample (us)':>16}")
for v in (0, 20, 5):
    walls = [x for w, _, _ in data[v] for x in w]
    diffs = [statistics.median(w) - b for (w, _, _), b in zip(data[v], base)]
    own = statistics.median(o for _, o, _ in data[v])
    own0 = statistics.median(o for _, o, _ in data[0])
    smp = statistics.mean(s for _, _, s in data[v])
    per = (own - own0) / smp * 1000 if smp else float('nan')
    name = 'off' if v == 0 else f'{v} ms'
    print(f"{name:>9} {statistics.median(walls):15.3f} {statistics.median(diffs):+17.3f} "
          f"{smp:12.1f} {own:21.3f} {per:16.1f}")
print(f"paired differences, min..max per round: " + "; ".join(
    f"{v} ms: {min(statistics.median(w) - b for (w, _, _), b in zip(data[v], base)):+.3f}.."
    f"{max(statistics.median(w) - b for (w, _, _), b in zip(data[v], base)):+.3f}"
    for v in (20, 5)))
PY
