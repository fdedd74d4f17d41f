#!/usr/bin/env bash
# bench/cluster-exclusive.sh - why `rundown-collect slurm` gives every task
# a node of its own (docs/cluster.md, "Why exclusive nodes"): the same
# suite as 2 array tasks on one node, three ways: one at a time (the
# scripts as written: --exclusive, %1); both at once (the same scripts
# with --exclusive and the throttle taken out and one core per task, as a
# site that shares nodes runs them), with the contention guard waiting
# for quiet as it does by default; and both at once with the guard only
# marking contended runs (suite "contention": {"mode": "warn"}), which
# shows the slowdown the guard spares. Prints the machine and date; per
# way and config the runs kept, those the guard marked contended and its
# wait, the mean wall time and CV (of the runs kept, and of all), and the
# contention figures the runs recorded (machine_others_cpu_pct,
# machine_steal_pct, machine_cpu_pressure_pct: "-" when not recorded);
# per way the tasks' overlap and elapsed time; per config and shared way,
# its mean wall time / alone.
#
#   bench/cluster-exclusive.sh [RUNS]      (RUNS per config, default 20)
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
RUNS=${1:-20}
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

# Each run keeps two cores busy for about 0.4 s on a 2-core machine (two
# shell loops), as a worker-thread benchmark does; k=a and k=b are the
# same command (an A/A pair).
spin_suite() { # CONTENTION-MEMBER
    cat <<JSON
{"schema": "rundown.suite/1", "name": "spin", "order": "interleaved"$1,
 "workloads": [
  {"name": "spin", "class": "cpu", "runs": $RUNS, "matrix": {"k": ["a", "b"]},
   "command": ["sh", "-c",
     "for p in 1 2; do (i=0; while [ \$i -lt 400000 ]; do i=\$((i+1)); done) & done; wait; : {k}"]}
 ]}
JSON
}
spin_suite '' > "$OUT/spin.json"
spin_suite ', "contention": {"mode": "warn"}' > "$OUT/spin-warn.json"

cd "$OUT" || exit 3
# One at a time: the scripts as rundown writes them.
"$RC" slurm spin.json -o alone --tasks 2 --no-check --submit || exit 1
slurm_wait_queue 1200 || { echo "cluster-exclusive: 'alone' did not end in 20 min" >&2; exit 1; }
# Both at once: the same scripts restyled for a shared node.
shared() { # SUITE WAY
    "$RC" slurm "$1" -o "$2" --tasks 2 --no-check >/dev/null || exit 1
    sed -i -e '/^#SBATCH --exclusive$/d' -e 's/^#SBATCH --array=1-2%1$/#SBATCH --array=1-2/' \
        -e 's/^#SBATCH --ntasks=1$/#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1/' "$2/slurm/tasks.sh"
    sbatch --parsable "$2/slurm/tasks.sh" >/dev/null || exit 1
    slurm_wait_queue 1200 || { echo "cluster-exclusive: '$2' did not end in 20 min" >&2; exit 1; }
}
shared spin.json shared
shared spin-warn.json shared-warn

python3 - <<'PY'
# Everything docs/cluster.md ("Why exclusive nodes matter") quotes: the
# machine and date, per way and config the runs kept, how many the guard
# marked contended, their wait for a quiet machine, the mean wall time
# and CV of the runs kept (contended ones left out, as analyze does) and
# of all, the contention figures; per way the tasks' overlap and elapsed
# time; then shared / alone per config.
import datetime, glob, json, os, platform, statistics
def t(r): return datetime.datetime.fromisoformat(r["started_at"].replace("Z", "+00:00")).timestamp()
def mean(v): return statistics.mean(v) if v else float("nan")
def cv(v): return 100 * statistics.stdev(v) / statistics.mean(v) if len(v) > 1 else float("nan")
print(f"machine: {platform.node()}, {os.cpu_count()} CPUs, {platform.release()}; "
      f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
print("way         config  runs  contended  wait_s  mean wall_ms  CV %  all: mean   CV %"
      "  others_cpu %  steal %  pressure %")
kept = {}
ways = {}
for way in ("alone", "shared", "shared-warn"):
    files = glob.glob(f"{way}/shards/*/spin.jsonl")
    per = [[json.loads(l) for l in open(f)] for f in files]
    recs = [r for rs in per for r in rs]
    spans = sorted((min(t(r) for r in rs), max(t(r) + r["metrics"]["wall_ms"] / 1000 for r in rs))
                   for rs in per if rs)
    overlap = sum(max(0, min(a[1], b[1]) - b[0]) for a, b in zip(spans, spans[1:]))
    elapsed = spans[-1][1] - spans[0][0] if spans else float("nan")
    ways[way] = (overlap, elapsed, len(spans))
    for k in ("a", "b"):
        ok = [r for r in recs if r["config"]["k"] == k and r["status"] == "ok"]
        good = [r for r in ok if not r.get("contended")]
        w_all = [r["metrics"]["wall_ms"] for r in ok]
        w = [r["metrics"]["wall_ms"] for r in good]
        kept[(way, k)] = mean(w) if w else mean(w_all)
        # info values are strings (docs/DESIGN: a string map)
        waits = [float(r.get("info", {}).get("contention_wait_s", 0)) for r in ok]
        def m(name):
            v = [r["metrics"][name] for r in ok if name in r["metrics"]]
            return f"{statistics.mean(v):.1f}" if v else "-"
        print(f"{way:11} {k:7} {len(w):4}  {len(ok) - len(good):9}  {sum(waits):6.1f}  "
              f"{mean(w):12.1f}  {cv(w):4.1f}  {mean(w_all):9.1f}  {cv(w_all):5.1f}  "
              f"{m('machine_others_cpu_pct'):>12}  {m('machine_steal_pct'):>7}  "
              f"{m('machine_cpu_pressure_pct'):>10}")
for way, (overlap, elapsed, n) in ways.items():
    print(f"{way}: {n} tasks, overlap {overlap:.1f} s, elapsed {elapsed:.1f} s")
for way in ("shared", "shared-warn"):
    for k in ("a", "b"):
        print(f"config {k}: {way} / alone mean wall time (runs kept; all when none kept) "
              f"{kept[(way, k)] / kept[('alone', k)]:.3f}")
PY
