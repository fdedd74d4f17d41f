#!/usr/bin/env python3
"""mutate_analysis.py - turns a valid analysis.json into a hostile one.

    mutate_analysis.py IN OUT KIND

Used by tests/hostile/cases.txt (PREP steps), so the hostile analyses follow
the analysis format as it grows instead of being frozen copies.
"""
import copy
import json
import sys

src, dst, kind = sys.argv[1:4]
d = json.load(open(src))
w = d["workloads"][0]
c = w["configs"][0]
m = c["metrics"]["wall_ms"]

if kind == "mean-string":
    m["mean"] = "fast"
elif kind == "mean-1e308":
    m.update(mean=1e308, ci_low=-1e308, ci_high=1e308, max=1e308, values=[1e308, -1e308])
elif kind == "n-negative":
    m["n"] = -3
elif kind == "values-1m":
    m["values"] = [1.5] * 1000000
    m["n"] = 1000000
elif kind == "primary-unknown":
    w["primary"]["metric"] = "nosuch_ms"
elif kind == "name-traversal":
    w["name"] = "../../../rundown-hostile-escape"
elif kind == "label-1mb":
    c["labels"] = {"rt": "x" * 1000000}
    c["id"] = "rt=" + "x" * 1000000
    c["display"] = "x" * 1000000
elif kind == "tests-garbage":
    w["tests"] = {"pairs": [{"a": "zz", "b": None, "p": "x"}], "anova": 5}
elif kind == "dup-workloads":
    d["workloads"] = [copy.deepcopy(w), copy.deepcopy(w)]
elif kind == "invalid-utf8":
    c["labels"] = {"rt": "a\udcff"}
    c["display"] = "a\udcff"
else:
    sys.exit("unknown kind " + kind)

text = json.dumps(d)
with open(dst, "wb") as f:
    # invalid-utf8: the lone surrogate escape stands for a raw 0xff byte.
    f.write(text.replace("\\udcff", "\udcff").encode("utf-8", "surrogateescape"))
