"""The parts of an analysis that say which way is better, and what follows
from it: per workload the primary's, the tests', each metric's and each key
metric's direction, the decision, and the warnings."""
import json
import sys

a = json.load(sys.stdin)
for w in a["workloads"]:
    print("workload", w["name"])
    print("  primary", w["primary"]["metric"], w["primary"]["better"])
    print("  tests", w["tests"]["metric"], w["tests"]["better"])
    for c in w["configs"]:
        print("  config", c["id"], " ".join(
            "%s=%s" % (m, s["better"]) for m, s in sorted(c["metrics"].items())))
    r = w["recommendation"]
    print("  decision", r["decision"], "best", r["best"], "recommended", r["recommended"])
    for k in r.get("key_metrics", []):
        print("  key", k["metric"], k["better"], "best", k["best"])
    for x in w["warnings"]:
        print("  warning", x["code"], x["metric"], x["message"])
