#!/usr/bin/python3
"""Writes test/fixtures/stats/refsens.json: reference values for the reference-sensitivity
statistics in src/shared/stats (paired.ts, agreement.ts).

- cohens_kappa: statsmodels.stats.inter_rater.cohens_kappa (kappa, kappa_low, kappa_upp;
  the large-sample SE of Fleiss, Cohen & Everitt 1969).
- newcombe_paired: Newcombe (1998) method 10 written out here from the paper's formulas with
  statsmodels' Wilson intervals (proportion_confint(method='wilson')) for the margins and the
  paper's corrected phi (ad - bc - n/2 when ad - bc > n/2, 0 when 0 <= ad - bc <= n/2, plain
  when negative; as contingencytables' Newcombe_square_and_add_CI_paired_2x2). statsmodels has
  no paired-difference interval, so this is a re-implementation, not a library call; the
  published worked examples (Newcombe 1998 Table III, Cavo et al. 2012) are checked in
  test/stats/conformance/paired-difference.test.ts, which is what catches a wrong formula here.

    apt-get install -y python3-scipy python3-statsmodels
    /usr/bin/python3 scripts/gen-refsens-stats-fixtures.py
"""

import json
import math
import platform
from pathlib import Path

import numpy as np
import statsmodels
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.proportion import proportion_confint

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "refsens.json"


def newcombe10(a, b, c, d):
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = proportion_confint(a + b, n, alpha=0.05, method="wilson")
    l2, u2 = proportion_confint(a + c, n, alpha=0.05, method="wilson")
    den = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    corrected = cross - n / 2 if cross > n / 2 else (0.0 if cross >= 0 else cross)
    phi = 0.0 if den == 0 else corrected / math.sqrt(den)
    dl = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    du = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return [max(-1.0, p1 - p2 - dl), min(1.0, p1 - p2 + du)]


PAIRED = [
    (10, 5, 1, 4),
    (40, 12, 3, 45),
    (0, 0, 0, 7),
    (7, 0, 0, 0),
    (3, 9, 0, 0),
    (0, 5, 5, 0),
    (120, 30, 6, 44),
    (1, 1, 1, 1),
    (48, 2, 0, 0),
    (5, 20, 30, 45),
]

TABLES = [
    [[20, 5], [10, 15]],
    [[45, 15], [25, 15]],
    [[10, 0], [0, 10]],
    [[3, 7], [6, 4]],
    [[50, 3], [2, 45]],
    [[30, 10, 2], [5, 20, 5], [1, 4, 23]],
]


def main():
    out = {
        "generator": "scripts/gen-refsens-stats-fixtures.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "newcombe_paired": [
            {"a": a, "b": b, "c": c, "d": d, "ci": newcombe10(a, b, c, d)} for (a, b, c, d) in PAIRED
        ],
        "cohens_kappa": [],
    }
    for t in TABLES:
        r = cohens_kappa(np.array(t, dtype=float))
        out["cohens_kappa"].append(
            {"table": t, "kappa": float(r.kappa), "ci": [float(r.kappa_low), float(r.kappa_upp)]}
        )
    OUT.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
