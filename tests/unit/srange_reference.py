#!/usr/bin/python3
"""Prints the studentized range tails test_verdict.c checks srange.c against:
SciPy 1.10's studentized_range.sf(q, k, df), one "k df q sf" line each, over
k up to 10^4 (10^6 with a known sd), df 1 to 1000 and infinity, q 0.5 to 100.

  /usr/bin/python3 tests/unit/srange_reference.py > tests/unit/srange_scipy.txt

SciPy integrates to an absolute error of about 1e-11 (k = 2, where the tail
is Student's t, shows it), so the test asks for agreement within 1e-9, the
accuracy srange.h promises. Takes about ten seconds.
"""
import math
import warnings

from scipy.stats import studentized_range

warnings.simplefilter("ignore")  # SciPy's integration warnings on far tails


def main():
    print("# k df q sf  (SciPy studentized_range.sf; tests/unit/srange_reference.py)")
    for k in (2, 3, 5, 10, 21, 100, 1000, 10000):
        for df in (1, 2, 3, 5, 10, 30, 100, 1000):
            for q in (0.5, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100):
                print(k, df, q, repr(float(studentized_range.sf(q, k, df))))
    for k in (2, 3, 10, 100, 1000, 10000, 100000, 1000000):
        for w in (0.5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20):
            print(k, "inf", w, repr(float(studentized_range.sf(w, k, math.inf))))


if __name__ == "__main__":
    main()
