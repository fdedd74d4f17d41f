#!/usr/bin/python3
"""Independent check of a rundown.compare/1 document against SciPy.

    /usr/bin/python3 tests/cases/analyze/compare_verify.py OLD NEW COMPARE.json
    /usr/bin/python3 tests/cases/analyze/compare_verify.py --by KEY=A,B STORE COMPARE.json

Re-reads the stores, recomputes every comparison by formula (the interval
of new/old on the log scale, exp(log r +- c se) with the delta-method se,
at c = t_{1-alpha/(2m)} with the log-scale Welch df rounded down;
equivalence on the 1 - 2 alpha/m interval at t_{1-alpha/m}; p = min(1,
m * two-sided t p) for t = log r / se; docs/methods.md) with numpy/scipy (Debian
python3-scipy 1.10.1) and compares to 1e-9 relative (p 1e-7). Run it
after `run_case.sh --update` on a compare case; it never uses rundown's
code. Prints OK or every mismatch.
"""
import json
import math
import sys

import numpy as np
from scipy import stats

fails = 0


def close(want, got, rel, what):
    global fails
    if want is None:
        ok = got is None
    else:
        ok = got is not None and abs(want - got) <= rel * abs(want) + 1e-300
    if not ok:
        fails += 1
        print(f"MISMATCH {what}: scipy {want!r}, rundown {got!r}")


def read(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        if r.get("phase", "measure") != "measure" or r.get("status", "ok") != "ok":
            continue
        out.setdefault((r["workload"], tuple(sorted(r["config"].items()))), {})
        for m, v in r["metrics"].items():
            out[(r["workload"], tuple(sorted(r["config"].items())))].setdefault(m, []).append(v)
    return out


args = sys.argv[1:]
if args[0] == "--by":
    key, ab = args[1].split("=")
    a, b = ab.split(",")
    allruns = read(args[2])
    doc = json.load(open(args[3]))
    sides = [{}, {}]
    for (wl, cfg), ms in allruns.items():
        d = dict(cfg)
        if d.get(key) not in (a, b):
            continue
        rest = ",".join(f"{k}={v}" for k, v in cfg if k != key)
        sides[0 if d[key] == a else 1][(wl, rest)] = ms
else:
    doc = json.load(open(args[2]))
    sides = [{(wl, ",".join(f"{k}={v}" for k, v in cfg)): ms for (wl, cfg), ms in read(p).items()}
             for p in args[:2]]

alpha = doc["settings"]["alpha"]
margin = doc["settings"]["margin"]
gate = doc["settings"]["fail_if_slower"]
rows = doc["comparisons"]
usable = [r for r in rows if r["verdict"] is not None]
m = len(usable)
close(m, doc["family"], 0, "family")
for r in rows:
    what = f"{r['workload']} {r['config']}"
    o = sides[0].get((r["workload"], r["config"]), {}).get(r["metric"])
    n = sides[1].get((r["workload"], r["config"]), {}).get(r["metric"])
    if r["verdict"] is None:
        if o and n and len(o) >= 2 and len(n) >= 2:
            fails += 1
            print(f"MISMATCH {what}: has no verdict but both sides have runs")
        continue
    o, n = np.array(o, float), np.array(n, float)
    n1, m1, s1 = len(o), o.mean(), o.std(ddof=1)
    n2, m2, s2 = len(n), n.mean(), n.std(ddof=1)
    close(m1, r["old"]["mean"], 1e-12, what + " old mean")
    close(s1, r["old"]["sd"], 1e-9, what + " old sd")
    close(m2, r["new"]["mean"], 1e-12, what + " new mean")
    va, vb = s2 * s2 / (n2 * m2 * m2), s1 * s1 / (n1 * m1 * m1)
    df = math.floor((va + vb) ** 2 / (va * va / (n2 - 1) + vb * vb / (n1 - 1)))
    c = stats.t.ppf(1 - alpha / (2 * m), df)
    d = stats.t.ppf(1 - alpha / m, df)
    ratio = m2 / m1
    lr, se = math.log(ratio), math.sqrt(va + vb)
    lo, hi = math.exp(lr - c * se), math.exp(lr + c * se)
    elo, ehi = math.exp(lr - d * se), math.exp(lr + d * se)
    t = lr / se
    p = min(1.0, m * 2 * stats.t.sf(abs(t), df))
    estimable = all(x.mean() - c * x.std(ddof=1) / math.sqrt(len(x)) > 0 for x in (o, n))
    if not estimable:
        lo = hi = p = None
    close(ratio, r["ratio"], 1e-12, what + " ratio")
    close(lo, r["ratio_ci_low"], 1e-9, what + " ratio_ci_low")
    close(hi, r["ratio_ci_high"], 1e-9, what + " ratio_ci_high")
    close(p, r["p_adjusted"], 1e-7, what + " p_adjusted")
    higher = r["better"] == "higher"
    if not estimable:
        v = "inconclusive"
    elif elo >= 1 - margin and ehi <= 1 + margin:
        v = "equivalent"
    elif abs(t) > c:
        v = "slower" if (ratio < 1 if higher else ratio > 1) else "faster"
    else:
        v = "inconclusive"
    if v != r["verdict"]:
        fails += 1
        print(f"MISMATCH {what} verdict: {v} vs {r['verdict']}")
    if gate is not None:
        reg = estimable and (hi < 1 - gate if higher else lo > 1 + gate)
        if reg != r["regression"]:
            fails += 1
            print(f"MISMATCH {what} regression: {reg} vs {r['regression']}")
print("OK" if not fails else f"{fails} mismatches")
sys.exit(1 if fails else 0)
