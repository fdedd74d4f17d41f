#!/usr/bin/python3
"""The comparison a user would make: the core of rundown-analyze's work done
with pandas + scipy (Debian's python3-pandas and python3-scipy).

  pandas_equivalent.py [--confidence C] [--metric M] [-o PREFIX] STORE.jsonl

Reads the run store (rundown.run/1 JSONL) with pandas.read_json(lines=True),
keeps measured runs with status ok and, for every workload x config x metric:
n, mean, sd, se, the Student-t CI of the mean, min, max, median, q1, q3, p90,
p95, p99 (Hyndman-Fan type 7, pandas' and numpy's default 'linear'), MAD
(scaled by 1.482602218505602), CV and geometric mean. Then, per workload on
the primary metric (wall_ms), every pair of configs: Welch t, df, two-sided p
(scipy.stats.ttest_ind(equal_var=False)) and the Holm-adjusted p within the
workload.

This is a subset of what rundown-analyze computes (no Mann-Whitney, ANOVA,
Kruskal-Wallis, effect sizes, outliers or recommendations), written the way
a competent pandas user would: vectorised group-bys, scipy for the tests.
With -o it writes PREFIX.desc.csv and PREFIX.pairs.csv (bench/crosscheck.py
compares them with an analysis.json); it always prints the phase times and
the counts on stderr.
"""
import argparse
import itertools
import sys
import time

import numpy as np
import pandas as pd
from scipy import stats


def holm(p):
    """Holm step-down adjusted p-values, in the input order."""
    p = np.asarray(p, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="mergesort")
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("store")
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--metric", default="wall_ms")
    ap.add_argument("-o", "--output", help="write PREFIX.desc.csv and PREFIX.pairs.csv")
    a = ap.parse_args()

    t0 = time.perf_counter()
    df = pd.read_json(a.store, lines=True, dtype=False)
    df = df[(df["phase"] == "measure") & (df["status"] == "ok")]
    config = df["config"].map(lambda d: ",".join("%s=%s" % kv for kv in sorted(d.items())))
    metrics = pd.DataFrame(df["metrics"].tolist(), index=df.index)
    metrics["workload"] = df["workload"].values
    metrics["config"] = config.values
    long = metrics.melt(id_vars=["workload", "config"], var_name="metric").dropna()
    long["value"] = long["value"].astype(float)
    t1 = time.perf_counter()

    keys = ["workload", "config", "metric"]
    g = long.groupby(keys, sort=True)["value"]
    desc = g.agg(["count", "mean", "std", "min", "max", "median"])
    desc.columns = ["n", "mean", "sd", "min", "max", "median"]
    q = g.quantile([0.25, 0.75, 0.90, 0.95, 0.99]).unstack()
    q.columns = ["q1", "q3", "p90", "p95", "p99"]
    desc = desc.join(q)
    desc["se"] = desc["sd"] / np.sqrt(desc["n"])
    tq = stats.t.ppf(0.5 + a.confidence / 2, desc["n"] - 1)
    desc["ci_low"] = desc["mean"] - tq * desc["se"]
    desc["ci_high"] = desc["mean"] + tq * desc["se"]
    desc["cv"] = desc["sd"] / desc["mean"]
    dev = (long["value"] - g.transform("median")).abs()
    desc["mad"] = dev.groupby([long[k] for k in keys], sort=True).median() * 1.482602218505602
    pos = long[long["value"] > 0]
    desc["geomean"] = np.exp(np.log(pos["value"]).groupby([pos[k] for k in keys], sort=True).mean())
    t2 = time.perf_counter()

    prim = long[long["metric"] == a.metric]
    rows = []
    for wl, wdf in prim.groupby("workload", sort=True):
        groups = {c: v["value"].to_numpy() for c, v in wdf.groupby("config", sort=True)}
        pairs = []
        for ca, cb in itertools.combinations(sorted(groups), 2):
            x, y = groups[ca], groups[cb]
            t, p = stats.ttest_ind(x, y, equal_var=False)
            vx, vy = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
            dfw = (vx + vy) ** 2 / (vx * vx / (len(x) - 1) + vy * vy / (len(y) - 1))
            pairs.append([wl, ca, cb, t, dfw, p])
        if pairs:
            for row, ph in zip(pairs, holm([r[5] for r in pairs])):
                rows.append(row + [ph])
    pairs = pd.DataFrame(rows, columns=["workload", "a", "b", "welch_t", "welch_df", "p", "p_holm"])
    t3 = time.perf_counter()

    if a.output:
        desc.to_csv(a.output + ".desc.csv", float_format="%.17g")
        pairs.to_csv(a.output + ".pairs.csv", index=False, float_format="%.17g")
    print("pandas_equivalent: runs %d, groups %d, pairs %d; read %.2fs, describe %.2fs, "
          "tests %.2fs, total %.2fs"
          % (len(df), len(desc), len(pairs), t1 - t0, t2 - t1, t3 - t2, time.perf_counter() - t0),
          file=sys.stderr)


if __name__ == "__main__":
    main()
