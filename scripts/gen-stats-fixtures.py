#!/usr/bin/python3
"""Writes test/fixtures/stats/reference.json: reference values for src/shared/stats from independent
implementations (scipy.stats.binomtest and binom.pmf, statsmodels proportion_confint(method='wilson'),
numpy mean/std with scipy.stats.norm quantiles), plus a few large-n p-values summed at 60 significant
digits with mpmath (SciPy's own p-values are off by up to ~2e-12 relative at n = 100,000, so these
check our precision more tightly than SciPy can).

Run with Debian's Python, which has the packages:
    apt-get install -y python3-scipy python3-statsmodels
    /usr/bin/python3 scripts/gen-stats-fixtures.py

Cases where the libraries define nothing (n = 0, McNemar with b = c = 0) are left to the test, which
asserts our documented conventions for them.
"""

import json
import math
import platform
import warnings
from pathlib import Path

import mpmath
import numpy as np
import scipy
import scipy.stats as st
import statsmodels
from statsmodels.stats.proportion import proportion_confint

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "reference.json"
Z_99 = float(st.norm.isf(0.005))


def binomtest_cases():
    grid = set()
    for p in (0.5, 0.1, 0.9):
        grid.update((k, 1, p) for k in (0, 1))
    for p in (0.5, 0.1, 0.9, 0.7):  # 0.7 * 10 rounds above 7, as SciPy's side test sees it
        grid.update((k, 10, p) for k in range(11))
    grid.update((k, 7, 0.5) for k in range(8))  # odd n: two equally likely modes
    grid.update((k, 20, 0.3) for k in (0, 2, 3, 6, 9, 10, 14, 20))
    grid.update(((1, 3, 1 / 3), (7, 30, 1 / 3), (10, 30, 1 / 3), (13, 30, 1 / 3)))
    # degenerate probabilities
    grid.update(((0, 5, 0.0), (3, 5, 0.0), (5, 5, 1.0), (2, 5, 1.0), (0, 1, 0.0), (1, 1, 1.0)))
    grid.update((k, 100, 0.5) for k in (0, 1, 10, 30, 40, 45, 50, 55, 60, 70, 90, 99, 100))
    grid.update((k, 100, 0.1) for k in (0, 5, 10, 15, 20, 100))
    grid.update((k, 100, 0.9) for k in (80, 85, 90, 95, 100))
    grid.update((k, 1000, 0.5) for k in (450, 480, 500, 520, 531, 600))
    grid.update((k, 1000, 0.1) for k in (80, 100, 120))
    grid.update((k, 10_000, 0.5) for k in (0, 4800, 4900, 4950, 5000, 5050, 5100, 6000, 10_000))
    grid.update((k, 10_000, 0.1) for k in (950, 1000, 1050, 1200))
    grid.update((k, 10_000, 0.9) for k in (8950, 9000, 9100))
    # 43_000 of 100_000 is 0 in SciPy too (below the smallest double)
    grid.update((k, 100_000, 0.5) for k in (43_000, 45_000, 49_500, 49_700, 49_800, 49_900, 50_000, 50_100, 50_400, 55_000))
    grid.update((k, 100_000, 0.1) for k in (9800, 10_000, 10_100, 10_500))
    grid.update((k, 100_000, 0.9) for k in (89_900, 90_000, 90_300))
    grid.update((k, 1_000_000, 0.5) for k in (499_000, 500_000, 500_500, 503_000))
    cases = []
    for k, n, p in sorted(grid, key=lambda c: (c[1], c[2], c[0])):
        pvalue = float(st.binomtest(k, n, p, alternative="two-sided").pvalue)
        cases.append({"k": k, "n": n, "p": p, "pvalue": pvalue})
    return cases


def binomtest_exact_cases():
    """The two-sided p-value by its definition, in 60-digit arithmetic on the same double p."""
    mpmath.mp.dps = 60
    grid = [
        (17, 40, 0.3), (320, 1000, 1 / 3), (4900, 10_000, 0.5), (1200, 10_000, 0.1), (9800, 100_000, 0.1),
        (10_500, 100_000, 0.1), (45_000, 100_000, 0.5), (49_900, 100_000, 0.5), (90_300, 100_000, 0.9),
    ]
    cases = []
    for k, n, p in sorted(grid, key=lambda c: (c[1], c[2], c[0])):
        prob, comp = mpmath.mpf(p), 1 - mpmath.mpf(p)
        pmf = [comp**n]
        for i in range(n):  # pmf(i + 1) = pmf(i) (n - i) p / ((i + 1) q), exact to 60 digits
            pmf.append(pmf[-1] * (n - i) * prob / ((i + 1) * comp))
        threshold = pmf[k] * (1 + mpmath.mpf(1e-7))
        pvalue = mpmath.fsum(x for x in pmf if x <= threshold)
        cases.append({"k": k, "n": n, "p": p, "pvalue": float(min(pvalue, 1))})
    return cases


def pmf_cases():
    grid = [
        (0, 0, 0.5), (0, 1, 0.5), (1, 1, 0.5), (3, 10, 0.5), (0, 10, 0.1), (10, 10, 0.1), (2, 10, 0.9),
        (0, 5, 0.0), (5, 5, 1.0), (3, 5, 0.0), (0, 20, 1e-9), (20, 20, 1 - 1e-9), (1, 20, 1e-9),
        (17, 40, 0.3), (5000, 10_000, 0.5), (1000, 10_000, 0.1), (9500, 10_000, 0.9), (0, 10_000, 0.5),
        (50_000, 100_000, 0.5), (45_000, 100_000, 0.5), (10_000, 100_000, 0.1), (1, 1000, 0.3),
        (500_000, 1_000_000, 0.5), (333_000, 1_000_000, 1 / 3), (100_500, 1_000_000, 0.1),
    ]
    return [{"k": k, "n": n, "p": p, "pmf": float(st.binom.pmf(k, n, p))} for k, n, p in sorted(grid, key=lambda c: (c[1], c[2], c[0]))]


def mcnemar_cases():
    pairs = [(0, 5), (5, 0), (0, 1), (1, 5), (3, 7), (2, 8), (10, 10), (12, 2), (20, 40), (50, 30), (100, 130), (400, 350)]
    return [{"b": b, "c": c, "pvalue": float(st.binomtest(b, b + c, 0.5).pvalue)} for b, c in sorted(pairs)]


def wilson_cases():
    pairs = [
        (0, 1), (1, 1), (2, 5), (3, 7), (0, 10), (8, 10), (10, 10), (1, 100), (50, 100), (99, 100),
        (0, 10_000), (37, 10_000), (5000, 10_000), (9990, 10_000), (1, 100_000), (50_000, 100_000), (99_999, 100_000),
    ]
    cases = []
    for k, n in sorted(pairs, key=lambda c: (c[1], c[0])):
        lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        cases.append({"k": k, "n": n, "z": None, "ci": [float(lo), float(hi)]})
    for k, n in ((0, 10), (8, 10), (10, 10), (37, 10_000)):
        lo, hi = proportion_confint(k, n, alpha=0.01, method="wilson")
        cases.append({"k": k, "n": n, "z": Z_99, "ci": [float(lo), float(hi)]})
    return cases


def mean_cases():
    rng = np.random.default_rng(20240611)
    scores = lambda size, probs: [float(x) for x in rng.choice([0.0, 0.5, 1.0], size=size, p=probs)]
    named = [
        ("single", [0.5], None, None),
        ("constant", [0.5, 0.5, 0.5], None, None),
        ("small-mixed", [1, 0, 0.5, 1, 1, 0, 0.5, 1, 1, 1], None, None),
        ("clips-upper", [1, 1, 1, 1, 0.5], None, None),
        ("clips-lower", [0, 0, 0, 0, 0.5], None, None),
        ("two", [0, 1], None, None),
        ("tie-half-60", scores(60, [0.3, 0.2, 0.5]), None, None),
        ("tie-half-200", scores(200, [0.15, 0.1, 0.75]), None, None),
        ("tie-half-200-z99", scores(200, [0.4, 0.2, 0.4]), Z_99, None),
        ("signed-bounds", [float(x) for x in np.round(rng.uniform(-1, 1, size=25), 3)], None, [-1.0, 1.0]),
        ("wide-bounds", [0.2, 0.9, 0.4, 0.75], None, [-10.0, 10.0]),
    ]
    cases = []
    for name, values, z, bounds in sorted(named, key=lambda c: c[0]):
        arr = np.asarray(values, dtype=float)
        crit = float(st.norm.ppf(0.975)) if z is None else z
        lo_b, hi_b = (0.0, 1.0) if bounds is None else bounds
        m = float(arr.mean())
        if arr.size == 1:
            lo = hi = m
        else:
            half = crit * float(arr.std(ddof=1)) / math.sqrt(arr.size)
            lo, hi = m - half, m + half
        ci = [float(np.clip(lo, lo_b, hi_b)), float(np.clip(hi, lo_b, hi_b))]
        cases.append({"name": name, "values": [float(v) for v in values], "z": z, "bounds": bounds, "ci": ci})
    return cases


def dump(document):
    """JSON with one case per line, so regenerating gives reviewable diffs."""
    lines = ["{"]
    keys = list(document)
    for i, key in enumerate(keys):
        value = document[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list):
            lines.append(f"  {json.dumps(key)}: [")
            lines.extend(
                "    " + json.dumps(case, sort_keys=True, allow_nan=False) + ("," if j < len(value) - 1 else "")
                for j, case in enumerate(value)
            )
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True, allow_nan=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    warnings.simplefilter("error")  # a library warning means a case is ill-defined: fail loudly
    document = {
        "generator": "scripts/gen-stats-fixtures.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
            "mpmath": mpmath.__version__,
        },
        "z95": float(st.norm.ppf(0.975)),
        "binomtest": binomtest_cases(),
        "binomtestExact": binomtest_exact_cases(),
        "binomPmf": pmf_cases(),
        "mcnemar": mcnemar_cases(),
        "wilson": wilson_cases(),
        "meanNormal": mean_cases(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(dump(document), encoding="utf-8")
    counts = {k: len(v) for k, v in document.items() if isinstance(v, list)}
    print(f"wrote {OUT} ({sum(counts.values())} cases: {counts})")


if __name__ == "__main__":
    main()
