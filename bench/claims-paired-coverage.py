#!/usr/bin/python3
"""Coverage of a claim's interval on a workload paired within rounds
(analyze/claims.c, docs/methods.md §7a), against the unpaired one.

  claims-paired-coverage.py [DRAWS]        (default 20,000 per row)

Two configs, one run each in each of n rounds. A run's log value is its
config's log location, plus the round's offset (shared by every config of
the round: the host of that minute), plus the run's own noise:

  log a_r = log 1.2 + o_r + e_ar,   log b_r = o_r + e_br,
  o_r ~ offset distribution (sd sigma_o),  e ~ N(0, 0.03^2)

so the true ratio a/b is 1.2 (the same for the geometric means, which
the paired interval estimates, and for the means, which Fieller's does:
the runs' spreads are alike). With an interaction (sd 0.05 on a's log
per round) a config moves a little differently from round to round.

For each design it prints the share of 95 % intervals that hold 1.2 and
their median width (high / low), paired (claims.c: exp(mean d +- t(n-1)
sd_d / sqrt n) over d_r = log a_r - log b_r) and unpaired (Fieller's
interval of the ratio of means with Welch's df, analyze/stats.c
rd_stats_ratio_fieller; NaN when the denominator's interval holds 0,
counted as not covering and left out of the width). NumPy and
SciPy (Debian's python3-numpy, python3-scipy); seeded.
"""
import sys

import numpy as np
from scipy import stats

RATIO = 1.2
NOISE = 0.03
ROUNDS = [3, 5, 10, 20]
# (label, offset sd, offset law, interaction sd)
CASES = [
    ("no offsets", 0.0, "normal", 0.0),
    ("offsets sd 0.3", 0.3, "normal", 0.0),
    ("offsets, 2 host states", 0.3, "two", 0.0),
    ("offsets + interaction 0.05", 0.3, "normal", 0.05),
]


def offsets(rng, law, sd, shape):
    if law == "two":  # the host either fast or 2x slower: a bimodal shift
        return np.where(rng.random(shape) < 0.5, 0.0, np.log(2.0)) * (sd / 0.3466)
    return rng.normal(0.0, sd, shape)


def paired(la, lb, conf=0.95):
    d = la - lb
    n = d.shape[1]
    m, s = d.mean(axis=1), d.std(axis=1, ddof=1)
    q = stats.t.ppf((1 + conf) / 2, n - 1)
    return np.exp(m - q * s / np.sqrt(n)), np.exp(m + q * s / np.sqrt(n))


def fieller(a, b, conf=0.95):
    n = a.shape[1]
    ma, mb = a.mean(axis=1), b.mean(axis=1)
    va, vb = a.var(axis=1, ddof=1) / n, b.var(axis=1, ddof=1) / n
    r = ma / mb
    vlin = va + r * r * vb
    df = vlin ** 2 / (va ** 2 / (n - 1) + r ** 4 * vb ** 2 / (n - 1))
    t = stats.t.ppf((1 + conf) / 2, df)
    g = t * t * vb / (mb * mb)
    half = (t / np.abs(mb)) * np.sqrt(np.clip(va * (1 - g) + r * r * vb, 0, None))
    lo, hi = (r - half) / (1 - g), (r + half) / (1 - g)
    bad = ~(g < 1)
    lo[bad] = np.nan
    hi[bad] = np.nan
    return lo, hi


def main():
    draws = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rng = np.random.default_rng(20261204)
    print(f"{draws} draws per row, true ratio {RATIO}, within-round noise sd {NOISE}")
    print("| case | rounds | paired: coverage | paired: median width | "
          "unpaired: coverage | unpaired: median width |")
    print("|---|---|---|---|---|---|")
    for label, sd, law, inter in CASES:
        for n in ROUNDS:
            o = offsets(rng, law, sd, (draws, n))
            la = np.log(RATIO) + o + rng.normal(0, NOISE, (draws, n)) + \
                rng.normal(0, inter, (draws, n))
            lb = o + rng.normal(0, NOISE, (draws, n))
            plo, phi = paired(la, lb)
            pc = np.mean((plo <= RATIO) & (RATIO <= phi))
            flo, fhi = fieller(np.exp(la), np.exp(lb))
            fc = np.mean((flo <= RATIO) & (RATIO <= fhi))
            fw = np.nanmedian(fhi / flo)
            print(f"| {label} | {n} | {pc:.4f} | {np.median(phi / plo):.3f} | "
                  f"{fc:.4f} | {fw:.3f} |")


if __name__ == "__main__":
    main()
