#!/usr/bin/python3
"""Writes test/fixtures/stats/trend.json: reference values for src/shared/stats/trend.ts from
independent implementations (issue 37, dose-response).

- The slope, its cluster-robust standard error, t interval and p: statsmodels OLS of y on
  [1, x] with cov_type='cluster' (groups = the items), use_t=True (t on G - 1 df, CR1 factor).
- The item-clustered percentile bootstrap of the slope: the same seeded resamples as
  src/shared/stats/bootstrap.ts (mulberry32 re-implemented with 32-bit integer arithmetic; index
  = floor(u * G), clusters in first-seen order), the slope by numpy least squares over the drawn
  items, numpy.percentile (default 'linear') for the interval.

The data sets are drawn here with numpy (seeded) and stored in the fixture, so the test reads the
same observations. Run:  /usr/bin/python3 scripts/gen-trend-fixtures.py
"""

import json
import platform
from pathlib import Path

import numpy as np
import statsmodels
import statsmodels.api as sm

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "trend.json"
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


def draw(rs, items, levels, slope, base, spread):
    """Items judged at every level in two orders; an item's propensity shifts its flips."""
    obs = []
    for i in range(items):
        shift = rs.normal(0, spread)
        for lv in levels:
            x = min(1.0, max(0.0, lv + rs.normal(0, 0.04))) if 0 < lv < 1 else lv
            p = min(1.0, max(0.0, base + slope * x + shift))
            for _ in range(2):
                obs.append({"cluster": f"item{i}", "x": round(float(x), 6), "y": int(rs.random() < p)})
    return obs


def reference(obs, b, seed):
    clusters = list(dict.fromkeys(o["cluster"] for o in obs))
    g = np.array([clusters.index(o["cluster"]) for o in obs])
    x = np.array([o["x"] for o in obs], dtype=float)
    y = np.array([o["y"] for o in obs], dtype=float)
    X = sm.add_constant(x)
    res = sm.OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=True)
    ci = res.conf_int(alpha=0.05)
    rnd = mulberry32(seed)
    G = len(clusters)
    members = [np.where(g == k)[0] for k in range(G)]
    slopes = []
    for _ in range(b):
        idx = np.concatenate([members[int(rnd() * G)] for _ in range(G)])
        xs, ys = x[idx], y[idx]
        if np.ptp(xs) == 0:
            continue
        A = np.column_stack([np.ones(len(xs)), xs])
        slopes.append(np.linalg.lstsq(A, ys, rcond=None)[0][1])
    return {
        "intercept": float(res.params[0]),
        "slope": float(res.params[1]),
        "se": float(res.bse[1]),
        "ci": [float(ci[1][0]), float(ci[1][1])],
        "p": float(res.pvalues[1]),
        "df": float(res.df_resid_inference) if hasattr(res, "df_resid_inference") else None,
        "boot_b": b,
        "boot_seed": seed,
        "boot_ci": [float(np.percentile(slopes, 2.5)), float(np.percentile(slopes, 97.5))],
    }


def main():
    rs = np.random.RandomState(20261206)
    cases = []
    for name, items, levels, slope, base, spread in [
        ("30 items, 5 levels, slope 0.4", 30, [0, 0.25, 0.5, 0.75, 1], 0.4, 0.05, 0.05),
        ("12 items, 3 levels, no trend", 12, [0.25, 0.5, 0.75], 0.0, 0.2, 0.1),
        ("8 items, 5 levels, slope 0.6, strong item effects", 8, [0, 0.25, 0.5, 0.75, 1], 0.6, 0.0, 0.2),
    ]:
        obs = draw(rs, items, levels, slope, base, spread)
        cases.append({"name": name, "observations": obs, **reference(obs, 500, 7)})
    OUT.write_text(
        json.dumps(
            {
                "generator": "scripts/gen-trend-fixtures.py",
                "versions": {
                    "python": platform.python_version(),
                    "numpy": np.__version__,
                    "statsmodels": statsmodels.__version__,
                },
                "cases": cases,
            },
            indent=1,
        )
        + "\n"
    )


main()
