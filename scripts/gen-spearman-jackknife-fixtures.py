#!/usr/bin/python3
"""Writes test/fixtures/stats/spearman-jackknife.json: reference values for spearmanInterval's
jackknife Fisher-z interval (src/shared/stats/correlation.ts) from an independent computation.

- rho: scipy.stats.spearmanr on all items.
- Each leave-one-out rho: scipy.stats.spearmanr with the item deleted (ranks recomputed from the
  values, not shifted as the app does), z_i = numpy.arctanh.
- se = sqrt((n - 1)/n * sum((z_i - mean z)^2)) (Quenouille-Tukey jackknife; Efron & Tibshirani
  1993, eq. 11.5), the interval tanh(atanh(rho) +- scipy.stats.t.ppf(0.975, n - 1) * se).
- Undefined cases carry the reason the app gives.

The ratings are drawn here with numpy (seeded) as 1-5 scores that are either a shared true score or
a uniform random one (the e2e judge-human law), plus a bivariate normal set, and stored in the
fixture. Run:  /usr/bin/python3 scripts/gen-spearman-jackknife-fixtures.py
"""

import json
import platform
from pathlib import Path

import numpy as np
import scipy
from scipy import stats

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "spearman-jackknife.json"


def rho_of(x, y):
    if np.all(x == x[0]) or np.all(y == y[0]):
        return None
    return float(stats.spearmanr(x, y).statistic)


def case(name, x, y, confidence=0.95):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(x)
    out = {"name": name, "x": x.tolist(), "y": y.tolist(), "confidence": confidence}
    r = rho_of(x, y)
    out["rho"] = r
    if r is None:
        return {**out, "ci": None, "reason": "one side constant"}
    if n < 4:
        return {**out, "ci": None, "reason": "fewer than 4 items"}
    if abs(r) >= 1 - 1e-12:
        return {**out, "ci": None, "reason": "ρ = ±1"}
    zs = []
    for i in range(n):
        keep = np.arange(n) != i
        ri = rho_of(x[keep], y[keep])
        if ri is None or abs(ri) >= 1 - 1e-12:
            return {**out, "ci": None, "reason": "ρ = ±1 without one item"}
        zs.append(np.arctanh(ri))
    zs = np.array(zs)
    se = float(np.sqrt((n - 1) / n * np.sum((zs - zs.mean()) ** 2)))
    if se < 1e-9:
        return {**out, "ci": None, "reason": "ρ the same without any one item"}
    q = float(stats.t.ppf(1 - (1 - confidence) / 2, n - 1))
    z = np.arctanh(r)
    return {**out, "se": se, "ci": [float(np.tanh(z - q * se)), float(np.tanh(z + q * se))]}


def agree_or_random(rng, n, judge_noise, human_noise):
    q = rng.integers(1, 6, n)
    judge = np.where(rng.random(n) < judge_noise, rng.integers(1, 6, n), q)
    people = np.stack([np.where(rng.random(n) < human_noise, rng.integers(1, 6, n), q) for _ in range(3)])
    return judge, np.median(people, axis=0)


def main():
    rng = np.random.default_rng(20261206)
    cases = []
    for n, j, h in [(30, 0.3, 0.3), (74, 0.05, 0.2), (60, 0.15, 0.2), (12, 0.3, 0.3), (200, 1.0, 0.3)]:
        x, y = agree_or_random(rng, n, j, h)
        cases.append(case(f"1-5 ratings, judge noise {j}, people {h}, n {n}", x, y))
    xy = rng.multivariate_normal([0, 0], [[1, 0.8], [0.8, 1]], 40)
    cases.append(case("bivariate normal r 0.8, n 40", xy[:, 0], xy[:, 1]))
    cases.append(case("90 % interval, bivariate normal r 0.8, n 40", xy[:, 0], xy[:, 1], 0.9))
    cases.append(case("negative: reversed 1-5 ratings, n 30", 6 - np.array(cases[0]["x"]), cases[0]["y"]))
    # One item alone breaks perfect agreement: without it rho is 1, the jackknife has no spread.
    cases.append(case("one discordant item", [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 6, 5]))
    cases.append(case("every leave-one-out rho equal", [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5]))
    cases.append(case("perfect agreement", [1, 2, 3, 4, 5], [2, 4, 6, 8, 10]))
    cases.append(case("constant side", [3, 3, 3, 3, 3], [1, 2, 3, 4, 5]))
    cases.append(case("three items", [1, 2, 3], [1, 3, 2]))
    OUT.write_text(
        json.dumps(
            {
                "generator": "scripts/gen-spearman-jackknife-fixtures.py",
                "python": platform.python_version(),
                "numpy": np.__version__,
                "scipy": scipy.__version__,
                "cases": cases,
            },
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )


main()
