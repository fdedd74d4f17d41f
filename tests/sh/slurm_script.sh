#!/usr/bin/env bash
# slurm_script.sh BUILD ROOT - the job scripts of `rundown-collect slurm`
# run the way Slurm runs them (bash, SLURM_ARRAY_TASK_ID), without Slurm:
# fake sinfo, sbatch and squeue record what rundown asks, a fake hostname
# plays two nodes. Checks: a task stores its shard in task<I>.<host>; a
# task resumed on another node skips what the first node stored
# (--resume-from), so every run is stored once; --resume queues only the
# tasks with runs left (sbatch --array=...), and only the merge once all
# are stored; failed runs do not fail the task (exit 4 -> 0); a changed
# suite file stops a task and is refused by --resume; a collection with a
# job still queued is not submitted again; the merge job renders the
# report from every shard.
. "$(dirname "$0")/require.bash" python3 sha256sum
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
mkdir bin
cat > bin/sinfo <<'EOF'
#!/bin/sh
echo "short* 2 infinite"
EOF
# sbatch: notes its arguments, answers job ids 100, 101, ...
cat > bin/sbatch <<'EOF'
#!/bin/sh
n=$(cat "$FAKE/next" 2>/dev/null || echo 100)
echo "$n $*" >> "$FAKE/sbatch.log"
echo $((n + 1)) > "$FAKE/next"
echo "$n"
EOF
# squeue: lists the jobs named in $FAKE/queued.
cat > bin/squeue <<'EOF'
#!/bin/sh
cat "$FAKE/queued" 2>/dev/null
EOF
cat > bin/hostname <<'EOF'
#!/bin/sh
cat "$FAKE/host"
EOF
chmod +x bin/*
export FAKE=$TMP
export PATH=$TMP/bin:$PATH
echo nodeA > host

cat > s.json <<'JSON'
{"schema": "rundown.suite/1", "name": "naps", "order": "random", "seed": 7,
 "workloads": [
  {"name": "nap", "class": "cpu", "runs": 3, "matrix": {"len": ["0.01", "0.02"]},
   "command": ["sleep", "{len}"]},
  {"name": "flop", "class": "cpu", "runs": 2, "command": ["sh", "-c", "exit 3"]}
 ]}
JSON

"$RC" slurm s.json -o out --tasks 3 --no-check --submit >sub.txt 2>err.txt ||
    { fail "submit"; cat err.txt; }
grep -q "^100 --parsable $TMP/out/slurm/tasks.sh$" sbatch.log || { fail "array sbatch line"; cat sbatch.log; }
grep -q "^101 --parsable --dependency=afterok:100 --kill-on-invalid-dep=yes $TMP/out/slurm/merge.sh$" sbatch.log ||
    { fail "merge sbatch line"; cat sbatch.log; }
grep -q '^#SBATCH --array=1-3%2$' out/slurm/tasks.sh || fail "3 tasks on 2 nodes: no %2"
check_manifest() {
    python3 - "$1" <<'PY' || fails=$((fails + 1))
import json, sys
m = json.load(open("out/slurm.json"))
want = sys.argv[1].split(",")
if m["jobs"] != want or m["tasks"] != 3 or m["seed"] != 7 or m["suite"] != "naps":
    print("FAIL: slurm.json", m, "jobs expected", want); sys.exit(1)
PY
}
check_manifest 100,101

# Task 1 and 3 on nodeA; task 2 stored part of its shard on nodeA (one
# config) before it was lost, and runs again on nodeB.
for t in 1 3; do
    SLURM_ARRAY_TASK_ID=$t bash out/slurm/tasks.sh >task$t.out 2>&1
    rc=$?
    [ $rc -eq 0 ] || { fail "task $t: rc $rc (failed runs must not fail the task)"; cat task$t.out; }
done
"$RC" suite --shard 2/3 --seed 7 --only 'nap/len=0.01' -o out/shards/task2.nodeA s.json 2>/dev/null
before=$(wc -l < out/shards/task2.nodeA/naps.jsonl)
[ "$before" -ge 1 ] || fail "the partial task 2 stored nothing"

: > sbatch.log
echo 101 > queued
"$RC" slurm s.json -o out --resume --no-check --submit >/dev/null 2>err.txt
rc=$?
[ $rc -eq 1 ] && grep -q "job 101 of this collection is still queued or running" err.txt ||
    { fail "resume while a job is queued: rc $rc"; cat err.txt; }
[ ! -s sbatch.log ] || fail "submitted while a job was queued"
rm queued

"$RC" slurm s.json -o out --resume --no-check --submit >sub2.txt 2>err.txt ||
    { fail "resume submit"; cat err.txt; }
grep -q -- "^102 --parsable --array=2 $TMP/out/slurm/tasks.sh$" sbatch.log ||
    { fail "resume: not only task 2 queued"; cat sbatch.log err.txt; }
grep -q "resume: [0-9]* runs left, in tasks 2 of 3" err.txt || { fail "resume note"; cat err.txt; }
check_manifest 100,101,102,103

echo nodeB > host
SLURM_ARRAY_TASK_ID=2 bash out/slurm/tasks.sh >task2.out 2>&1 || { fail "task 2 on nodeB"; cat task2.out; }

# Every planned measured run once over all stores, each task's in its own.
for t in 1 2 3; do "$RC" suite --dry-run --shard $t/3 --seed 7 -o none s.json | tail -n +3 > plan$t.txt; done
python3 - <<'PY' || fails=$((fails + 1))
import glob, json, sys
def keys(path):
    out = []
    for line in open(path):
        _, w, labels, phase, run = line.split(":")[0].split()
        out.append((w, labels, phase, int(run)))
    return sorted(out)
bad = []
got = {}
for store in sorted(glob.glob("out/shards/*/naps.jsonl")):
    folder = store.split("/")[2]
    env = [json.load(open(e))["id"] for e in glob.glob(store.rsplit("/", 1)[0] + "/env-*.json")]
    for l in open(store):
        r = json.loads(l)
        k = (r["workload"], ",".join(f"{a}={b}" for a, b in r["config"].items()) or "-", r["phase"], r["run"])
        got.setdefault(folder[:5], []).append(k)
        if [r["env"]] != env:
            bad.append(f"{folder}: run {k} of env {r['env']}, folder has {env}")
for t in (1, 2, 3):
    if sorted(got.get(f"task{t}", [])) != keys(f"plan{t}.txt"):
        bad.append(f"task {t}: stored {sorted(got.get(f'task{t}', []))}, shard {keys(f'plan{t}.txt')}")
if sorted(glob.glob("out/shards/*")) != ["out/shards/task1.nodeA", "out/shards/task2.nodeA",
                                         "out/shards/task2.nodeB", "out/shards/task3.nodeA"]:
    bad.append(f"folders {sorted(glob.glob('out/shards/*'))}")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
[ "$(wc -l < out/shards/task2.nodeA/naps.jsonl)" -eq "$before" ] || fail "nodeB wrote into nodeA's store"

# All stored: --resume queues the merge alone.
: > sbatch.log
"$RC" slurm s.json -o out --resume --no-check --submit >/dev/null 2>err.txt || { fail "resume 2"; cat err.txt; }
grep -q "every task's runs are stored; only the merge is queued" err.txt || { fail "resume 2 note"; cat err.txt; }
[ "$(cat sbatch.log)" = "104 --parsable $TMP/out/slurm/merge.sh" ] || { fail "resume 2 sbatch"; cat sbatch.log; }

bash out/slurm/merge.sh >merge.out 2>&1 || { fail "merge.sh"; cat merge.out; }
[ -s out/report/report.md ] && [ -s out/report/report.xlsx ] || fail "merge rendered no report"
grep -q "flop" out/report/report.md || fail "the report lacks the workload with failed runs"

# A changed suite: the task refuses to run, and so does --resume.
echo " " >> s.json
SLURM_ARRAY_TASK_ID=1 bash out/slurm/tasks.sh >task1b.out 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "changed since it was planned: task 1 stops" task1b.out ||
    { fail "changed suite: task rc $rc"; cat task1b.out; }
"$RC" slurm s.json -o out --resume --no-check --dry-run >/dev/null 2>err.txt
rc=$?
[ $rc -eq 1 ] && grep -q "changed since this collection was planned" err.txt ||
    { fail "changed suite: resume rc $rc"; cat err.txt; }
finish slurm_script
