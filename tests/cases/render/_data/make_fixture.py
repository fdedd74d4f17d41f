#!/usr/bin/env python3
"""Writes the render tests' sample analysis.json and store.jsonl.

The numbers are realistic (shaped like the Node.js / Deno / Bun study on a
2-core machine) and internally consistent: summary statistics, Welch tests,
Holm adjustment and Mann-Whitney p are computed here from the run values
with the standard library only (t and normal distributions by hand), so the
render has a believable input. They are fixtures for the renderer, not
reference values for rundown-analyze.

Run: python3 make_fixture.py   (writes next to itself; output is stable)
"""
import json, math, os, random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(42)

def betacf(a, b, x):
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / d if abs(d) > 1e-300 else 1e300
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d; d = 1 / d if abs(d) > 1e-300 else 1e300
        c = 1 + aa / c if abs(c) > 1e-300 else 1e300
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d; d = 1 / d if abs(d) > 1e-300 else 1e300
        c = 1 + aa / c if abs(c) > 1e-300 else 1e300
        de = d * c; h *= de
        if abs(de - 1) < 1e-15: break
    return h

def ibeta(a, b, x):
    if x <= 0: return 0.0
    if x >= 1: return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1 - math.exp(lbt) * betacf(b, a, 1 - x) / b

def t_sf2(t, df):  # two-sided p
    return ibeta(df / 2, 0.5, df / (df + t * t))

def t_quant(p, df):  # upper quantile by bisection
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_sf2(mid, df) / 2 > 1 - p: lo = mid
        else: hi = mid
    return (lo + hi) / 2

def f_sf(f, d1, d2):
    return ibeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f))

def chi2_sf(x, k):  # regularized upper gamma via series/cf
    a, x2 = k / 2, x / 2
    if x2 <= 0: return 1.0
    if x2 < a + 1:
        s, term, n = 1 / a, 1 / a, 0
        while abs(term) > 1e-15 * abs(s):
            n += 1; term *= x2 / (a + n); s += term
        return 1 - s * math.exp(-x2 + a * math.log(x2) - math.lgamma(a))
    b, c, d = x2 + 1 - a, 1e300, 1 / (x2 + 1 - a); h = d
    for i in range(1, 300):
        an = -i * (i - a); b += 2
        d = an * d + b; d = 1 / d
        c = b + an / c; h *= d * c
    return math.exp(-x2 + a * math.log(x2) - math.lgamma(a)) * h

def norm_sf2(z):
    return math.erfc(abs(z) / math.sqrt(2))

def q7(xs, p):
    s = sorted(xs); h = (len(s) - 1) * p; lo = math.floor(h)
    return s[lo] + (h - lo) * (s[min(lo + 1, len(s) - 1)] - s[lo])

def summary(xs):
    n = len(xs); m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else None
    se = sd / math.sqrt(n) if sd is not None else None
    tq = t_quant(0.975, n - 1) if n > 1 else None
    med = q7(xs, 0.5)
    q1, q3 = q7(xs, 0.25), q7(xs, 0.75)
    iqr = q3 - q1
    mad = 1.482602218505602 * q7([abs(x - med) for x in xs], 0.5)
    r = lambda v: None if v is None else float('%.6g' % v)
    return {"n": n, "mean": r(m), "sd": r(sd), "se": r(se),
            "ci_low": r(m - tq * se) if se is not None else None,
            "ci_high": r(m + tq * se) if se is not None else None,
            "median": r(med), "min": r(min(xs)), "max": r(max(xs)),
            "q1": r(q1), "q3": r(q3), "p90": r(q7(xs, .9)), "p95": r(q7(xs, .95)),
            "p99": r(q7(xs, .99)), "mad": r(mad),
            "cv": r(sd / m) if sd is not None else None,
            "geomean": r(math.exp(sum(math.log(x) for x in xs) / n)),
            "outliers": [x for x in xs if x < q1 - 1.5 * iqr or x > q3 + 1.5 * iqr],
            "values": xs}

def mw(a, b):
    u = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b)
    n1, n2 = len(a), len(b)
    mu, sig = n1 * n2 / 2, math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    z = (abs(u - mu) - 0.5) / sig if sig > 0 else 0
    return u, norm_sf2(z), u / (n1 * n2)

def pair(ca, cb, xa, xb):
    sa, sb = summary(xa), summary(xb)
    na, nb = len(xa), len(xb)
    r = lambda v: None if v is None else float('%.6g' % v)
    out = {"a": ca, "b": cb}
    if sa["sd"] is None or sb["sd"] is None:
        out.update({"welch_t": None, "welch_df": None, "p": None, "p_holm": None,
                    "mw_u": None, "mw_p": None, "hedges_g": None, "prob_superiority": None,
                    "diff": r(sa["mean"] - sb["mean"]), "diff_ci_low": None, "diff_ci_high": None,
                    "ratio": r(sa["mean"] / sb["mean"]), "ratio_ci_low": None, "ratio_ci_high": None})
        return out
    va, vb = sa["sd"] ** 2 / na, sb["sd"] ** 2 / nb
    se = math.sqrt(va + vb); t = (sa["mean"] - sb["mean"]) / se
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    tq = t_quant(0.975, df)
    sp = math.sqrt(((na - 1) * sa["sd"] ** 2 + (nb - 1) * sb["sd"] ** 2) / (na + nb - 2))
    g = (sa["mean"] - sb["mean"]) / sp * (1 - 3 / (4 * (na + nb) - 9))
    la, lb = [math.log(x) for x in xa], [math.log(x) for x in xb]
    ma, mb = sum(la) / na, sum(lb) / nb
    lva = sum((x - ma) ** 2 for x in la) / (na - 1) / na
    lvb = sum((x - mb) ** 2 for x in lb) / (nb - 1) / nb
    ldf = (lva + lvb) ** 2 / (lva ** 2 / (na - 1) + lvb ** 2 / (nb - 1))
    lq = t_quant(0.975, ldf) * math.sqrt(lva + lvb)
    ratio = sa["mean"] / sb["mean"]
    u, mwp, ps = mw(xa, xb)
    out.update({"welch_t": r(t), "welch_df": r(df), "p": r(t_sf2(abs(t), df)), "p_holm": None,
                "mw_u": u, "mw_p": r(mwp), "hedges_g": r(g), "prob_superiority": r(ps),
                "diff": r(sa["mean"] - sb["mean"]),
                "diff_ci_low": r(sa["mean"] - sb["mean"] - tq * se),
                "diff_ci_high": r(sa["mean"] - sb["mean"] + tq * se),
                "ratio": r(ratio), "ratio_ci_low": r(ratio * math.exp(-lq)),
                "ratio_ci_high": r(ratio * math.exp(lq))})
    return out

def holm(pairs):
    idx = sorted([i for i, p in enumerate(pairs) if p["p"] is not None], key=lambda i: pairs[i]["p"])
    m, run = len(idx), 0.0
    for k, i in enumerate(idx):
        run = max(run, min(1.0, (m - k) * pairs[i]["p"]))
        pairs[i]["p_holm"] = float('%.6g' % run)

def omnibus(groups):
    gs = [g for g in groups if len(g) > 1]
    k, n = len(gs), sum(len(g) for g in gs)
    allx = [x for g in gs for x in g]; gm = sum(allx) / n
    ssb = sum(len(g) * (sum(g) / len(g) - gm) ** 2 for g in gs)
    ssw = sum(sum((x - sum(g) / len(g)) ** 2 for x in g) for g in gs)
    f = (ssb / (k - 1)) / (ssw / (n - k))
    w = [len(g) / (sum((x - sum(g) / len(g)) ** 2 for x in g) / (len(g) - 1)) for g in gs]
    sw = sum(w); mw_ = sum(wi * sum(g) / len(g) for wi, g in zip(w, gs)) / sw
    a = sum(wi * (sum(g) / len(g) - mw_) ** 2 for wi, g in zip(w, gs)) / (k - 1)
    lam = sum((1 - wi / sw) ** 2 / (len(g) - 1) for wi, g in zip(w, gs))
    fw = a / (1 + 2 * (k - 2) * lam / (k * k - 1)); df2w = (k * k - 1) / (3 * lam)
    ranked = sorted(allx); rank = {}
    for v in set(allx):
        pos = [i + 1 for i, x in enumerate(ranked) if x == v]; rank[v] = sum(pos) / len(pos)
    h = 12 / (n * (n + 1)) * sum(sum(rank[x] for x in g) ** 2 / len(g) for g in gs) - 3 * (n + 1)
    r = lambda v: float('%.6g' % v)
    return {"anova": {"f": r(f), "df1": k - 1, "df2": n - k, "p": r(f_sf(f, k - 1, n - k))},
            "welch_anova": {"f": r(fw), "df1": k - 1, "df2": r(df2w), "p": r(f_sf(fw, k - 1, df2w))},
            "kruskal": {"h": r(h), "df": k - 1, "p": r(chi2_sf(h, k - 1))}}

def cid(labels):
    return ",".join("%s=%s" % (k, labels[k]) for k in sorted(labels))

ENV = "env-5f2c9a"
records = []

def workload(name, klass, metric, better, title, specs, extra_metrics, n):
    configs, groups = [], []
    for labels, mean, cv, extras in specs:
        xs = [float('%.4g' % (mean * (1 + rng.gauss(0, cv)))) for _ in range(n if "n" not in extras else extras["n"])]
        metrics = {metric: summary(xs)}
        cols = {metric: xs}
        for em, (emean, ecv) in extra_metrics(labels, extras).items():
            ys = [float('%.5g' % (emean * (1 + rng.gauss(0, ecv)))) for _ in xs]
            metrics[em] = summary(ys); cols[em] = ys
        for i in range(len(xs)):
            records.append({"schema": "rundown.run/1", "suite": "js-runtimes", "workload": name,
                            "config": labels, "run": i + 1, "phase": "measure",
                            "tool": "wrk" if klass == "io" else "rundown", "status": "ok",
                            "exit_code": 0, "started_at": "2026-11-30T01:%02d:%02d.000Z" % (len(records) // 60 % 60, len(records) % 60),
                            "env": ENV, "metrics": {k: v[i] for k, v in cols.items()}})
        configs.append({"id": cid(labels), "labels": labels, "metrics": metrics,
                        "failed_runs": extras.get("failed", 0)})
        groups.append(xs)
    pairs = []
    for i in range(len(configs)):
        for j in range(i + 1, len(configs)):
            pairs.append(pair(configs[i]["id"], configs[j]["id"], groups[i], groups[j]))
    holm(pairs)
    key = (lambda c: c["metrics"][metric]["mean"])
    order = sorted(configs, key=key, reverse=(better == "higher"))
    best = order[0]["id"]
    tied = [best]
    for p in pairs:
        other = p["b"] if p["a"] == best else p["a"] if p["b"] == best else None
        if other and (p["p_holm"] is None or p["p_holm"] >= 0.05):
            tied.append(other)
    mem = "server_rss_peak_kib" if klass == "io" else "max_rss_kib"
    rec = min([c for c in configs if c["id"] in tied], key=lambda c: c["metrics"][mem]["mean"])
    return {"name": name, "class": klass, "title": title,
            "primary": {"metric": metric, "better": better},
            "configs": configs,
            "tests": dict(metric=metric, **omnibus(groups), pairs=pairs),
            "recommendation": {"best": best, "tied": tied, "recommended": rec["id"], "reason": ""},
            "warnings": []}

cpu = workload("cpu-heavycalc", "cpu", "heavycalc_ms", "lower",
    "heavyCalc(10M) called 4 times per run, time per call",
    [({"runtime": rt, "mechanism": "worker", "workers": w}, m, cv, {})
     for rt, w, m, cv in [("bun", "2", 198.0, .012), ("bun", "4", 101.2, .015),
                          ("deno", "2", 246.0, .02), ("deno", "4", 125.5, .018),
                          ("node", "2", 980.0, .03), ("node", "4", 494.0, .14)]],
    lambda l, e: {"wall_ms": ({"2": 2, "4": 1}[l["workers"]] * 4 * {"bun": 101, "deno": 125, "node": 494}[l["runtime"]] * 1.05, .02),
                  "max_rss_kib": ({"bun": 61000, "deno": 72000, "node": 88000}[l["runtime"]] * (1.3 if l["workers"] == "4" else 1), .03)},
    5)
cpu["recommendation"]["reason"] = ("Fastest per call; bun / worker / workers=4 needs 101 ms "
    "per call against 125.5 ms for deno / worker / workers=4.")
cpu["warnings"] = [{"code": "high_cv", "config": "mechanism=worker,runtime=node,workers=4",
                    "message": "CV 14 % (the machine was busy): rerun or add runs"}]

http = workload("http-hello", "io", "rps", "higher",
    "JSON hello server, native API of each runtime, wrk -c 64 -d 10s",
    [({"runtime": "bun", "mechanism": "sequential"}, 41100, .02, {}),
     ({"runtime": "deno", "mechanism": "sequential"}, 41300, .025, {}),
     ({"runtime": "node", "mechanism": "sequential"}, 23200, .03, {"failed": 1})],
    lambda l, e: dict(**{"latency_%s_ms" % p: ({"bun": 1.5, "deno": 1.45, "node": 2.7}[l["runtime"]] * f, .05)
                         for p, f in [("mean", 1.1), ("p50", 1.0), ("p75", 1.3), ("p90", 1.8), ("p99", 4.0)]},
                      server_rss_peak_kib=({"bun": 52000, "deno": 38000, "node": 61000}[l["runtime"]], .02),
                      server_cpu_pct=(98, .01)),
    5)
http["recommendation"]["reason"] = ("deno / sequential and bun / sequential are statistically tied "
    "on req/s; deno / sequential uses less memory (37 vs 51 MiB peak).")
http["warnings"] = [{"code": "socket_errors", "config": "mechanism=sequential,runtime=node",
                     "message": "wrk reported 12 socket read errors in 2 of 5 runs"},
                    {"code": "failed_runs", "config": "mechanism=sequential,runtime=node",
                     "message": "1 run failed (exit code 1) and is not analysed"}]

cold = workload("cold-start", "startup", "wall_ms", "lower",
    "console.log('Hello World'), process start to exit",
    [({"runtime": "bun"}, 22.0, .035, {}), ({"runtime": "deno"}, 35.9, .04, {}),
     ({"runtime": "node"}, 41.5, .03, {})],
    lambda l, e: {"max_rss_kib": ({"bun": 30000, "deno": 41000, "node": 45000}[l["runtime"]], .01)},
    10)
# One config measured once: its spread is undefined and must print as such.
one = [float('%.4g' % 39.8)]
cold["configs"].append({"id": "flags=--jitless,runtime=node", "labels": {"runtime": "node", "flags": "--jitless"},
                        "metrics": {"wall_ms": summary(one), "max_rss_kib": summary([44100.0])},
                        "failed_runs": 0})
records.append({"schema": "rundown.run/1", "suite": "js-runtimes", "workload": "cold-start",
                "config": {"runtime": "node", "flags": "--jitless"}, "run": 1, "phase": "measure",
                "tool": "rundown", "status": "ok", "exit_code": 0, "started_at": "2026-11-30T02:00:00.000Z",
                "env": ENV, "metrics": {"wall_ms": 39.8, "max_rss_kib": 44100.0}})
for c in cold["configs"][:3]:
    p = pair(c["id"], "flags=--jitless,runtime=node", c["metrics"]["wall_ms"]["values"], one)
    cold["tests"]["pairs"].append(p)
cold["recommendation"]["reason"] = "Fastest start; deno needs 1.6 times as long."
cold["warnings"] = [{"code": "few_runs", "config": "flags=--jitless,runtime=node",
                     "message": "n = 1: no spread, no test possible"}]

bun_cold = cold["configs"][0]["metrics"]["wall_ms"]
http_bun = http["configs"][0]["metrics"]["rps"]
def repl(study, title, machine, wl, config, metric, pub, ours):
    ratio = ours["mean"] / pub["mean"]
    se = math.sqrt(ours["sd"] ** 2 / ours["n"] / ours["mean"] ** 2 + pub["sd"] ** 2 / pub["n"] / pub["mean"] ** 2)
    return {"study": study, "title": title, "machine": machine, "workload": wl, "config": config,
            "metric": metric, "statistic": "mean", "approx": False, "params_differ": False,
            "note": None, "published": pub,
            "ours": {"mean": ours["mean"], "sd": ours["sd"], "n": ours["n"]},
            "ratio": float('%.4g' % ratio), "ratio_ci_low": float('%.4g' % (ratio * math.exp(-1.96 * se))),
            "ratio_ci_high": float('%.4g' % (ratio * math.exp(1.96 * se))), "p": 0.21}

analysis = {
    "schema": "rundown.analysis/1",
    "title": "Node.js vs Deno vs Bun \u2014 parallelism and I/O",
    "date": "2026-11-30T03:10:00Z",
    "tool": {"name": "rundown-analyze", "version": "0.1.0"},
    "settings": {"alpha": 0.05, "confidence": 0.95, "bootstrap": 10000, "seed": 1,
                 "ratio_ci": "Welch t on log values", "runs": 5, "warmups": 1,
                 "order": "interleaved"},
    "inputs": ["store.jsonl"],
    "environments": [{"id": ENV, "hostname": "bench-1", "cpu_model": "AMD EPYC 7B13 (2 vCPU)",
                      "cores": 2, "memory_kib": 25165824, "kernel": "6.1.0-27-amd64",
                      "os": "Debian GNU/Linux 12 (bookworm)", "governor": None, "container": "docker",
                      "runtimes": {"node": "v26.10.0", "deno": "2.9.6", "bun": "1.4.5"},
                      "tools": {"wrk": "4.1.0", "autocannon": "9.0.0"},
                      "pinning": "server on CPU 1, load generator on CPU 0"}],
    "workloads": [cpu, http, cold],
    "replication": [
        repl("E", "Cold start blog (Bun 1.0.18)", "Apple M2 Pro, macOS 14.1", "cold-start",
             "runtime=bun", "wall_ms", {"mean": 21.3, "sd": 1.2, "n": 8}, bun_cold),
        repl("E", "Cold start blog (Node 20.10.0)", "Apple M2 Pro, macOS 14.1", "cold-start",
             "runtime=node", "wall_ms", {"mean": 68.4, "sd": 2.3, "n": 8}, cold["configs"][2]["metrics"]["wall_ms"]),
        {"study": "B", "title": "Turku UAS thesis", "machine": "MacBook Air M2",
         "workload": "http-hello", "config": "mechanism=sequential,runtime=bun", "metric": "rps",
         "statistic": "best", "approx": False, "params_differ": True,
         "note": "autocannon -c 10 -d 10 there, wrk -c 64 here",
         "published": {"mean": 103821, "sd": None, "n": 10},
         "ours": {"mean": http_bun["mean"], "sd": http_bun["sd"], "n": http_bun["n"],
                  "statistic": http_bun["max"]},
         "ratio": float('%.4g' % (http_bun["max"] / 103821)), "ratio_ci_low": None,
         "ratio_ci_high": None, "p": None},
        {"study": "A", "title": "Parallelism mechanisms (journal article)", "machine": "Intel Core i7-10750H",
         "workload": "http-hello", "labels": {"runtime": "deno", "mechanism": "process", "workers": "4"},
         "config": None, "metric": "rps", "statistic": "mean", "approx": True, "params_differ": False,
         "note": "Deno ~30-31k req/s in every mode", "published": {"mean": 30500, "sd": None, "n": 5},
         "ours": None, "ratio": None, "ratio_ci_low": None, "ratio_ci_high": None, "p": None}],
}
# The runs rundown-analyze embeds for render (its cap is far above these).
def raw_runs(store, recs):
    return {"cap": 10000, "items": [{"store": store, "record": r} for r in recs],
            "total": len(recs), "embedded": len(recs)}

analysis["raw_runs"] = raw_runs("store.jsonl", records)
analysis["check_errors"] = []
with open(os.path.join(HERE, "analysis.json"), "w") as f:
    json.dump(analysis, f, indent=1, ensure_ascii=False)
    f.write("\n")
with open(os.path.join(HERE, "store.jsonl"), "w") as f:
    for r in records:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")

# ---- hostile.json: the same analysis with labels and names that try to
# break out of every destination (HTML, Markdown cells, gnuplot, xlsx
# formulas, file names). The render must print them as text and run nothing.
HOSTILE = {
    "bun": "<script>alert(1)</script>bun",
    "deno": "=1+1",
    "node": "`touch PWNED` x'; system('touch PWNED2'); '",
    "worker": "../../etc/passwd | cell\nbreak",
    "sequential": "@rd_png [link](https://evil.example/) ![img](http://evil.example/x.png)",
}
WNAMES = {"cpu-heavycalc": "../cpu/`touch PWNED3`", "http-hello": "<img src=http://evil.example/y.png>",
          "cold-start": "cold-start'; system('touch PWNED4')"}

def hostile_id(labels):
    return cid(labels)

HKEY = {"workers": "work`touch PWNED7`|ers<b>'"}

def swap_labels(c):
    old = c["id"]
    c["labels"] = {HKEY.get(k, k): HOSTILE.get(v, v) for k, v in c["labels"].items()}
    c["id"] = cid(c["labels"])
    return old, c["id"]

h = json.loads(json.dumps(analysis))
h["title"] = "<b>Hostile</b> report `touch PWNED5` =cmd|' /C calc'!A0"
h["inputs"] = ["hostile-store.jsonl"]
h["raw_runs"] = raw_runs("hostile-store.jsonl", [
    dict(r, config={HKEY.get(k, k): HOSTILE.get(v, v) for k, v in r["config"].items()},
         workload=WNAMES.get(r["workload"], r["workload"])) for r in records])
for w in h["workloads"]:
    ids = dict(swap_labels(c) for c in w["configs"])
    for p in w["tests"]["pairs"]:
        p["a"], p["b"] = ids[p["a"]], ids[p["b"]]
    r = w["recommendation"]
    r["best"], r["recommended"] = ids[r["best"]], ids[r["recommended"]]
    r["tied"] = [ids[t] for t in r["tied"]]
    r["reason"] = "<iframe src=\"https://evil.example\"></iframe> =HYPERLINK(\"http://evil.example\")"
    for x in w["warnings"]:
        x["config"] = ids.get(x["config"], x["config"])
        x["message"] = "| broken | table `touch PWNED6`"
    w["name"] = WNAMES[w["name"]]
for x in h["replication"]:
    x["workload"] = WNAMES.get(x["workload"], x["workload"])
h["environments"][0]["cpu_model"] = "<svg onload=alert(1)> javascript:alert(1)"
with open(os.path.join(HERE, "hostile.json"), "w") as f:
    json.dump(h, f, indent=1, ensure_ascii=False)
    f.write("\n")
with open(os.path.join(HERE, "hostile-store.jsonl"), "w") as f:
    for r in records:
        r = dict(r, config={HKEY.get(k, k): HOSTILE.get(v, v) for k, v in r["config"].items()},
                 workload=WNAMES.get(r["workload"], r["workload"]))
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
