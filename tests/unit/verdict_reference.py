# The expected numbers of tests/unit/test_verdict.c, by formula with SciPy
# 1.10 (run with Debian's python3-scipy: /usr/bin/python3 verdict_reference.py).
# Welch df per comparison with the best, the floor of the smallest, the
# critical value studentized_range.ppf(0.95, k, df) / sqrt(2), Fieller's
# interval at that value, p_adj = studentized_range.sf(sqrt(2) |t|, k, df).
from math import sqrt, floor
from statistics import mean, variance
from scipy.stats import studentized_range as sr

def welch_df(a, b):
    va, vb = variance(a) / len(a), variance(b) / len(b)
    return (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))

def fieller(a, b, c):
    va, vb = variance(a) / len(a), variance(b) / len(b)
    ma, mb = mean(a), mean(b)
    r = ma / mb
    g = c * c * vb / mb ** 2
    h = c / abs(mb) * sqrt(va * (1 - g) + r * r * vb)
    return (r - h) / (1 - g), (r + h) / (1 - g)

def t(a, b):
    return (mean(a) - mean(b)) / sqrt(variance(a) / len(a) + variance(b) / len(b))

def case(name, best, others):
    k = len(others) + 1
    df = floor(min(welch_df(o, best) for o in others))
    c = sr.ppf(0.95, k, df) / sqrt(2)
    print(name, "df", df, "crit", repr(c))
    for o in others:
        lo, hi = fieller(o, best, c)
        print("  ratio", repr(mean(o) / mean(best)), "ci", repr(lo), repr(hi),
              "t", repr(t(o, best)), "p_adj", repr(sr.sf(sqrt(2) * abs(t(o, best)), k, df)))

case("worse/near", [100, 102, 98, 101, 99], [[110, 112, 108, 111, 109], [104, 99, 107, 101, 103]])
case("equivalent", [100.0, 100.1, 99.9, 100.05, 99.95], [[101.0, 101.1, 100.9, 101.05, 100.95]])
case("wide", [100, 95, 105], [[125, 90, 160]])
case("higher", [1000, 1010, 990, 1005, 995], [[900, 910, 890, 905, 895]])
