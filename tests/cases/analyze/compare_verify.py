#!/usr/bin/python3
"""Independent check of a rundown.compare/1 document against SciPy.

    /usr/bin/python3 tests/cases/analyze/compare_verify.py OLD NEW COMPARE.json
    /usr/bin/python3 tests/cases/analyze/compare_verify.py --by KEY=A,B[,C...] STORE COMPARE.json
    /usr/bin/python3 tests/cases/analyze/compare_verify.py --sides S1 S2 [S3...] COMPARE.json

(--sides: each side a store or NAME=STORE[,STORE...], as --compare takes them.)
Re-reads the stores, recomputes every comparison of each side with the
first by formula (the interval of new/old on the log scale, exp(log r +- c
se) with the delta-method se, at c = t_{1-alpha/(2m)} with the log-scale
Welch df rounded down; equivalence on the 1 - 2 alpha/m interval at
t_{1-alpha/m} at the unrounded Welch df (as R's t.test takes it); p = min(1, m * two-sided t p) for t = log r / se;
docs/methods.md), each side's half-width t_{(1+conf)/2, n-1} sd / sqrt(n),
and an inconclusive comparison's runs_needed (verdict.c's runs_for for two
configs: n = ((c + d + 2 z) s / log(1 + margin))^2 with c = z_{1-a/2},
d = z_{1-a}, z = z_{0.8} at a = alpha/m, c and d corrected to
c + (c^3 + c) / (4 df) at df = 2 (n - 1), four rounds) with numpy/scipy
(Debian python3-scipy 1.10.1) and compares to 1e-9 relative (p 1e-7).
Run it after `run_case.sh --update` on a compare case; it never uses
rundown's code. Prints OK or every mismatch.
"""
import json
import math
import sys

import numpy as np
from scipy import stats

fails = 0


def rel_var(x):
    lin = (x.std(ddof=1) / x.mean()) ** 2
    if (x > 0).all():
        return max(lin, math.expm1(np.log(x).var(ddof=1)))
    return lin


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


def keyed(path):
    return {(wl, ",".join(f"{k}={v}" for k, v in cfg)): ms for (wl, cfg), ms in read(path).items()}


def merge(paths):
    out = {}
    for p in paths:
        for key, ms in keyed(p).items():
            for m, v in ms.items():
                out.setdefault(key, {}).setdefault(m, []).extend(v)
    return out


args = sys.argv[1:]
if args[0] == "--by":
    key, values = args[1].split("=")
    values = values.split(",")
    allruns = read(args[2])
    doc = json.load(open(args[3]))
    sides = [{} for _ in values]
    for (wl, cfg), ms in allruns.items():
        d = dict(cfg)
        if d.get(key) not in values:
            continue
        rest = ",".join(f"{k}={v}" for k, v in cfg if k != key)
        sides[values.index(d[key])][(wl, rest)] = ms
elif args[0] == "--sides":
    doc = json.load(open(args[-1]))
    sides = []
    for op in args[1:-1]:
        name, eq, stores = op.partition("=")
        sides.append(merge(stores.split(",") if eq else [op]))
else:
    doc = json.load(open(args[2]))
    sides = [keyed(p) for p in args[:2]]

alpha = doc["settings"]["alpha"]
margin = doc["settings"]["margin"]
conf = doc["settings"].get("confidence", 0.95)
gate = doc["settings"]["fail_if_slower"]
lines = doc["comparisons"]
if len(doc.get("sides", [0, 0])) != len(sides):
    fails += 1
    print(f"MISMATCH sides: {len(sides)} given, document has {doc.get('sides')}")


def half_width(x):
    return stats.t.ppf((1 + conf) / 2, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x))


def runs_needed(o, n, m):
    a = alpha / m
    c_inf, d_inf = stats.norm.ppf(1 - a / 2), stats.norm.ppf(1 - a)
    z = stats.norm.ppf(0.8)
    spread = math.sqrt(rel_var(o) + rel_var(n))
    dlog = -math.log1p(-margin) if higher else math.log1p(margin)
    c, d = c_inf, d_inf
    for _ in range(4):
        need = ((c + d + 2 * z) * spread / dlog) ** 2
        df = 2 * (max(need, 2) - 1)
        c = c_inf + (c_inf ** 3 + c_inf) / (4 * df)
        d = d_inf + (d_inf ** 3 + d_inf) / (4 * df)
    need = math.ceil(need)
    have = max(len(o), len(n))
    return need if need > have else have + 1


# (line, side k, the side's numbers): the legacy keys are side 1's
pairs = []
for r in lines:
    for k, sd in enumerate(r.get("sides", [None, dict(r, runs=r["new"])])):
        if k == 0:
            continue
        pairs.append((r, k, sd))
        if k == 1:
            for key in ("ratio", "ratio_ci_low", "ratio_ci_high", "p_adjusted", "verdict",
                        "regression"):
                if sd.get(key) != r.get(key):
                    fails += 1
                    print(f"MISMATCH {r['workload']} {r['config']}: {key} of side 1 differs")
m = sum(1 for _, _, sd in pairs if sd["verdict"] is not None)
close(m, doc["family"], 0, "family")
for r, k, sd in pairs:
    what = f"{r['workload']} {r['config']} side {k}"
    o = sides[0].get((r["workload"], r["config"]), {}).get(r["metric"])
    n = sides[k].get((r["workload"], r["config"]), {}).get(r["metric"])
    if "sides" in r:
        for j, x in ((0, o), (k, n)):
            got = r["sides"][j]["runs"]
            if x is None:
                if got is not None:
                    fails += 1
                    print(f"MISMATCH {what}: side {j} has runs in the document only")
                continue
            x = np.array(x, float)
            close(x.mean(), got["mean"], 1e-12, f"{what} side {j} mean")
            close(half_width(x) if len(x) > 1 else None, got["half_width"], 1e-9,
                  f"{what} side {j} half_width")
    if sd["verdict"] is None:
        close(None, sd.get("runs_needed"), 0, what + " runs_needed")
        if o and n and len(o) >= 2 and len(n) >= 2:
            fails += 1
            print(f"MISMATCH {what}: has no verdict but both sides have runs")
        continue
    o, n = np.array(o, float), np.array(n, float)
    n1, m1, s1 = len(o), o.mean(), o.std(ddof=1)
    n2, m2, s2 = len(n), n.mean(), n.std(ddof=1)
    if k == 1:
        close(m1, r["old"]["mean"], 1e-12, what + " old mean")
        close(s1, r["old"]["sd"], 1e-9, what + " old sd")
        close(m2, r["new"]["mean"], 1e-12, what + " new mean")
    # a run's relative variance: the larger of (s / m)^2 and, when every
    # value is positive, exp(var(log x)) - 1 (docs/methods.md §6)
    va, vb = rel_var(n) / n2, rel_var(o) / n1
    welch = (va + vb) ** 2 / (va * va / (n2 - 1) + vb * vb / (n1 - 1))
    df = math.floor(welch)
    c = stats.t.ppf(1 - alpha / (2 * m), df)
    d = stats.t.ppf(1 - alpha / m, welch)
    ratio = m2 / m1
    lr, se = math.log(ratio), math.sqrt(va + vb)
    lo, hi = math.exp(lr - c * se), math.exp(lr + c * se)
    elo, ehi = math.exp(lr - d * se), math.exp(lr + d * se)
    t = lr / se
    p = min(1.0, m * 2 * stats.t.sf(abs(t), df))
    estimable = all(x.mean() - c * x.std(ddof=1) / math.sqrt(len(x)) > 0 for x in (o, n))
    if not estimable:
        lo = hi = p = None
    close(ratio, sd["ratio"], 1e-12, what + " ratio")
    close(lo, sd["ratio_ci_low"], 1e-9, what + " ratio_ci_low")
    close(hi, sd["ratio_ci_high"], 1e-9, what + " ratio_ci_high")
    close(p, sd["p_adjusted"], 1e-7, what + " p_adjusted")
    higher = r["better"] == "higher"
    if not estimable:
        v = "inconclusive"
    elif elo >= 1 - margin and ehi <= 1 + margin:
        v = "equivalent"
    elif abs(t) > c:
        v = "slower" if (ratio < 1 if higher else ratio > 1) else "faster"
    else:
        v = "inconclusive"
    if v != sd["verdict"]:
        fails += 1
        print(f"MISMATCH {what} verdict: {v} vs {sd['verdict']}")
    if "runs_needed" in sd:
        want = runs_needed(o, n, m) if v == "inconclusive" and estimable else None
        close(want, sd["runs_needed"], 0, what + " runs_needed")
    if gate is not None:
        reg = estimable and (hi < 1 - gate if higher else lo > 1 + gate)
        if reg != sd["regression"]:
            fails += 1
            print(f"MISMATCH {what} regression: {reg} vs {sd['regression']}")
print("OK" if not fails else f"{fails} mismatches")
sys.exit(1 if fails else 0)
