#!/usr/bin/env bash
# slurm.sh BUILD ROOT - `rundown-collect slurm --submit` against a real
# Slurm: a one-node cluster of this test's own (munged, slurmctld -c and
# slurmd on free ports, every file in a temporary folder), a suite of
# sleep-based configs split into 4 array tasks. Checks that every planned
# run is stored exactly once, by the task whose shard it is, with that
# task's environment file; that the tasks did not overlap in time on the
# node; that the merge job rendered the report; and that a task cancelled
# before it ran is all `slurm --resume --submit` queues again. Installs
# slurm-wlm and munge (scripts/deps.sh slurm) when root and missing; exits
# 77 (skipped) only when they cannot be had, or when not root (slurmd
# starts jobs as their users). Every daemon is stopped by
# its PID on every way out.
ROOT=$(cd "$2" && pwd)
. "$(dirname "$0")/slurm_cluster.bash"
if slurm_cluster_missing && [ "$(id -u)" -eq 0 ]; then
    "$ROOT/scripts/deps.sh" slurm >&2
fi
if slurm_cluster_missing; then
    echo "SKIP: Slurm and MUNGE are not installed (scripts/deps.sh slurm, as root)"
    exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: slurmd starts jobs as their users, so it runs as root (not $(id -un))"
    exit 77
fi
. "$(dirname "$0")/require.bash" python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
chmod 755 "$TMP"  # munged's socket must be reachable through it
cleanup_hooks="slurm_cluster_stop; $cleanup_hooks"
slurm_cluster_start "$TMP/cluster" || { fail "no cluster"; finish slurm; }
host=$(hostname -s)

# ---- the suite: 8 measured runs of ~0.1-0.3 s, a warmup per doze config ----
cat > s.json <<'JSON'
{"schema": "rundown.suite/1", "name": "naps", "order": "interleaved",
 "workloads": [
  {"name": "nap", "class": "cpu", "runs": 2, "matrix": {"len": ["0.1", "0.2", "0.3"]},
   "command": ["sleep", "{len}"]},
  {"name": "doze", "class": "startup", "runs": 2, "warmups": 1, "command": "sleep 0.1"}
 ]}
JSON

# Bad input is refused before anything is queued.
"$RC" slurm s.json -o bad --partition nosuch --submit --no-check 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "the partition 'nosuch' is not one sinfo lists (bench)" err.txt ||
    { fail "unknown partition: rc $rc"; cat err.txt; }
"$RC" slurm s.json -o bad --time 45 --submit --no-check 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "longer than the partition 'bench' allows (30 minutes" err.txt ||
    { fail "--time past MaxTime: rc $rc"; cat err.txt; }
"$RC" slurm s.json -o bad --tasks 9 --submit --no-check 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "more than the 8 measured runs" err.txt ||
    { fail "--tasks past the runs: rc $rc"; cat err.txt; }
[ ! -e bad ] || fail "a refused submission wrote bad/"
[ -z "$(squeue --noheader)" ] || fail "a refused submission queued a job"

# (--no-check: this machine is shared with builds; the check is tested elsewhere.)
"$RC" slurm s.json -o out --tasks 4 --time 5 --no-check --submit >sub.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] || { fail "submit: rc $rc"; cat err.txt; }
grep -q "^submitted: array job [0-9]* (every task), merge job [0-9]* after it" sub.txt ||
    { fail "submit message"; cat sub.txt; }
grep -q '^#SBATCH --array=1-4%1$' out/slurm/tasks.sh || fail "one node, 4 tasks: no %1 throttle"
grep -q '^#SBATCH --exclusive$' out/slurm/tasks.sh || fail "tasks not exclusive"
slurm_wait_queue 180 || { fail "the jobs did not end within 180 s"; squeue; slurm_cluster_logs; }
[ -s out/report/report.md ] && [ -s out/report/report.html ] ||
    { fail "no report"; cat out/slurm/*.out; }
grep -q "nap" out/report/report.md || fail "the report lacks the workload nap"

# plan_of I: the runs of shard I/4 as the planner lists them.
for i in 1 2 3 4; do
    "$RC" suite --dry-run --shard "$i/4" -o none s.json | tail -n +3 > "plan$i.txt"
done
"$RC" suite --dry-run -o none s.json | tail -n +3 > plan.txt
python3 - "$host" <<'PY' || fails=$((fails + 1))
import glob, json, os, sys, datetime
host = sys.argv[1]
def keys(path):  # "INDEX WORKLOAD LABELS PHASE RUN: COMMAND"
    out = []
    for line in open(path):
        _, w, labels, phase, run = line.split(":")[0].split()
        out.append((w, labels, phase, int(run)))
    return out
bad = []
every = []
spans = []
for i in range(1, 5):
    folders = glob.glob(f"out/shards/task{i}.*")
    if folders != [f"out/shards/task{i}.{host}"]:
        bad.append(f"task {i}: folders {folders}")
        continue
    envs = glob.glob(folders[0] + "/env-*.json")
    env = json.load(open(envs[0]))["id"] if len(envs) == 1 else None
    recs = [json.loads(l) for l in open(folders[0] + "/naps.jsonl")]
    got = [(r["workload"], ",".join(f"{k}={v}" for k, v in r["config"].items()) or "-",
            r["phase"], r["run"]) for r in recs]
    if sorted(got) != sorted(keys(f"plan{i}.txt")):
        bad.append(f"task {i} stored {sorted(got)}, its shard is {sorted(keys(f'plan{i}.txt'))}")
    if env is None or any(r["env"] != env for r in recs):
        bad.append(f"task {i}: runs not of its environment {envs}")
    if any(r["status"] != "ok" for r in recs):
        bad.append(f"task {i}: a run not ok")
    every += [k for k in got if k[2] == "measure"]
    t = lambda r: datetime.datetime.fromisoformat(r["started_at"].replace("Z", "+00:00")).timestamp()
    spans.append((min(t(r) for r in recs), max(t(r) + r["metrics"]["wall_ms"] / 1000 for r in recs), i))
measured = [k for k in keys("plan.txt") if k[2] == "measure"]
if sorted(every) != sorted(measured):
    bad.append(f"measured runs stored {sorted(every)}, planned {sorted(measured)}")
spans.sort()
for a, b in zip(spans, spans[1:]):
    if b[0] < a[1]:
        bad.append(f"task {a[2]} ({a[0]:.3f}-{a[1]:.3f}) and task {b[2]} ({b[0]:.3f}-{b[1]:.3f}) overlap")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# A task that never ran: cancelled while queued. The merge job cannot run
# (afterok) and is cancelled with it; --resume queues that task alone.
"$RC" slurm s.json -o again --tasks 4 --no-check --submit >sub2.txt 2>err.txt ||
    { fail "second submit"; cat err.txt; }
array=$(sed -n 's/^submitted: array job \([0-9]*\) .*/\1/p' sub2.txt)
scancel "${array}_3" || fail "scancel ${array}_3"
slurm_wait_queue 180 || fail "the second collection did not end within 180 s"
[ ! -e again/shards/task3.$host ] || fail "the cancelled task 3 ran"
[ ! -e again/report/report.md ] || fail "the merge ran although task 3 did not"
"$RC" slurm s.json -o again --resume --no-check --submit >sub3.txt 2>err3.txt
rc=$?
[ $rc -eq 0 ] || { fail "resume: rc $rc"; cat err3.txt; }
grep -q "resume: 3 runs left, in tasks 3 of 4" err3.txt || { fail "resume note"; cat err3.txt; }
array2=$(sed -n 's/^submitted: array job \([0-9]*\) .*/\1/p' sub3.txt)
slurm_wait_queue 180 || fail "the resumed collection did not end within 180 s"
[ -s again/report/report.md ] || fail "no report after --resume"
ls again/slurm/ | grep -q "^task3-$array2.out$" || fail "task 3 not queued again"
[ "$(ls again/slurm/ | grep -c -- "-$array2.out$")" -eq 1 ] ||
    fail "--resume queued more than task 3: $(ls again/slurm)"
n=$(cat again/shards/task*/naps.jsonl | grep -c '"phase":"measure"')
[ "$n" -eq 8 ] || fail "after --resume $n measured runs are stored, expected 8"

"$RC" slurm s.json -o again --no-check --submit 2>err.txt
rc=$?
[ $rc -eq 1 ] && grep -q "holds runs of the suite 'naps' already" err.txt ||
    { fail "a second fresh submission over stored runs: rc $rc"; cat err.txt; }

slurm_cluster_stop
for f in "$TMP"/cluster/*.pid; do
    [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && fail "$(basename "$f" .pid) still runs"
done
finish slurm
