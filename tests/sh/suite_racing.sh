#!/usr/bin/env bash
# suite_racing.sh BUILD ROOT - racing in an adaptive suite (docs/methods.md
# §6b): a config ten times slower (sleep 0.05 against 0.005) is eliminated
# after a look of the race and gets no more runs, while the two fast
# contenders (the same command) go on (the precision target of 0.5 %
# keeps them running); its runs stay in the store and the analysis says at which look it
# went. Timing-dependent (label timing): the slow config's t against the
# fast ones is about 45 ms over its run-to-run spread.
. "$(dirname "$0")/require.bash" python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
RA=$BUILD/analyze/rundown-analyze
cat > s.json <<JSON
{"schema": "rundown.suite/1", "name": "race", "root": ".",
 "runs": {"min": 4, "max": 10}, "until": "settled", "precision": 0.005,
 "workloads": [
  {"name": "sleep", "class": "cpu", "primary": {"metric": "wall_ms", "better": "lower"},
   "matrix": {"s": ["a", "b", "slow"]},
   "command": ["sh", "-c", "case \$1 in slow) sleep 0.05;; *) sleep 0.005;; esac", "sh", "{s}"]}
 ]}
JSON
"$RC" suite -o out s.json 2> err.txt || { fail "suite failed"; cat err.txt; }
grep -q "^rundown-collect: sleep: .*(1 config eliminated as slower than the best)$" err.txt ||
    { fail "no elimination note"; cat err.txt; }
check out/race.jsonl "the slow config stops, the fast go on" '
(lambda n: n["slow"] >= 4 and n["slow"] < n["a"] == n["b"])(
  {s: sum(1 for r in recs if r.get("phase") == "measure" and r["config"]["s"] == s)
   for s in ("a", "b", "slow")})'
"$RA" -o a.json out/race.jsonl || fail "analyze failed"
python3 - <<'PY' || fails=$((fails + 1))
import json
w = json.load(open("a.json"))["workloads"][0]
cfg = {c["id"]: c for c in w["collection"]["configs"]}
slow = cfg["s=slow"]
assert slow["state"] == "eliminated" and slow["eliminated_at"] >= 4, slow
assert all(cfg[i]["state"] != "eliminated" and "eliminated_at" not in cfg[i]
           for i in ("s=a", "s=b")), cfg
v = {x["config"]: x["verdict"] for x in w["recommendation"]["verdicts"]}
assert v["s=slow"] == "worse", v
PY
finish suite_racing
