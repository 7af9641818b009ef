#!/usr/bin/python3
"""Writes test/fixtures/stats/clustered-mcnemar.json: reference p-values for the item-clustered
exact McNemar test (src/shared/stats/clustered-mcnemar.ts) from independent implementations.

- Small cases (at most 12 items): scipy.stats.permutation_test over every sign assignment of the
  items' differences (paired samples (d, 0), permutation_type='samples', n_resamples=inf,
  statistic = the sum of differences), two-sided as SciPy defines it (twice the smaller tail, capped at 1).
- Larger cases: the exact law of the sum built with numpy.convolve of each item's two-point law,
  p = P(|S| >= |observed|).
- Durkalski et al. (2003)'s chi-square statistic X^2 = (sum d)^2 / sum d^2 for each case, so the
  test can show the exact p sits near its large-sample form where items are many.

Run with Debian's Python, which has the packages:
    apt-get install -y python3-scipy
    /usr/bin/python3 scripts/gen-clustered-mcnemar-fixtures.py
"""

import json
import platform
from pathlib import Path

import numpy as np
import scipy
from scipy.stats import chi2, permutation_test

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "clustered-mcnemar.json"

rng = np.random.default_rng(20261206)

SMALL = {
    "two orders, lean to EN": [2, 2, 1, 0, 1, -1, 2, 0, 1, 1],
    "two orders, balanced": [2, -2, 1, -1, 0, 2, -2, 1],
    "one pair per item": [1, 1, 1, -1, 1, 0, 1, 1, 1, -1, 1, 1],
    "three repeats": [3, -1, 2, 1, 3, 0, -2, 1, 2],
    "all zero but one": [0, 0, 0, 2, 0],
}


def big_case(n, weights):
    return [int(x) for x in rng.choice([-2, -1, 0, 1, 2], size=n, p=weights)]


LARGE = {
    "419 items, two orders, null": big_case(419, [0.05, 0.1, 0.7, 0.1, 0.05]),
    "419 items, two orders, lean": big_case(419, [0.03, 0.09, 0.7, 0.11, 0.07]),
    "2000 items, two orders": big_case(2000, [0.04, 0.1, 0.7, 0.11, 0.05]),
}


def exact_by_convolution(d):
    law = np.array([1.0])
    total = 0
    for x in d:
        m = abs(x)
        if m == 0:
            continue
        step = np.zeros(2 * m + 1)
        step[0] = 0.5
        step[-1] = 0.5
        law = np.convolve(law, step)
        total += m
    s = np.arange(-total, total + 1)
    return float(law[np.abs(s) >= abs(sum(d))].sum())


def durkalski_p(d):
    v = sum(x * x for x in d)
    return 1.0 if v == 0 else float(chi2.sf(sum(d) ** 2 / v, 1))


cases = []
for name, d in SMALL.items():
    # Paired samples (x, y) = (d, 0): SciPy swaps x_i and y_i, which flips the sign of item i.
    x = np.array(d, dtype=float)
    res = permutation_test(
        (x, np.zeros_like(x)),
        lambda a, b, axis=-1: np.sum(a - b, axis=axis),
        vectorized=True,
        permutation_type="samples",
        n_resamples=np.inf,
        alternative="two-sided",
    )
    cases.append({"name": name, "differences": d, "p": float(res.pvalue), "durkalski_p": durkalski_p(d), "by": "scipy.permutation_test"})
for name, d in LARGE.items():
    cases.append({"name": name, "differences": d, "p": exact_by_convolution(d), "durkalski_p": durkalski_p(d), "by": "numpy.convolve"})

OUT.write_text(
    json.dumps(
        {
            "generator": "scripts/gen-clustered-mcnemar-fixtures.py",
            "python": platform.python_version(),
            "scipy": scipy.__version__,
            "numpy": np.__version__,
            "cases": cases,
        },
        indent=1,
    )
    + "\n"
)
print(f"wrote {OUT}")
for c in cases:
    print(c["name"], c["p"], c["durkalski_p"])
