#!/usr/bin/env bash
# suite_resume.sh BUILD ROOT - a suite interrupted by SIGINT, then by
# SIGKILL, then resumed to the end: every run of the plan is in the store
# exactly once, every line is a whole record, and a further --resume has
# nothing left to do. Also: --dry-run, --shard and --only select what the
# plan says, and a suite with an error runs nothing.
. "$(dirname "$0")/require.bash" python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
MARK="rdsuite$$"
# 3 configs x (1 warmup + 4 runs) + 1 config x 3 runs = 18 runs of ~0.15 s.
cat > s.json <<JSON
{"schema": "rundown.suite/1", "name": "resume", "order": "random", "seed": 11,
 "workloads": [
  {"name": "w", "class": "cpu", "runs": 4, "warmups": 1,
   "matrix": {"k": ["a", "b", "c"]},
   "command": ["sh", "-c", "sleep 0.15; echo rundown:metric k_ms=1; : {k}", "$MARK"]},
  {"name": "v", "class": "startup", "runs": 3, "command": "sleep 0.15"}
 ]}
JSON
count() { [ -f out/resume.jsonl ] && wc -l < out/resume.jsonl || echo 0; }
wait_lines() {  # until the store has at least N lines
    for i in $(seq 1 600); do [ "$(count)" -ge "$1" ] && return 0; sleep 0.05; done
    return 1
}

"$RC" suite --dry-run -o out s.json > plan.txt || fail "dry-run failed"
head -1 plan.txt | grep -q "^suite resume: 18 runs, order random, seed 11$" || { fail "dry-run header"; head -1 plan.txt; }
sed -n 2p plan.txt | grep -q "^time: unknown" || { fail "dry-run time line"; sed -n 2p plan.txt; }
[ "$(wc -l < plan.txt)" -eq 20 ] || fail "dry-run lists $(($(wc -l < plan.txt) - 2)) runs, expected 18"
[ ! -e out ] || fail "dry-run wrote output"

# A background job of a shell without job control starts with SIGINT
# ignored, and rundown keeps an inherited ignore (nohup): env restores the
# default so that the SIGINT below reaches it.
env --default-signal=INT "$RC" suite -o out s.json 2>err1.txt &
pid=$!
wait_lines 4 || fail "no progress before SIGINT"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, expected 130"
grep -q "continue with --resume" err1.txt || fail "SIGINT: no hint on stderr"
n1=$(count)

"$RC" suite --resume -o out s.json 2>err2.txt &
pid=$!
wait_lines $((n1 + 4)) || fail "no progress before SIGKILL"
exec 3>&2 2>/dev/null  # bash reports the killed job on the shell's stderr
kill -KILL $pid
wait $pid
exec 2>&3 3>&-
n2=$(count)
[ "$n2" -gt "$n1" ] || fail "the resumed run added nothing"
sleep 0.3  # the orphaned run in flight ends on its own

"$RC" suite --resume -o out s.json 2>err3.txt
rc=$?
[ $rc -eq 0 ] || { fail "final resume: exit $rc"; cat err3.txt; }
grep -q "resume: $n2 of 18 runs are already in out/resume.jsonl" err3.txt || { fail "resume note"; cat err3.txt; }

python3 - out/resume.jsonl <<'PY' || fails=$((fails + 1))
import json, sys, collections
recs = [json.loads(l) for l in open(sys.argv[1])]   # a torn line would fail here
keys = collections.Counter((r["suite"], r["workload"], json.dumps(r["config"], sort_keys=True),
                            r["phase"], r["run"]) for r in recs)
want = set()
for k in "abc":
    want.add(("resume", "w", json.dumps({"k": k}), "warmup", 1))
    for run in range(1, 5):
        want.add(("resume", "w", json.dumps({"k": k}), "measure", run))
for run in range(1, 4):
    want.add(("resume", "v", "{}", "measure", run))
dups = [k for k, n in keys.items() if n > 1]
ok = not dups and set(keys) == want and all(r["status"] == "ok" for r in recs)
ok = ok and all(r["info"]["seed"] == "11" and r["info"]["order"] == "random" for r in recs)
ok = ok and all(r["metrics"]["k_ms"] == 1 for r in recs if r["workload"] == "w")
if not ok:
    print("FAIL: store content: dups", dups, "missing", want - set(keys), "extra", set(keys) - want)
    sys.exit(1)
PY
"$RC" suite --resume --dry-run -o out s.json > plan2.txt 2>&1
head -1 plan2.txt | grep -q "^suite resume: 0 runs" || { fail "nothing should be left"; cat plan2.txt; }
envs=$(ls out/env-*.json | wc -l)
[ "$envs" -eq 1 ] || fail "expected one environment file, got $envs"

# Shards partition the measured runs; --only narrows by config id.
for i in 1 2 3; do "$RC" suite --dry-run --shard $i/3 s.json | tail -n +3; done |
    grep -c " measure " > n.txt
[ "$(cat n.txt)" -eq 15 ] || fail "3 shards hold $(cat n.txt) measured runs, expected 15"
"$RC" suite --dry-run --only 'w/k=b' s.json | tail -n +3 | grep -vc " w k=b " > n.txt
[ "$(cat n.txt)" -eq 0 ] || fail "--only kept other configs"

# An invalid suite runs nothing and touches no store.
sed 's/"sleep 0.15"/"sleep {seconds}"/' s.json > bad.json
"$RC" suite -o out2 bad.json 2>err4.txt
rc=$?
[ $rc -eq 1 ] || fail "bad suite: exit $rc, expected 1"
grep -q "workload 'v': unknown placeholder '{seconds}' in command\[1\]" err4.txt || { fail "bad suite message"; cat err4.txt; }
[ ! -e out2 ] || fail "bad suite: output written"

no_leftovers "suite" "$MARK"
finish suite_resume
