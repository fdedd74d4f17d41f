#!/usr/bin/python3
"""What comparing configs within rounds would buy (docs/methods.md §6d,
"Rounds as blocks").

  blocking.py STORE.jsonl [WORKLOAD...]

A suite interleaves its configs: round r runs every config's r-th run, one
after another, so runs of one round share the host's state of that
minute. For each workload (all, or those named) this compares each config
with the best (the best mean of the primary metric in its better
direction, as the verdicts do) on the log scale, two ways, over the rounds
both have a kept run in (ok, not contended, not a warmup):

  unpaired  sd of log a - log b for one run of each, as the verdicts read it
            today: sqrt(s_a^2 + s_b^2) of the logs;
  paired    sd of the within-round differences log a_r - log b_r.

It prints both in percent and var_ratio = paired^2 / unpaired^2: the share
of the runs per config that a verdict reading the paired differences
would need for the same precision (runs needed scale with the variance).
Pairs with fewer than 5 common rounds, or constant values (no spread to
share), are left out of the medians. Only the standard
library and NumPy (Debian's python3-numpy).
"""
import collections
import json
import math
import sys

import numpy as np

MIN_COMMON = 5


def kept_runs(path, only):
    """workload -> config id -> run number -> log of the primary metric;
    and workload -> (metric, higher_is_better)."""
    logs = collections.defaultdict(lambda: collections.defaultdict(dict))
    primary = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            wl = r.get("workload")
            info = r.get("info") or {}
            if (only and wl not in only) or r.get("phase") == "warmup" or r.get("contended") \
                    or r.get("status", "ok") != "ok" or "primary_metric" not in info:
                continue
            metric = info["primary_metric"]
            v = (r.get("metrics") or {}).get(metric)
            if not isinstance(v, (int, float)) or v <= 0 or not isinstance(r.get("run"), int):
                continue
            primary[wl] = (metric, info.get("primary_better") == "higher")
            cfg = ",".join(f"{k}={v}" for k, v in sorted(r["config"].items()))
            logs[wl][cfg].setdefault(r["run"], (math.log(v), v))
    return logs, primary


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    logs, primary = kept_runs(sys.argv[1], set(sys.argv[2:]))
    ratios_all = []
    for wl in sorted(logs):
        cfgs = logs[wl]
        metric, higher = primary[wl]
        means = {c: np.mean([raw for _, raw in runs.values()]) for c, runs in cfgs.items()}
        best = (max if higher else min)(means, key=means.get)
        print(f"{wl} ({metric}, best {best}, k = {len(cfgs)})")
        print(f"  {'config':48} {'rounds':>6} {'ratio':>7} {'unpaired':>9} {'paired':>7} "
              f"{'var_ratio':>9}")
        ratios = []
        for c in sorted(cfgs):
            if c == best:
                continue
            common = sorted(set(cfgs[c]) & set(cfgs[best]))
            if len(common) < MIN_COMMON:
                continue
            a = np.array([cfgs[c][r][0] for r in common])
            b = np.array([cfgs[best][r][0] for r in common])
            unpaired = math.sqrt(np.var(a, ddof=1) + np.var(b, ddof=1))
            paired = float(np.std(a - b, ddof=1))
            vr = paired ** 2 / unpaired ** 2 if unpaired > 0 else float("nan")
            if not math.isnan(vr):
                ratios.append(vr)
            print(f"  {c[:48]:48} {len(common):6d} {math.exp(np.mean(a - b)):7.3f} "
                  f"{100 * unpaired:8.1f}% {100 * paired:6.1f}% {vr:9.2f}")
        if ratios:
            print(f"  median var_ratio {np.median(ratios):.2f} over {len(ratios)} pairs")
            ratios_all += ratios
    if ratios_all:
        print(f"all workloads: median var_ratio {np.median(ratios_all):.2f} over "
              f"{len(ratios_all)} pairs")


if __name__ == "__main__":
    main()
