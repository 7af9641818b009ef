#!/usr/bin/python3
"""Writes test/fixtures/stats/bootstrap-holm.json: reference values for src/shared/stats/holm.ts and
src/shared/stats/bootstrap.ts from independent implementations.

- Holm: statsmodels.stats.multitest.multipletests(method='holm').
- Item-clustered bootstrap: the same seeded resamples (mulberry32, re-implemented here with 32-bit
  integer arithmetic; index = floor(u * n)), the statistic computed with numpy over the drawn
  clusters, and numpy.percentile (default 'linear' method) for the interval.

Run with Debian's Python, which has the packages:
    apt-get install -y python3-scipy python3-statsmodels
    /usr/bin/python3 scripts/gen-bootstrap-holm-fixtures.py
"""

import json
import platform
from pathlib import Path

import numpy as np
import statsmodels
from statsmodels.stats.multitest import multipletests

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "bootstrap-holm.json"
M32 = 0xFFFFFFFF


def imul(a, b):
    return (a * b) & M32


def mulberry32(seed):
    a = seed & M32

    def nxt():
        nonlocal a
        a = (a + 0x6D2B79F5) & M32
        t = a
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & M32
        return ((t ^ (t >> 14)) & M32) / 4294967296

    return nxt


def resamples(n, b, seed):
    rnd = mulberry32(seed)
    return np.array([[int(rnd() * n) for _ in range(n)] for _ in range(b)], dtype=np.int64)


def ratio_ci(clusters, b, seed, level):
    num = np.array([c[0] for c in clusters], dtype=float)
    den = np.array([c[1] for c in clusters], dtype=float)
    idx = resamples(len(clusters), b, seed)
    s, d = num[idx].sum(axis=1), den[idx].sum(axis=1)
    stats = s[d > 0] / d[d > 0]
    alpha = (1 - level) / 2
    return [float(np.percentile(stats, 100 * alpha)), float(np.percentile(stats, 100 * (1 - alpha)))]


def paired_ci(clusters, b, seed, level):
    arr = np.array(clusters, dtype=float)
    idx = resamples(len(clusters), b, seed)
    sa, ta, sb, tb = (arr[:, k][idx].sum(axis=1) for k in range(4))
    ok = (ta > 0) & (tb > 0)
    stats = sb[ok] / tb[ok] - sa[ok] / ta[ok]
    alpha = (1 - level) / 2
    return [float(np.percentile(stats, 100 * alpha)), float(np.percentile(stats, 100 * (1 - alpha)))]


def holm_cases():
    rng = np.random.default_rng(14)
    lists = [
        [0.01, 0.04, 0.03, 0.005],
        [0.5],
        [0.02, 0.02, 0.02],
        [1.0, 0.0, 0.2, 0.2, 0.049],
        [0.001, 0.2, 0.3, 0.9, 0.04, 0.013],
        [float(x) for x in rng.uniform(0, 0.1, 12)],
        [float(x) for x in rng.uniform(0, 1, 20)],
    ]
    return [{"p": p, "adjusted": [float(x) for x in multipletests(p, method="holm")[1]]} for p in lists]


def bootstrap_cases():
    rng = np.random.default_rng(2014)
    cases = []
    # Judge-LS-shaped clusters: each item has 2 (one language) or 4 (two languages) verdicts.
    for n_items, per, b, seed in ((25, 2, 500, 1), (60, 4, 2000, 7), (200, 2, 1000, 123456789), (7, 6, 300, 42)):
        p_item = rng.beta(4, 2, n_items)
        clusters = [[int(rng.binomial(per, p)), per] for p in p_item]
        cases.append({"kind": "ratio", "clusters": clusters, "B": b, "seed": seed, "level": 0.95,
                      "ci": ratio_ci(clusters, b, seed, 0.95)})
    # unequal cluster sizes (items whose variant failed have fewer verdicts), 90% level
    clusters = [[int(rng.binomial(k, 0.6)), int(k)] for k in rng.integers(1, 5, 40)]
    cases.append({"kind": "ratio", "clusters": clusters, "B": 800, "seed": 5, "level": 0.9,
                  "ci": ratio_ci(clusters, 800, 5, 0.9)})
    for n_items, b, seed in ((50, 1000, 3), (120, 2000, 99)):
        pa = rng.beta(5, 2, n_items)
        clusters = []
        for p in pa:
            a = int(rng.binomial(2, p))
            bb = int(rng.binomial(2, max(0.0, p - 0.1)))
            clusters.append([a, 2, bb, 2])
        cases.append({"kind": "paired", "clusters": clusters, "B": b, "seed": seed, "level": 0.95,
                      "ci": paired_ci(clusters, b, seed, 0.95)})
    return cases


def main():
    rnd = mulberry32(1)
    data = {
        "versions": {"numpy": np.__version__, "statsmodels": statsmodels.__version__,
                     "python": platform.python_version()},
        "mulberry32": {"seed": 1, "first": [rnd() for _ in range(5)]},
        "holm": holm_cases(),
        "bootstrap": bootstrap_cases(),
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
