# Independent check of expected.out (SciPy; Fieller 1954, Welch 1947,
# Holm 1979), run: /usr/bin/python3 verify_claims.py (SciPy 1.10.1)
import numpy as np
from scipy import stats
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from claims_ref import fieller, welch_p  # noqa: E402
x = {'bun':  [21.0, 21.5, 20.8, 21.9, 21.3], 'deno': [35.1, 36.0, 35.5, 36.4, 35.9],
     'node': [68.0, 69.1, 67.5, 68.8, 70.2]}
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
