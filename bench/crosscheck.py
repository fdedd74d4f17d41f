#!/usr/bin/python3
"""Checks that rundown-analyze and bench/pandas_equivalent.py did the same
work on a store, so the benchmark compares like with like.

  crosscheck.py ANALYSIS.json PREFIX     (PREFIX.desc.csv, PREFIX.pairs.csv
                                          from pandas_equivalent.py -o PREFIX)

Compares every descriptive both compute (n, mean, sd, se, CI, min, max,
median, q1, q3, p90, p95, p99, mad, cv, geomean) for every workload x config
x metric, and welch_t, welch_df, p, p_holm for every pair on the primary
metric, to 1e-9 relative (1e-7 for p-values, absolute below 1e-300). Prints
the number of values compared and the worst mismatch; exits 1 on a mismatch
or a missing value.
"""
import csv
import json
import math
import sys

DESC = ["n", "mean", "sd", "se", "ci_low", "ci_high", "min", "max", "median", "q1", "q3",
        "p90", "p95", "p99", "mad", "cv", "geomean"]


def close(x, y, rel):
    if x is None or y is None:
        return x is None and (y is None or math.isnan(y))
    if x == y:
        return True
    return abs(x - y) <= rel * max(abs(x), abs(y)) or abs(x - y) < 1e-300


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    an = json.load(open(sys.argv[1]))
    prefix = sys.argv[2]
    stats, pairs = {}, {}
    for w in an["workloads"]:
        for c in w["configs"]:
            for m, s in c["metrics"].items():
                stats[(w["name"], c["id"], m)] = s
        for p in (w.get("tests") or {}).get("pairs") or []:
            pairs[(w["name"], p["a"], p["b"])] = p
    bad, compared, worst = [], 0, (0.0, None)

    def cmp(key, name, mine, theirs, rel):
        nonlocal compared, worst
        compared += 1
        if not close(mine, theirs, rel):
            bad.append("%s %s: rundown %r, pandas %r" % ("/".join(key), name, mine, theirs))
        elif mine is not None and theirs not in (None, 0.0):
            e = abs(mine - theirs) / abs(theirs)
            if e > worst[0]:
                worst = (e, "%s %s" % ("/".join(key), name))

    for row in csv.DictReader(open(prefix + ".desc.csv")):
        key = (row["workload"], row["config"], row["metric"])
        s = stats.get(key)
        if s is None:
            bad.append("%s: missing in the analysis" % "/".join(key))
            continue
        for k in DESC:
            cmp(key, k, s.get(k), float(row[k]) if row[k] != "" else None, 1e-9)
    for row in csv.DictReader(open(prefix + ".pairs.csv")):
        key = (row["workload"], row["a"], row["b"])
        sign = 1.0
        p = pairs.get(key)
        if p is None:
            p = pairs.get((row["workload"], row["b"], row["a"]))
            sign = -1.0
        if p is None:
            bad.append("%s: pair missing in the analysis" % "/".join(key))
            continue
        t = p.get("welch_t")
        cmp(key, "welch_t", None if t is None else sign * t, float(row["welch_t"]), 1e-9)
        cmp(key, "welch_df", p.get("welch_df"), float(row["welch_df"]), 1e-9)
        cmp(key, "p", p.get("p"), float(row["p"]), 1e-7)
        cmp(key, "p_holm", p.get("p_holm"), float(row["p_holm"]), 1e-7)
    print("crosscheck: %d values compared, %d mismatches; worst relative difference %.2g (%s)"
          % (compared, len(bad), worst[0], worst[1]))
    for b in bad[:20]:
        print("  " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
