#!/usr/bin/python3
"""Independent check of the analyze golden files against SciPy.

    /usr/bin/python3 tests/cases/analyze/verify.py [CASE_DIR...]

For every case whose expected output is an analysis (expected.out or
expected.analysis.json), re-reads the case's store.jsonl, recomputes every
number with numpy/scipy (Debian python3-scipy 1.10.1), and compares to 1e-9
relative (p-values 1e-7). This is how the expected files were checked before
they were committed: run it after `run_case.sh --update`. It never uses
rundown's code.
"""
import glob
import json
import math
import os
import sys

import numpy as np
from scipy import optimize, special, stats

REL, PREL = 1e-9, 1e-7
failures = 0
checked = {"verdicts": 0}


def close(want, got, rel, what):
    global failures
    if want is None or (isinstance(want, float) and math.isnan(want)):
        ok = got is None
    elif got is None:
        ok = False
    else:
        ok = abs(want - got) <= rel * abs(want) + (1e-12 if want == 0 else 0)
    if not ok:
        failures += 1
        print(f"  MISMATCH {what}: scipy {want!r}, rundown {got!r}")


def nz(v):
    return None if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))) else float(v)


def load(case):
    groups = {}
    recs = [json.loads(line) for line in open(os.path.join(case, "store.jsonl")) if line.strip()]
    # A workload measured with several load tools has the tool in its ids.
    tools = {}
    for r in recs:
        if r.get("phase", "measure") != "warmup":
            tools.setdefault(r["workload"], set()).add(r.get("tool"))
    for r in recs:
        if r.get("phase", "measure") == "warmup" or r.get("status", "ok") != "ok":
            continue
        labels = dict(r["config"])
        if len(tools[r["workload"]]) > 1 and labels.get("tool") != (r.get("tool") or "unknown"):
            labels["load_tool" if "tool" in labels else "tool"] = r.get("tool") or "unknown"
        cid = ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
        # Runs of several machines are analysed per machine, as WORKLOAD@ENV
        # (docs/analysis.md): each run counts under both names.
        names = [r["workload"]] + ([r["workload"] + "@" + r["env"]] if r.get("env") else [])
        for name in names:
            g = groups.setdefault(name, {}).setdefault(cid, {})
            for m, v in r["metrics"].items():
                if v is not None:
                    g.setdefault(m, []).append((r.get("run", 0), v))
    return groups


def fieller(a, b):
    ma, mb = np.mean(a), np.mean(b)
    if len(a) < 2 or len(b) < 2:
        return ma / mb, None, None
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    R = ma / mb
    vl = va + R * R * vb
    df = vl ** 2 / (va ** 2 / (len(a) - 1) + R ** 4 * vb ** 2 / (len(b) - 1))
    t = stats.t.ppf(0.975, df)
    if t * t * vb / mb ** 2 >= 1:
        return R, None, None
    f = lambda rho: (ma - rho * mb) ** 2 - t * t * (va + rho * rho * vb)
    span = 10 * abs(R) + 1
    return R, optimize.brentq(f, R - span, R, xtol=1e-15), optimize.brentq(f, R, R + span, xtol=1e-15)


def check_median_ci(x, got, where, conf=0.95):
    """Distribution-free CI of the median (Conover 1999, 3.2): the largest l
    with P(B <= l - 1) <= (1 - conf) / 2, B ~ Binomial(n, 1/2), gives
    [x_(l), x_(n-l+1)] with coverage 1 - 2 P(B <= l - 1)."""
    n, s = len(x), np.sort(x)
    ls = [l for l in range(1, n // 2 + 2) if stats.binom.cdf(l - 1, n, 0.5) <= (1 - conf) / 2]
    lo = hi = level = None
    if ls:
        l = max(ls)
        lo, hi, level = s[l - 1], s[n - l], 1 - 2 * stats.binom.cdf(l - 1, n, 0.5)
    close(lo, got["median_ci_low"], 0, where + ".median_ci_low")
    close(hi, got["median_ci_high"], 0, where + ".median_ci_high")
    close(level, got["median_ci_level"], PREL, where + ".median_ci_level")


def mk_tied_exact_p(x):
    """Mann-Kendall's permutation p with ties (SciPy has no exact method
    then): every order of the values equally likely, by a memoised walk
    that places one value after another, each adding sign(later - it) over
    the values still to come; P(|S| >= |S_obs|)."""
    from functools import lru_cache
    vals = sorted(set(x))
    counts = tuple(list(x).count(v) for v in vals)
    s_obs = sum(np.sign(x[j] - x[i]) for i in range(len(x)) for j in range(i + 1, len(x)))

    @lru_cache(maxsize=None)
    def dist(rem):  # {S of the rest: number of orders}
        if sum(rem) == 0:
            return {0: 1}
        out = {}
        for g, c in enumerate(rem):
            if not c:
                continue
            nxt = rem[:g] + (c - 1,) + rem[g + 1:]
            add = sum(nxt[g + 1:]) - sum(nxt[:g])
            for s, k in dist(nxt).items():
                out[s + add] = out.get(s + add, 0) + k * c
        return out
    d = dist(counts)
    return sum(k for s, k in d.items() if abs(s) >= abs(s_obs)) / sum(d.values())


def check_summary(vals, got, where):
    x = np.array(vals, dtype=float)
    n = len(x)
    close(n, got["n"], 0, where + ".n")
    close(x.mean(), got["mean"], REL, where + ".mean")
    if n > 1:
        sd = x.std(ddof=1)
        t = stats.t.ppf(0.975, n - 1)
        close(sd, got["sd"], REL, where + ".sd")
        # Runs from two or more sessions: the mean's se and interval are
        # the two-level ones (docs/methods.md §6a), checked in R by the
        # case itself (its NOTES); the one-level figures do not apply.
        if got.get("sessions", 1) < 2:
            close(stats.sem(x), got["se"], REL, where + ".se")
            close(x.mean() - t * stats.sem(x), got["ci_low"], REL, where + ".ci_low")
            close(x.mean() + t * stats.sem(x), got["ci_high"], REL, where + ".ci_high")
        close(sd / x.mean(), got["cv"], REL, where + ".cv")
    for k, p in (("median", .5), ("q1", .25), ("q3", .75), ("p90", .9), ("p95", .95), ("p99", .99)):
        close(np.quantile(x, p), got[k], REL, where + "." + k)
    close(x.min(), got["min"], REL, where + ".min")
    close(x.max(), got["max"], REL, where + ".max")
    close(stats.median_abs_deviation(x, scale="normal"), got["mad"], REL, where + ".mad")
    close(stats.gmean(x) if (x > 0).all() else None, got["geomean"], REL, where + ".geomean")
    q1, q3 = np.quantile(x, [.25, .75])
    out = [i for i, v in enumerate(x) if v < q1 - 1.5 * (q3 - q1) or v > q3 + 1.5 * (q3 - q1)]
    if out != got["outliers"]:
        print(f"  MISMATCH {where}.outliers: {out} vs {got['outliers']}")
        globals()["failures"] += 1
    if got.get("median_ci_method") == "binomial":
        check_median_ci(x, got, where)
    if "trend" in got and n >= 3:
        ties = len(set(x)) < n
        exact = n <= (20 if ties else 50) and len(set(x)) > 1
        res = stats.kendalltau(np.arange(n), x, method="exact" if exact and not ties else "asymptotic")
        p = mk_tied_exact_p(x) if exact and ties else res.pvalue
        close(nz(res.statistic), got["trend"]["tau"], REL, where + ".trend.tau")
        close(nz(p), got["trend"]["p"], PREL, where + ".trend.p")


def check_pair(a, b, got, where):
    a, b = np.array(a, float), np.array(b, float)
    res = stats.ttest_ind(a, b, equal_var=False)
    close(nz(res.statistic), got["welch_t"], REL, where + ".welch_t")
    close(nz(res.pvalue), got["p"], PREL, where + ".p")
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    close(df, got["welch_df"], REL, where + ".welch_df")
    d = a.mean() - b.mean()
    close(d, got["diff"], REL, where + ".diff")
    h = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
    close(d - h, got["diff_ci_low"], REL, where + ".diff_ci_low")
    close(d + h, got["diff_ci_high"], REL, where + ".diff_ci_high")
    ties = len(set(np.concatenate([a, b]))) < len(a) + len(b)
    method = "exact" if not ties and len(a) <= 50 and len(b) <= 50 else "asymptotic"
    mw = stats.mannwhitneyu(a, b, alternative="two-sided", method=method)
    close(mw.statistic, got["mw_u"], REL, where + ".mw_u")
    close(mw.pvalue, got["mw_p"], PREL, where + ".mw_p")
    close(mw.statistic / (len(a) * len(b)), got["prob_superiority"], REL, where + ".A")
    m = len(a) + len(b) - 2
    sp = math.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1)) / m)
    J = math.exp(special.gammaln(m / 2) - 0.5 * math.log(m / 2) - special.gammaln((m - 1) / 2))
    close(J * d / sp, got["hedges_g"], REL, where + ".hedges_g")
    R, lo, hi = fieller(a, b)
    close(R, got["ratio"], REL, where + ".ratio")
    close(lo, got["ratio_ci_low"], REL, where + ".ratio_ci_low")
    close(hi, got["ratio_ci_high"], REL, where + ".ratio_ci_high")
    return res.pvalue


def rel_var(x, rule):
    """A run's relative variance (CV^2) as the verdicts estimate it
    (docs/methods.md §6): the larger of (s / m)^2 and, when every value is
    positive, exp(var(log x)) - 1; rule "linear" is the first alone (the
    rule before 2026-12-03, to check this checker against older files)."""
    x = np.asarray(x, float)
    lin = (x.std(ddof=1) / x.mean()) ** 2
    if rule == "linear" or not (x > 0).all():
        return lin
    return max(lin, math.expm1(np.log(x).var(ddof=1)))


def check_verdicts(wl, series, m, rule):
    """The plain case of the verdicts against the best (one session per
    config, no looks, no race, no decision within labels): the family's df
    (the floor of the smallest Welch df of the log ratios with the best),
    its critical value q(0.95; k, df) / sqrt 2 by SciPy's
    studentized_range, and each estimable row's interval exp(log r -+ c se)
    and p_adj = P(Q_{k,df} > sqrt 2 |log r| / se)."""
    rec = wl.get("recommendation")
    if not rec or rec.get("best") is None or not rec.get("family") or rec.get("df") is None:
        return
    if "within" in wl or "collection" in wl or "alpha_look" in rec or "alpha_look" in wl:
        return
    if any(c["metrics"].get(m, {}).get("sessions", 1) > 1 for c in wl["configs"]):
        return
    rows = {v["config"]: v for v in rec["verdicts"]}
    best = rec["best"]
    xb = series.get((best, m))
    if xb is None or len(xb) < 2:
        return
    others = [cid for cid, v in rows.items()
              if cid != best and v["verdict"] != "disqualified" and len(series.get((cid, m), [])) >= 2]
    if not others or len(others) + 1 != rec["family"]:
        return
    vb = rel_var(xb, rule) / len(xb)
    se, lr, dfs = {}, {}, []
    for cid in others:
        x = series[(cid, m)]
        va = rel_var(x, rule) / len(x)
        se[cid] = math.sqrt(va + vb)
        lr[cid] = math.log(np.mean(x) / np.mean(xb))
        if va + vb > 0:
            dfs.append((va + vb) ** 2 / (va * va / (len(x) - 1) + vb * vb / (len(xb) - 1)))
    if not dfs:
        return
    df = math.floor(min(dfs))
    k = rec["family"]
    where = f"{wl['name']} verdicts"
    close(df, rec["df"], 0, where + " df")
    # the level the intervals below are computed at, as the file says it
    if "verdict_alpha" in rec:
        close(0.05, rec["verdict_alpha"], 1e-12, where + " verdict_alpha")
    c = stats.studentized_range.ppf(0.95, k, df) / math.sqrt(2)
    close(c, rec["critical_value"], 1e-7, where + " critical_value")
    for cid in others:
        v = rows[cid]
        if v["ratio_ci_low"] is None or se[cid] == 0:
            continue
        checked["verdicts"] += 1
        close(math.exp(lr[cid] - c * se[cid]), v["ratio_ci_low"], 1e-7, f"{where} {cid} ratio_ci_low")
        close(math.exp(lr[cid] + c * se[cid]), v["ratio_ci_high"], 1e-7, f"{where} {cid} ratio_ci_high")
        p = stats.studentized_range.sf(math.sqrt(2) * abs(lr[cid]) / se[cid], k, df)
        if v["p_adj"] is not None and p > 1e-6:
            close(p, v["p_adj"], 1e-5, f"{where} {cid} p_adj")


def check_case(case):
    for name in ("expected.out", "expected.analysis.json"):
        path = os.path.join(case, name)
        if os.path.exists(path) and open(path).read(1) == "{":
            break
    else:
        return
    print(case)
    doc = json.load(open(path))
    groups = load(case)
    for wl in doc["workloads"]:
        cfgs = groups[wl["name"]]
        series = {}
        for c in wl["configs"]:
            for m, got in c["metrics"].items():
                vals = [v for _, v in sorted(cfgs[c["id"]][m], key=lambda t: t[0])]
                check_summary(vals, got, f"{wl['name']}/{c['id']}/{m}")
                series[(c["id"], m)] = vals
        t = wl["tests"]
        m = t["metric"]
        ids = [c["id"] for c in wl["configs"] if (c["id"], m) in series]
        if len(ids) >= 3:
            gs = [series[(i, m)] for i in ids]
            an = stats.f_oneway(*gs)
            close(an.statistic, t["anova"]["f"], REL, "anova.f")
            close(an.pvalue, t["anova"]["p"], PREL, "anova.p")
            kw = stats.kruskal(*gs)
            close(kw.statistic, t["kruskal"]["h"], REL, "kruskal.h")
            close(kw.pvalue, t["kruskal"]["p"], PREL, "kruskal.p")
            k = len(gs)
            n = np.array([len(g) for g in gs]); mu = np.array([np.mean(g) for g in gs])
            w = n / np.array([np.var(g, ddof=1) for g in gs]); W = w.sum()
            mw = (w * mu).sum() / W
            tmp = (((1 - w / W) ** 2) / (n - 1)).sum()
            F = (w * (mu - mw) ** 2).sum() / (k - 1) / (1 + 2 * (k - 2) / (k * k - 1) * tmp)
            df2 = (k * k - 1) / (3 * tmp)
            close(F, t["welch_anova"]["f"], REL, "welch_anova.f")
            close(df2, t["welch_anova"]["df2"], REL, "welch_anova.df2")
            close(stats.f.sf(F, k - 1, df2), t["welch_anova"]["p"], PREL, "welch_anova.p")
        check_verdicts(wl, series, m, RULE)
        ps = [check_pair(series[(p["a"], m)], series[(p["b"], m)], p, f"pair {p['a']} vs {p['b']}")
              for p in t["pairs"]]
        # Holm by hand: sorted ascending, (m - i) p, running max, cap 1
        order = sorted(range(len(ps)), key=lambda i: ps[i])
        run = 0
        for rank, i in enumerate(order):
            run = max(run, (len(ps) - rank) * ps[i])
            close(min(run, 1), t["pairs"][i]["p_holm"], PREL, f"p_holm[{i}]")


args = sys.argv[1:]
RULE = "linear" if args[:1] == ["--linear"] else "larger"
args = args[1:] if RULE == "linear" else args
for case in args or sorted(glob.glob(os.path.join(os.path.dirname(__file__), "0*"))):
    check_case(case)
print("verdict rows checked:", checked["verdicts"])
print("failures:", failures)
sys.exit(1 if failures else 0)
