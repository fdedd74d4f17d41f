#!/usr/bin/python3
"""Coverage of the two-level interval of a mean (stats/nested.c,
docs/methods.md §6a), with Satterthwaite's df as it comes and floored at
min(m - 1, N - m).

  nested-coverage.py [DRAWS]        (default 20,000 per row)

Runs of sd 1 in sessions of the sizes below, each session offset by a
normal draw of sd sigma_b; the true mean is 0. For each design it prints
the share of 95 % intervals that hold 0 and their median half-width, for
both dfs. The estimator is a transcription of rd_nested_mean_var (ANOVA
estimators, sigma_b^2 truncated at 0, var(mean) = a MSB + b MSW).
NumPy and SciPy (Debian's python3-numpy, python3-scipy); seeded.
"""
import sys

import numpy as np
from scipy import stats

DESIGNS = [(17, 1), (15, 3), (9, 9), (10, 5, 3), (20, 2, 2), (6, 6, 6, 6)]
SIGMA_B = [0, 0.3, 1.0]


def nested(x, ses):
    """mean, var(mean), Satterthwaite df, m - 1, N - m."""
    groups = [x[ses == j] for j in np.unique(ses)]
    m, big_n = len(groups), len(x)
    n = np.array([len(g) for g in groups], dtype=float)
    sum_n2 = (n ** 2).sum()
    mean = x.mean()
    ssb = sum(len(g) * (g.mean() - mean) ** 2 for g in groups)
    ssw = sum(((g - g.mean()) ** 2).sum() for g in groups)
    dfb, dfw = m - 1, big_n - m
    msb, msw = ssb / dfb, ssw / dfw
    n0 = (big_n - sum_n2 / big_n) / dfb
    if max(0.0, (msb - msw) / n0) > 0:
        a = sum_n2 / (big_n * big_n * n0)
        b = 1 / big_n - a
        var = a * msb + b * msw
        den = (a * msb) ** 2 / dfb + (b * msw) ** 2 / dfw
        df = var * var / den if den > 0 else dfb
    else:
        var, df = msw / big_n, dfw
    return mean, var, df, dfb, dfw


def main():
    draws = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rng = np.random.default_rng(20261203)
    print(f"{'sizes':>14} {'sigma_b':>7}  {'Satterthwaite':>18}  {'floored':>18}")
    for sizes in DESIGNS:
        ses = np.concatenate([[j] * s for j, s in enumerate(sizes)])
        for sb in SIGMA_B:
            hit = {"sat": 0, "floor": 0}
            half = {"sat": [], "floor": []}
            for _ in range(draws):
                x = rng.normal(0, sb, len(sizes))[ses] + rng.normal(0, 1, len(ses))
                mean, var, df, dfb, dfw = nested(x, ses)
                for kind, d in (("sat", df), ("floor", max(df, min(dfb, dfw)))):
                    h = stats.t.ppf(0.975, d) * np.sqrt(var)
                    hit[kind] += abs(mean) <= h
                    half[kind].append(h)
            cells = [f"{hit[k] / draws:.3f}, {np.median(half[k]):7.2f}" for k in ("sat", "floor")]
            print(f"{' + '.join(map(str, sizes)):>14} {sb:7.1f}  {cells[0]:>18}  {cells[1]:>18}")


if __name__ == "__main__":
    main()
