# Independent check of expected.out (SciPy; Fieller 1954, Welch 1947,
# Holm 1979), run: /usr/bin/python3 verify_claims.py (SciPy 1.10.1)
import numpy as np
from scipy import stats
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from claims_ref import fieller, welch_p  # noqa: E402
x = {'bun': [20.0, 20.4, 19.8, 20.2, 20.1], 'node': [20.1, 20.3, 20.0, 19.9, 20.2],
     'deno': [35.1, 36.0, 35.5, 36.4, 35.9]}
m, alpha = 0.05, 0.05
for pairs in ([('bun', 'node'), ('node', 'deno')], [('node', 'deno')]):
    conf = 1 - alpha / len(pairs)   # Bonferroni over the claim's pairs
    for a, b in pairs:
        print(a, '/', b, '95 %', fieller(x[a], x[b]), 'p', welch_p(x[a], x[b]),
              '%.1f %%' % (100 * conf), fieller(x[a], x[b], conf))
for vals in ([20.0, 28.4, 35.7], [20.0, 20.6, 35.7]):
    print('published ratios', vals[0] / vals[1], vals[1] / vals[2])
