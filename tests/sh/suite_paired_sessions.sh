#!/usr/bin/env bash
# suite_paired_sessions.sh BUILD ROOT - on --resume, the collector pairs
# the store's runs of a workload paired within rounds ("blocks": "round")
# by the sessions the analysis cuts the store into (stats/sessioncut.h,
# docs/methods.md "Sessions" and §6a), not as one earlier collection.
# The store holds two earlier sessions of configs a and b, rounds 1-4 at
# 00:00 and again at 02:00 (a gap of two hours: a pause), so round r is
# two rounds, one a session:
#   session 1: a 5, 5.01, 5, 5.01; b 5.5 (ratios b/a hardly vary)
#   session 2: a 5; b 2.5, 11, 3, 9 (ratios from 0.5 to 2.2)
# The analysis pairs all 8 (SciPy/numpy:
#   a = np.array([5, 5.01, 5, 5.01, 5, 5, 5, 5]);
#   b = np.array([5.5] * 4 + [2.5, 11, 3, 9]); l = np.log(b / a);
#   np.exp(l.mean()) = 1.0711035711236214, df len(l) - 1 = 7,
#   l.std(ddof=1) = 0.4937). Keyed by (earlier collection, run) the
# collector kept one value a round, session 1's (l[:4].std(ddof=1) =
# 0.00115), found every config precise to 2 % and stopped with no new
# run; keyed by session it reads the 8 pairs' spread of 0.49, as the
# verdicts do, and collects to runs.max (12: 4 more rounds each).
. "$(dirname "$0")/require.bash" python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
python3 - > stored.jsonl <<'PY'
import json
base = {"schema": "rundown.run/1", "suite": "ps", "workload": "clock", "phase": "measure",
        "tool": "rundown", "status": "ok", "exit_code": 0, "env": "env-test",
        "info": {"blocks": "round", "class": "cpu", "primary_better": "lower",
                 "primary_metric": "calc_ms"}}
vals = {0: {"a": [5.0, 5.01, 5.0, 5.01], "b": [5.5, 5.5, 5.5, 5.5]},
        2: {"a": [5.0, 5.0, 5.0, 5.0], "b": [2.5, 11.0, 3.0, 9.0]}}
for hour, v in vals.items():
    t = 0
    for r in range(1, 5):
        for s in ("a", "b"):
            print(json.dumps(dict(base, config={"s": s}, run=r,
                                  started_at="2026-01-01T%02d:00:%02d.000Z" % (hour, t),
                                  metrics={"calc_ms": v[s][r - 1]})))
            t += 1
PY
cat > ps.json <<'JSON'
{"schema": "rundown.suite/1", "name": "ps", "root": ".",
 "runs": {"min": 4, "max": 12}, "until": "settled", "precision": 0.02,
 "workloads": [
  {"name": "clock", "class": "cpu", "primary": {"metric": "calc_ms", "better": "lower"},
   "blocks": "round", "matrix": {"s": ["a", "b"]},
   "command": ["sh", "-c", "case $1 in a) echo rundown:metric calc_ms=5;; *) echo rundown:metric calc_ms=5.5;; esac", "sh", "{s}"]}
 ]}
JSON
# verdict: the analysis's paired ratio and df over the store's rounds
verdict() { # store ratio df label
    "$BUILD/analyze/rundown-analyze" -o a.json "$1" 2>/dev/null || { fail "$4: analyze failed"; return; }
    python3 - a.json "$2" "$3" "$4" <<'PY' || fails=$((fails + 1))
import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]["recommendation"]
b = [v for v in w["verdicts"] if v["config"] == "s=b"][0]
ok = w["method"].startswith("paired") and w["df"] == int(sys.argv[3]) and \
    abs(b["ratio"] / float(sys.argv[2]) - 1) < 1e-12
if not ok:
    print(f"FAIL: {sys.argv[4]}: df {w['df']}, ratio {b['ratio']}")
    sys.exit(1)
PY
}
verdict stored.jsonl 1.0711035711236214 7 "the analysis pairs both sessions' rounds"
mkdir out
cp stored.jsonl out/ps.jsonl
"$RC" suite --resume -o out ps.json 2> err.txt || { fail "suite --resume failed"; cat err.txt; }
check out/ps.jsonl "the collector reads the 8 pairs: open to runs.max" \
    "all(sum(1 for r in recs if r['config']['s'] == s) == 12 for s in 'ab')"
grep -q "stopped at runs.max with configs not yet precise" err.txt ||
    { fail "no runs.max stop"; cat err.txt; }
finish suite_paired_sessions
