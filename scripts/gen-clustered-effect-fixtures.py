#!/usr/bin/python3
"""Writes test/fixtures/stats/clustered-effect.json: the item-clustered mean difference's interval
and t-test p (src/shared/stats/paired-effect.ts `clusteredPairedEffect`) from statsmodels: OLS of
the differences on an intercept, cov_type='cluster' with the item as the group, use_t=True
(t on G - 1 degrees of freedom, the G/(G - 1) small-sample factor).

    apt-get install -y python3-statsmodels
    /usr/bin/python3 scripts/gen-clustered-effect-fixtures.py
"""

import json
import platform
from pathlib import Path

import numpy as np
import statsmodels
import statsmodels.api as sm

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "clustered-effect.json"
rng = np.random.default_rng(61206)


def case(name, diffs, items):
    y = np.array(diffs, dtype=float)
    codes = {k: i for i, k in enumerate(dict.fromkeys(items))}
    g = np.array([codes[k] for k in items])
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=True)
    lo, hi = fit.conf_int(alpha=0.05)[0]
    return {
        "name": name,
        "diffs": [float(x) for x in diffs],
        "items": items,
        "mean": float(fit.params[0]),
        "se": float(fit.bse[0]),
        "ci": [float(lo), float(hi)],
        "p": float(fit.pvalues[0]),
    }


cases = []
# Pairwise win-score differences in both orders of an item (steps of a half).
n = 40
items = [f"i{k}" for k in range(n) for _ in range(2)]
base = rng.choice([-1, -0.5, 0, 0.5, 1], size=n, p=[0.05, 0.15, 0.5, 0.2, 0.1])
diffs = [float(b if rng.random() < 0.7 else rng.choice([-0.5, 0, 0.5])) for b in np.repeat(base, 2)]
cases.append(case("pairwise, two orders per item", diffs, items))
# Pointwise scores 1-5: differences, two responses per item, some items with one.
items, diffs = [], []
for k in range(30):
    m = 1 if k % 7 == 0 else 2
    shift = rng.integers(-1, 2)
    for _ in range(m):
        items.append(f"q{k}")
        diffs.append(float(np.clip(shift + rng.integers(-1, 2), -4, 4)))
cases.append(case("pointwise, one or two responses per item", diffs, items))
# Items in a shuffled order: the grouping, not adjacency, makes the clusters.
perm = rng.permutation(len(items))
cases.append(case("pointwise, shuffled", [diffs[i] for i in perm], [items[i] for i in perm]))

OUT.write_text(
    json.dumps(
        {
            "generator": "scripts/gen-clustered-effect-fixtures.py",
            "python": platform.python_version(),
            "statsmodels": statsmodels.__version__,
            "numpy": np.__version__,
            "cases": cases,
        },
        indent=1,
    )
    + "\n"
)
for c in cases:
    print(c["name"], c["mean"], c["se"], c["ci"], c["p"])
