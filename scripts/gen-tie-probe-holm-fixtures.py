#!/usr/bin/python3
"""Writes test/fixtures/stats/tie-probe-holm.json: reference values for the Judge-LS tie-probe
table's tests from independent implementations.

- Per judge: the exact two-sided binomial test of EN wins against ZH wins among non-tie probes,
  at 1/2: scipy.stats.binomtest(en, en + zh, 0.5).pvalue.
- Across the table's judges: statsmodels.stats.multitest.multipletests(method='holm').

Run with Debian's Python, which has the packages:
    apt-get install -y python3-scipy python3-statsmodels
    /usr/bin/python3 scripts/gen-tie-probe-holm-fixtures.py
"""

import json
import platform
from pathlib import Path

import scipy
import statsmodels
from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "tie-probe-holm.json"

# Each case: one table; each judge (en wins, zh wins, ties). Chosen so the step-down's running
# maximum matters (case "monotone"), the cap at 1 is reached ("cap"), and a judge without a
# non-tie probe (p = 1) takes part ("all ties").
CASES = {
    "three judges": [(30, 12, 18), (20, 21, 19), (25, 14, 21)],
    "monotone": [(16, 6, 2), (15, 6, 3), (40, 20, 0), (9, 9, 6)],
    "cap": [(5, 4, 1), (6, 5, 1), (7, 7, 0)],
    "all ties": [(12, 2, 10), (0, 0, 24), (8, 3, 13)],
    "one judge": [(8, 5, 10)],
}

out = {
    "generator": "scripts/gen-tie-probe-holm-fixtures.py",
    "python": platform.python_version(),
    "scipy": scipy.__version__,
    "statsmodels": statsmodels.__version__,
    "cases": [],
}
for name, judges in CASES.items():
    ps = [binomtest(en, en + zh, 0.5).pvalue if en + zh > 0 else 1.0 for en, zh, _ in judges]
    holm = multipletests(ps, method="holm")[1]
    out["cases"].append(
        {
            "name": name,
            "judges": [
                {"en": en, "zh": zh, "ties": ties, "binomial_p": float(p), "binomial_p_holm": float(h)}
                for (en, zh, ties), p, h in zip(judges, ps, holm)
            ],
        }
    )
OUT.write_text(json.dumps(out, indent=2) + "\n")
print(f"wrote {OUT}")
