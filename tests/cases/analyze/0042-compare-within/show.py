# Prints a workload's decisions within a label, numbers to 6 significant digits.
import json, sys
a = json.load(open(sys.argv[1]))
for w in a["workloads"]:
    r = w["recommendation"]
    print(w["name"], "compare_within", w.get("compare_within"), w.get("compare_within_from"))
    print("  top", r["decision"], "recommended", r["recommended"], "family", r["family"],
          "settled", r["settled_labels"], "open", r["open_labels"])
    print("  reason", r["reason"])
    for v in r["verdicts"]:
        f = lambda x: "null" if x is None else "%.6g" % x
        print("  ", v["config"], v["verdict"], f(v["ratio"]), f(v["ratio_ci_low"]),
              f(v["ratio_ci_high"]), f(v["equivalence_ci_low"]), f(v["equivalence_ci_high"]),
              f(v["p_adj"]))
    for p in w.get("within", []):
        q = p["recommendation"]
        print("  part", p["values"], p["configs"], q["decision"], q["recommended"],
              "k", q["family"], "c", "null" if q["critical_value"] is None else "%.6g" % q["critical_value"], "df", q["df"],
              "settled", q["settled_labels"], "open", q["open_labels"])
    print("  warnings", sorted(x["code"] for x in w["warnings"]))
