#!/usr/bin/python3
# Reference values for the noise floor's test (test/fixtures/stats/noise-floor.json): exact
# McNemar on the discordant pairs of "flipped under the change" vs "flipped under repetition"
# (statsmodels' mcnemar(exact=True)) and Holm across the rows (multipletests(method='holm')).
# Each table is [a, b, c, d]: a both flipped, b change only, c repeat only, d neither.
import json
import statsmodels
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

TABLES = [[3, 11, 2, 34], [1, 4, 4, 41], [0, 9, 0, 21], [2, 0, 6, 12], [5, 17, 9, 69]]

rows = []
for a, b, c, d in TABLES:
    r = mcnemar([[a, b], [c, d]], exact=True)
    rows.append({"table": [a, b, c, d], "mcnemar_p": float(r.pvalue)})
holm = multipletests([r["mcnemar_p"] for r in rows], method="holm")[1]
for r, h in zip(rows, holm):
    r["holm_p"] = float(h)
print(json.dumps({"source": f"statsmodels {statsmodels.__version__}", "rows": rows}, indent=2))
