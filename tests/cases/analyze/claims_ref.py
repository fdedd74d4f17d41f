# Fieller's interval and Welch's test from SciPy, shared by the claims
# cases' verify_claims.py (Fieller 1954, Welch 1947).
import numpy as np
from scipy import stats
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
