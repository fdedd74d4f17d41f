#!/usr/bin/env bash
# bench/cluster-exclusive.sh - why `rundown-collect slurm` gives every task
# a node of its own (docs/cluster.md, "Why exclusive nodes"): the same
# suite as 2 array tasks on one node, one at a time (the scripts as
# written: --exclusive, %1) against both at once (the same scripts with
# --exclusive and the throttle taken out and one core per task, as a site
# that shares nodes runs them). Prints, per way and config, the runs, the
# mean wall time, its CV, and the contention figures the runs recorded
# (machine_others_cpu_pct, machine_steal_pct, machine_cpu_pressure_pct:
# "-" when this rundown does not record them).
#
#   bench/cluster-exclusive.sh [RUNS]      (RUNS per config, default 10)
#
# Needs root (slurmd), Slurm and MUNGE (scripts/deps.sh slurm) and a quiet
# machine: it starts a one-node cluster of its own (tests/sh/
# slurm_cluster.bash) under $BUILD/bench-out/cluster-exclusive, stops it by
# PID on every way out, and takes about 4 x RUNS x 0.5 s of runs plus
# Slurm's scheduling. BUILD: the build folder (default build).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
RUNS=${1:-10}
RC=$BUILD/collect/rundown-collect
[ -x "$RC" ] || { echo "cluster-exclusive: build first (make), no $RC" >&2; exit 3; }
. "$ROOT/tests/sh/slurm_cluster.bash"
if slurm_cluster_missing; then
    echo "cluster-exclusive: Slurm and MUNGE are needed: scripts/deps.sh slurm (as root)" >&2
    exit 3
fi
OUT=$BUILD/bench-out/cluster-exclusive
rm -rf "$OUT"
mkdir -p "$OUT"
chmod 755 "$OUT"
trap slurm_cluster_stop EXIT
slurm_cluster_start "$OUT/cluster" || exit 3

# Each run keeps two cores busy for about 0.5 s on a 2-core machine (two
# shell loops), as a worker-thread benchmark does; k=a and k=b are the
# same command (an A/A pair).
cat > "$OUT/spin.json" <<JSON
{"schema": "rundown.suite/1", "name": "spin", "order": "interleaved",
 "workloads": [
  {"name": "spin", "class": "cpu", "runs": $RUNS, "matrix": {"k": ["a", "b"]},
   "command": ["sh", "-c",
     "for p in 1 2; do (i=0; while [ \$i -lt 100000 ]; do i=\$((i+1)); done) & done; wait; : {k}"]}
 ]}
JSON

cd "$OUT" || exit 3
# One at a time: the scripts as rundown writes them.
"$RC" slurm spin.json -o alone --tasks 2 --no-check --submit || exit 1
slurm_wait_queue 1200 || { echo "cluster-exclusive: 'alone' did not end in 20 min" >&2; exit 1; }
# Both at once: the same scripts restyled for a shared node.
"$RC" slurm spin.json -o shared --tasks 2 --no-check >/dev/null || exit 1
sed -i -e '/^#SBATCH --exclusive$/d' -e 's/^#SBATCH --array=1-2%1$/#SBATCH --array=1-2/' \
    -e 's/^#SBATCH --ntasks=1$/#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1/' shared/slurm/tasks.sh
sbatch --parsable shared/slurm/tasks.sh >/dev/null || exit 1
slurm_wait_queue 1200 || { echo "cluster-exclusive: 'shared' did not end in 20 min" >&2; exit 1; }

python3 - <<'PY'
import datetime, glob, json, statistics
def t(r): return datetime.datetime.fromisoformat(r["started_at"].replace("Z", "+00:00")).timestamp()
print("way      config  runs  mean wall_ms  CV %   others_cpu %  steal %  pressure %  tasks overlap")
for way in ("alone", "shared"):
    recs = [json.loads(l) for f in glob.glob(f"{way}/shards/*/spin.jsonl") for l in open(f)]
    spans = sorted((min(t(r) for r in rs), max(t(r) + r["metrics"]["wall_ms"] / 1000 for r in rs))
                   for f in glob.glob(f"{way}/shards/*/spin.jsonl")
                   for rs in [[json.loads(l) for l in open(f)]])
    overlap = sum(max(0, a[1] - b[0]) for a, b in zip(spans, spans[1:]))
    for k in ("a", "b"):
        rs = [r for r in recs if r["config"]["k"] == k and r["status"] == "ok"]
        w = [r["metrics"]["wall_ms"] for r in rs]
        def m(name):
            v = [r["metrics"][name] for r in rs if name in r["metrics"]]
            return f"{statistics.mean(v):.1f}" if v else "-"
        cv = 100 * statistics.stdev(w) / statistics.mean(w) if len(w) > 1 else float("nan")
        print(f"{way:8} {k:7} {len(w):4}  {statistics.mean(w):12.1f}  {cv:5.1f}  "
              f"{m('machine_others_cpu_pct'):>12}  {m('machine_steal_pct'):>7}  "
              f"{m('machine_cpu_pressure_pct'):>10}  {overlap:.1f} s")
PY
