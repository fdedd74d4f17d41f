"""What an analysis makes of imported runs: per config the runs counted and
the values used, the workload's env_unknown_runs, each verdict's reason,
and the warnings."""
import json
import sys

a = json.load(sys.stdin)
for w in a["workloads"]:
    print("workload", w["name"], "env_unknown_runs", w.get("env_unknown_runs", 0))
    for c in w["configs"]:
        print("  config", c["id"], "runs", c["runs"], "rps", c["metrics"]["rps"]["values"])
    r = w["recommendation"]
    print("  decision", r["decision"], "recommended", r["recommended"])
    for v in r["verdicts"]:
        print("  verdict", v["config"], v["verdict"], v["why"])
    for x in w["warnings"]:
        print("  warning", x["code"], x["count"], x["configs"], x["message"])
