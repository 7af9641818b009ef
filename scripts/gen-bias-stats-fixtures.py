#!/usr/bin/python3
"""Writes test/fixtures/stats/bias.json: reference values for the bias-probes statistics in
src/shared/stats (paired-effect.ts, wilcoxon.ts, correlation.ts, holm.ts, binomial.ts).

- paired: scipy.stats.t.ppf (95% t interval of the mean difference), numpy (mean, SD with
  ddof=1, d_z = mean / SD), scipy.stats.ttest_1samp (p).
- wilcoxon: scipy.stats.wilcoxon(d) with zero_method='wilcox', correction=False and the method
  SciPy >= 1.13 picks by default ('auto': exact for n <= 50 without ties or zeros, else the
  normal approximation with the tie correction). Debian 12's SciPy 1.10 would use the exact
  distribution despite ties, so the method is passed explicitly.
- pearson / spearman: scipy.stats.pearsonr / spearmanr.
- partial_spearman: ranks (scipy.stats.rankdata), then the Pearson correlation of the residuals
  of x and y regressed on z by numpy least squares, t test on n - 3 df (an independent route to
  the same number: the TS code uses the closed formula of the three rank correlations).
- binomial: scipy.stats.binomtest(k, n, 0.5).pvalue.
- holm: statsmodels.stats.multitest.multipletests(method='holm').

    apt-get install -y python3-scipy python3-statsmodels
    /usr/bin/python3 scripts/gen-bias-stats-fixtures.py
"""

import json
import platform
from pathlib import Path

import numpy as np
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.multitest import multipletests

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "bias.json"

rng = np.random.default_rng(20261130)

PAIRED = [
    [1, 0, 1, 1, 2, 0, 1, -1, 1, 1, 0, 2],  # score differences: ties and zeros
    [0.5, -1.25, 2.0, 3.5, 0.75, 1.5, -0.3, 2.2],  # no ties, no zeros: exact Wilcoxon
    [3.1, 2.9, -0.4, 1.7, 0.2, 5.5],
    [1, 1, 1, 1, 2],
    [-1, -2, 0, 0, -1, 1, -3, -1, -1, -2, 0, -1, -2, -1, 0, 0, -1, -2],
    list(np.round(rng.normal(0.8, 1.0, 40), 3)),  # n = 40, continuous: exact
    list(np.round(rng.normal(0.3, 1.0, 70), 3)),  # n = 70: normal approximation
    list(rng.integers(-2, 3, 120).astype(float)),  # many ties and zeros
]

CORR = []
for n in (8, 25, 60):
    x = rng.integers(50, 400, n).astype(float)
    y = np.clip(np.round(1 + x / 100 + rng.normal(0, 1, n)), 1, 5)
    z = np.clip(np.round(y + rng.normal(0, 1, n)), 1, 5)
    CORR.append((x, y, z))
x = rng.normal(0, 1, 30)
CORR.append((x, 2 * x + rng.normal(0, 1, 30), x + rng.normal(0, 2, 30)))

BINOM = [(6, 10), (60, 100), (0, 5), (33, 50), (120, 200), (50, 100), (1, 1)]

HOLM = [
    [0.01, 0.04, 0.03, 0.005],
    [0.5, 0.2, 0.9],
    [0.001, 0.001, 0.04, 0.06, 0.2],
    [0.03],
]


def partial_spearman(x, y, z):
    rx, ry, rz = (stats.rankdata(v) for v in (x, y, z))
    a = np.column_stack([np.ones(len(rz)), rz])
    ex = rx - a @ np.linalg.lstsq(a, rx, rcond=None)[0]
    ey = ry - a @ np.linalg.lstsq(a, ry, rcond=None)[0]
    r = float(np.corrcoef(ex, ey)[0, 1])
    df = len(x) - 3
    t = r * np.sqrt(df / (1 - r * r))
    return r, float(2 * stats.t.sf(abs(t), df))


def main():
    out = {
        "generator": "scripts/gen-bias-stats-fixtures.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "paired": [],
        "correlation": [],
        "binomial": [],
        "holm": [],
    }
    for d in PAIRED:
        d = np.array(d, dtype=float)
        n = len(d)
        m = float(d.mean())
        sd = float(d.std(ddof=1))
        q = float(stats.t.ppf(0.975, n - 1))
        se = sd / np.sqrt(n)
        nz = d[d != 0]
        exact = len(nz) <= 50 and len(nz) == len(d) and len(np.unique(np.abs(nz))) == len(nz)
        method = "exact" if exact else "approx"
        try:
            w = stats.wilcoxon(d, method=method)
        except TypeError:  # SciPy < 1.11 calls it `mode`
            w = stats.wilcoxon(d, mode=method)
        out["paired"].append(
            {
                "diffs": d.tolist(),
                "mean": m,
                "sd": sd,
                "ci": [m - q * se, m + q * se],
                "dz": m / sd,
                "t_p": float(stats.ttest_1samp(d, 0).pvalue),
                "wilcoxon_statistic": float(w.statistic),
                "wilcoxon_p": float(w.pvalue),
                "wilcoxon_method": "exact" if exact else "approx",
            }
        )
    for x, y, z in CORR:
        pr = stats.pearsonr(x, y)
        sr = stats.spearmanr(x, y)
        ps = partial_spearman(x, y, z)
        out["correlation"].append(
            {
                "x": x.tolist(),
                "y": y.tolist(),
                "z": z.tolist(),
                "pearson": [float(pr[0]), float(pr[1])],
                "spearman": [float(sr[0]), float(sr[1])],
                "partial_spearman": list(ps),
            }
        )
    for k, n in BINOM:
        out["binomial"].append({"k": k, "n": n, "p": float(stats.binomtest(k, n, 0.5).pvalue)})
    for ps in HOLM:
        out["holm"].append({"p": ps, "adjusted": multipletests(ps, method="holm")[1].tolist()})
    OUT.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
