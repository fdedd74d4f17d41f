#!/usr/bin/env bash
# travel.sh BUILD ROOT - records that travel: a suite's commands are stored
# relative to its root ({root} as "."), logs and imported inputs relative
# to the store's folder, the root recorded once in the environment; so a
# store collected in one folder, moved with its logs, reads the same.
. "$(dirname "$0")/require.bash" python3
set -u
ROOT=$(cd "$2" && pwd) || exit 2
. "$(dirname "$0")/runner_lib.bash" "$1"
ANALYZE=$BUILD/analyze/rundown-analyze
mkdir -p lab/work/bin lab/data
cat > lab/work/bin/tool.sh <<'SH'
#!/bin/sh
if [ "$1" = "--version" ]; then echo "tool 1.2"; exit 0; fi
echo "rundown:metric calc_ms=$2"
echo "a line of output"
SH
chmod +x lab/work/bin/tool.sh
cat > lab/work/s.json <<'JSON'
{"schema": "rundown.suite/1", "name": "travel", "root": ".",
 "runtimes": {"tool": {"cmd": ["{root}/bin/tool.sh"]}},
 "workloads": [
  {"name": "w", "class": "cpu", "runs": 3, "matrix": {"runtime": ["tool"], "n": ["1", "2"]},
   "primary": {"metric": "calc_ms", "better": "lower"},
   "command": ["{runtime.cmd}", "--n", "{n}", "{root}/data.txt"]}
 ]}
JSON
touch lab/work/data.txt
( cd lab && "$RC" suite -o data work/s.json 2>../err.txt ) || { fail "suite failed"; cat err.txt; }
check lab/data/travel.jsonl "suite records" 'len(recs) == 6 and all(r["info"]["command"] == "./bin/tool.sh --n " + r["config"]["n"] + " ./data.txt" and r["source"]["stdout_log"].startswith("logs/w/") and "/" + "lab" not in json.dumps(r) for r in recs)'
envfile=$(ls lab/data/env-*.json)
python3 - "$envfile" "$TMP/lab/work" <<'PY' || fail "suite environment"
import json, os, sys
e = json.load(open(sys.argv[1]))
assert os.path.realpath(e["root"]) == os.path.realpath(sys.argv[2]), e["root"]
t = e["runtimes"]["tool"]
assert t["version"] == "tool 1.2" and t["version_cmd"] == "./bin/tool.sh --version", t
PY
for r in $(python3 -c 'import json,sys; [print(json.loads(l)["source"]["stdout_log"]) for l in open(sys.argv[1])]' lab/data/travel.jsonl); do
    [ -s "lab/data/$r" ] || fail "log $r is not in the store's folder"
done

# run and import into a store in a sub-folder: logs and inputs relative to it.
( cd lab && "$RC" run -r 1 --workload r -o data/r.jsonl -- sh -c 'echo out' >/dev/null 2>&1 ) || fail "run failed"
check lab/data/r.jsonl "run logs" 'recs[0]["source"]["stdout_log"].startswith("logs/r/") and __import__("os").path.exists("lab/data/" + recs[0]["source"]["stdout_log"])'
cp "$ROOT/data/samples/wrk-default.txt" lab/wrk.txt
( cd lab && "$RC" import -w h -o data/r.jsonl wrk.txt ) || fail "import failed"
check lab/data/r.jsonl "import input" 'recs[1]["source"]["file"] == "../wrk.txt"'

# The analysis of the store reads the same before and after a move.
"$ANALYZE" -o before.json lab/data/travel.jsonl 2>/dev/null || fail "analyze before the move"
mv lab moved
"$ANALYZE" -o after.json moved/data/travel.jsonl 2>/dev/null || fail "analyze after the move"
# Byte for byte, but for the store's own path as the command line named it.
sed 's|"moved/data/travel.jsonl"|"lab/data/travel.jsonl"|' after.json > after-renamed.json
cmp -s before.json after-renamed.json || { fail "the analysis changed with the move"; diff before.json after-renamed.json | head; }
finish travel
