# Independent check of expected.out (SciPy; Fieller 1954, Welch 1947,
# Holm 1979), run: /usr/bin/python3 verify_claims.py (SciPy 1.10.1)
import numpy as np
from scipy import stats
x = {'bun':  [21.0, 21.5, 20.8, 21.9, 21.3], 'deno': [35.1, 36.0, 35.5, 36.4, 35.9],
     'node': [68.0, 69.1, 67.5, 68.8, 70.2]}
def fieller(a, b, conf=0.95):
    a, b = np.array(a), np.array(b)
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    r = ma / mb
    v = va + r * r * vb        # Welch-Satterthwaite df of a - R b at the estimate
    df = v * v / (va * va / (len(a) - 1) + r**4 * vb * vb / (len(b) - 1))
    t = stats.t.ppf((1 + conf) / 2, df)
    g = t * t * vb / mb**2
    half = t / mb * np.sqrt(va * (1 - g) + r * r * vb)
    return r, (r - half) / (1 - g), (r + half) / (1 - g)
def welch_p(a, b):
    return stats.ttest_ind(a, b, equal_var=False).pvalue
def holm(p):
    p = np.array(p); o = np.argsort(p); m = len(p); out = np.empty(m); run = 0
    for k, i in enumerate(o):
        run = max(run, (m - k) * p[i]); out[i] = min(1, run)
    return out
for a, b in [('node', 'bun'), ('node', 'deno'), ('deno', 'bun')]:
    print(a, '/', b, 'ratio, CI', fieller(x[a], x[b]), 'p', welch_p(x[a], x[b]))
for pairs in ([('bun', 'deno'), ('deno', 'node')], [('bun', 'deno'), ('bun', 'node')]):
    p = [welch_p(x[a], x[b]) for a, b in pairs]
    print(pairs, [fieller(x[a], x[b]) for a, b in pairs], 'p', p, 'holm', holm(p))
