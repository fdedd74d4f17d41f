#!/usr/bin/env bash
# suite_racing.sh BUILD ROOT - racing in an adaptive suite (docs/methods.md
# §6b): a config ten times slower is eliminated after a look of the race
# and gets no more runs, while the two fast contenders (the same command)
# go on (the precision target of 0.5 % keeps them running); its runs stay
# in the store and the analysis says at which look it went. The primary
# metric is the command's own rundown:metric line, not the wall time: a
# fake clock whose values repeat 5.0, 5.1, 5.2 ms (50.0, 50.1, 50.2 for
# the slow config), so the verdict does not depend on the machine's load
# (issue 27 item 6; it slept 0.005 and 0.05 s before). With "keep_racing"
# naming it, the slow config is never eliminated. The relative
# half-width of a fast config's 95 % interval at the cap of 10 runs is
# 1.23 % > 0.5 %, so neither settles and both run to the cap (R:
# v <- c(rep(c(5.0, 5.1, 5.2), 3), 5.0); qt(0.975, 9) * sd(v) / sqrt(10) /
# mean(v) = 0.01230576).
. "$(dirname "$0")/require.bash" python3
set -u
. "$(dirname "$0")/runner_lib.bash" "$1"
RA=$BUILD/analyze/rundown-analyze
cat > s.json <<JSON
{"schema": "rundown.suite/1", "name": "race", "root": ".",
 "runs": {"min": 4, "max": 10}, "until": "settled", "precision": 0.005,
 "workloads": [
  {"name": "sleep", "class": "cpu", "primary": {"metric": "calc_ms", "better": "lower"},
   "matrix": {"s": ["a", "b", "slow"]},
   "command": ["sh", "-c", "f=\$1.n; n=\$(cat \$f 2>/dev/null || echo 0); echo \$((n + 1)) >\$f; case \$1 in slow) b=50;; *) b=5;; esac; echo rundown:metric calc_ms=\$b.\$((n % 3))", "sh", "{s}"]}
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
# The same suite with the slow config in "keep_racing" (a published claim
# compares it): the race never eliminates it, so it runs to the cap of 10
# with the contenders, its runs carry info.race_keep, and the analysis's
# replay of the race keeps it too: its verdict is still "worse".
python3 - <<'PY'
import json
s = json.load(open("s.json"))
s["name"] = "keep"
s["workloads"][0]["keep_racing"] = [{"s": "slow"}]
json.dump(s, open("k.json", "w"))
PY
rm -f a.n b.n slow.n
"$RC" suite -o kout k.json 2> kerr.txt || { fail "suite with keep_racing failed"; cat kerr.txt; }
! grep -q "eliminated" kerr.txt || { fail "a kept config was eliminated"; cat kerr.txt; }
check kout/keep.jsonl "the kept slow config runs as long as the fast ones" '
(lambda n: n["slow"] == n["a"] == n["b"] == 10)(
  {s: sum(1 for r in recs if r.get("phase") == "measure" and r["config"]["s"] == s)
   for s in ("a", "b", "slow")}) and all(
  (r.get("info", {}).get("race_keep") == "true") == (r["config"]["s"] == "slow") for r in recs)'
"$RA" -o k.json kout/keep.jsonl || fail "analyze of the kept race failed"
python3 - <<'PY' || fails=$((fails + 1))
import json
w = json.load(open("k.json"))["workloads"][0]
cfg = {c["id"]: c for c in w["collection"]["configs"]}
assert all(c["state"] != "eliminated" and "eliminated_at" not in c for c in cfg.values()), cfg
v = {x["config"]: x["verdict"] for x in w["recommendation"]["verdicts"]}
assert v["s=slow"] == "worse", v
PY
finish suite_racing
