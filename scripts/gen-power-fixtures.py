#!/usr/bin/python3
"""Writes test/fixtures/stats/power.json: reference power and sample-size figures for
src/shared/stats/power.ts, from independent implementations.

- paired t: statsmodels.stats.power.TTestPower.power, solved for the effect and for nobs with
  scipy.optimize.brentq at xtol 1e-13 (statsmodels' own solve_power stops near 1e-6);
  it uses scipy.stats.nct, so the noncentral t CDF is checked too (scipy.stats.nct.cdf values).
- Wilcoxon signed-rank via the ARE 3/pi: TTestPower at nobs * 3/pi (and nobs / (3/pi) for the
  inverse), the Noether/Lehmann adjustment written out here.
- Fisher-z interval excluding rho0: statsmodels NormalIndPower(ratio=0).power with effect size
  |atanh(rho1) - atanh(rho0)| and nobs1 = n - 3 (solved with brentq as above).
- exact binomial test and exact McNemar: the rejection region from scipy.stats.binomtest
  (McNemar: statsmodels.stats.contingency_tables.mcnemar(exact=True), on the 2x2 table with the
  discordant cells) and the power summed over scipy.stats.binom.pmf; the inverse by a scan of n
  from 1, the effect by bisection. statsmodels has no exact McNemar power, so this is a
  re-implementation of the definition with library p-values and masses.

    /usr/bin/python3 scripts/gen-power-fixtures.py
"""

import json
import math
import platform
from pathlib import Path

import numpy as np
import scipy
import statsmodels
from scipy import optimize, stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.power import NormalIndPower, TTestPower

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "power.json"
ALPHA, POWER = 0.05, 0.8
ARE = 3 / math.pi

tt = TTestPower()
ni = NormalIndPower()


def solve(f, lo, hi):
    """The x in [lo, hi] with f(x) = POWER, f increasing (brentq, tight tolerance)."""
    return optimize.brentq(lambda x: f(x) - POWER, lo, hi, xtol=1e-13, rtol=1e-14)


def t_power(dz, n):
    return float(tt.power(effect_size=dz, nobs=n, alpha=ALPHA))


def z_power(es, nobs):
    return float(ni.power(es, nobs, ALPHA, ratio=0))


def bisect(f, target, lo, hi, steps=200):
    if f(hi) < target:
        return None
    for _ in range(steps):
        mid = (lo + hi) / 2
        if f(mid) >= target:
            hi = mid
        else:
            lo = mid
        if hi - lo <= 1e-12 * max(1, hi):
            break
    return (lo + hi) / 2


def region(n, p0, alpha=ALPHA):
    """Outcomes the exact two-sided binomial test rejects (scipy binomtest)."""
    return [k for k in range(n + 1) if stats.binomtest(k, n, p0).pvalue <= alpha]


def binom_power(n, p0, p1, alpha=ALPHA):
    rej = region(n, p0, alpha)
    return float(sum(stats.binom.pmf(rej, n, p1))) if rej else 0.0


MC_CACHE = {}


def mcnemar_rejects(d):
    """Smaller-cell counts k (of d discordant pairs) the exact McNemar test rejects."""
    if d not in MC_CACHE:
        MC_CACHE[d] = [
            k for k in range(d + 1) if mcnemar([[0, k], [d - k, 0]], exact=True).pvalue <= ALPHA
        ]
    return MC_CACHE[d]


def mcnemar_power(n, psi, delta):
    pi = (psi + delta) / (2 * psi)
    ds = np.arange(n + 1)
    w = stats.binom.pmf(ds, n, psi)
    total = 0.0
    for d in range(n + 1):
        if w[d] < 1e-17:
            continue
        rej = mcnemar_rejects(d)
        if rej:
            total += w[d] * float(sum(stats.binom.pmf(rej, d, pi)))
    return min(1.0, total)


def first_n(reaches, hi):
    for n in range(1, hi + 1):
        if reaches(n):
            return n
    return None


def main():
    nct = [
        {"t": t, "df": df, "delta": dl, "cdf": float(stats.nct.cdf(t, df, dl))}
        for t, df, dl in [(2.0, 10, 1.0), (1.5, 29, 2.5), (-1.0, 5, 0.5), (2.1, 99.5, 3.2), (0.3, 3, -1.2), (4.0, 200, 6.0)]
    ]
    ttest = []
    for dz, n in [(0.2, 50), (0.5, 20), (0.3, 100), (0.8, 12), (0.1, 400)]:
        ttest.append(
            {
                "dz": dz,
                "n": n,
                "power": float(tt.power(effect_size=dz, nobs=n, alpha=ALPHA)),
                "mde": solve(lambda d: t_power(d, n), 1e-6, 10),
                "n_needed": solve(lambda m: t_power(dz, m), 2, 1e6),
                "wilcoxon_mde": solve(lambda d: t_power(d, n * ARE), 1e-6, 10),
                "wilcoxon_n_needed": solve(lambda m: t_power(dz, m), 2, 1e6) / ARE,
            }
        )
    fisher = []
    for rho1, rho0, n in [(0.9, 0.8, 60), (0.7, 0.8, 120), (0.95, 0.8, 25), (0.85, 0.8, 300)]:
        es = abs(math.atanh(rho1) - math.atanh(rho0))
        nobs = solve(lambda m: z_power(es, m), 1e-9, 1e6)
        es_mde = solve(lambda e: z_power(e, n - 3), 1e-9, 20)
        fisher.append(
            {
                "rho1": rho1,
                "rho0": rho0,
                "n": n,
                "power": float(ni.power(es, n - 3, ALPHA, ratio=0)),
                "n_needed": nobs + 3,
                "mde_up": math.tanh(math.atanh(rho0) + es_mde),
                "mde_down": math.tanh(math.atanh(rho0) - es_mde),
            }
        )
    binom = []
    for n, p0, p1 in [(40, 0.05, 0.2), (100, 0.1, 0.2), (25, 0.5, 0.8), (150, 0.05, 0.02)]:
        up = p1 > p0
        mde = bisect(
            lambda d: binom_power(n, p0, p0 + d if up else p0 - d), POWER, 0, (1 - p0) if up else p0, steps=60
        )
        binom.append(
            {
                "n": n,
                "p0": p0,
                "p1": p1,
                "power": binom_power(n, p0, p1),
                "mde": None if mde is None else (p0 + mde if up else p0 - mde),
                "direction": "up" if up else "down",
                "n_needed": first_n(lambda m: binom_power(m, p0, p1) >= POWER, 2000) if p0 != 0.05 or p1 != 0.02 else None,
            }
        )
    mc = []
    for n, psi, delta in [(60, 0.3, 0.15), (200, 0.2, 0.06), (30, 0.5, -0.3), (120, 0.1, 0.05)]:
        mde = bisect(lambda d: mcnemar_power(n, psi, d), POWER, 0, psi, steps=60)
        mc.append(
            {
                "n": n,
                "psi": psi,
                "delta": delta,
                "power": mcnemar_power(n, psi, delta),
                "mde": mde,
                "n_needed": first_n(lambda m: mcnemar_power(m, psi, delta) >= POWER, 3000),
            }
        )
    out = {
        "generated_by": "scripts/gen-power-fixtures.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "alpha": ALPHA,
        "power": POWER,
        "noncentral_t": nct,
        "paired_t": ttest,
        "fisher_z": fisher,
        "exact_binomial": binom,
        "mcnemar_exact": mc,
    }
    OUT.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
