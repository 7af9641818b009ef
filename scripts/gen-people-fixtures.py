"""Reference values for the judge-and-people estimators (issue 36), written to
test/fixtures/stats/people-estimators.json. Independent of the TypeScript code:

- PPI / PPI++: the closed forms of Angelopoulos et al. (Science 2023) and Angelopoulos, Duchi & Zrnic
  (2023) computed with numpy on seeded data (lambda as in ppi_py's _calc_lhat_glm for the mean);
  with a range [0, 1], the small-sample interval: the rectifier's mean and variance with half an
  Agresti-Min pseudo-label at each corner (y, f) of the unit square, and scipy's t quantile with
  n - 1 degrees of freedom.
- Label budget: the first n meeting the PPI++ variance at the optimal lambda, by brute force.
- Rogan–Gladen: (p + q0 - 1)/(q0 + q1 - 1) with the delta-method variance over the test and the
  calibration binomials (Lee et al. 2025, arXiv:2511.21140), computed with numpy / scipy.

The alternative annotator test has no fixture here: test/stats/people-estimators.test.ts checks it
on seeded synthetic annotations against SciPy/statsmodels at test time, from the paper's definitions.

Usage: python3 scripts/gen-people-fixtures.py
(numpy and scipy needed; the fixture is committed so the tests need no Python.)
"""
import json
import numpy as np
import scipy
from scipy.stats import norm
from scipy.stats import t as t_dist

rng = np.random.default_rng(20230607)
ppi = []
for n, N, acc in [(50, 1000, 0.85), (200, 5000, 0.7), (30, 300, 0.95)]:
    Y = (rng.random(n + N) < 0.6).astype(float)
    flip = rng.random(n + N) > acc
    f = np.where(flip, 1 - Y, Y)
    f = np.where(rng.random(n + N) < 0.1, 1.0, f)  # a judge leaning positive
    y, fl, fu = Y[:n], f[:n], f[n:]
    z = norm.ppf(0.975)
    def ppi_at(lam):
        r = y - lam * fl
        est = lam * fu.mean() + r.mean()
        var = lam ** 2 * fu.var(ddof=1) / N + r.var(ddof=1) / n
        return est, np.sqrt(var)
    allf = np.concatenate([fl, fu])
    lam = np.cov(y, fl, ddof=1)[0, 1] / ((1 + n / N) * allf.var(ddof=1))
    lam = float(min(1, max(0, lam)))
    e1, s1 = ppi_at(1.0)
    e2, s2 = ppi_at(lam)
    def small_sample(lam):
        r = y - lam * fl
        corners = np.array([0.0, -lam, 1.0, 1.0 - lam])
        vals = np.concatenate([r, corners])
        w = np.concatenate([np.ones(n), np.full(4, 0.5)])
        m = np.sum(w * vals) / (n + 2)
        vr = np.sum(w * (vals - m) ** 2) / (n + 1)
        se = float(np.sqrt(lam ** 2 * fu.var(ddof=1) / N + vr / (n + 2)))
        c = lam * fu.mean() + m
        q = t_dist.ppf(0.975, n - 1)
        return {'se': se, 'center': float(c), 'ci': [max(0.0, c - q * se), min(1.0, c + q * se)]}
    ppi.append({'y': y.tolist(), 'f_labelled': fl.tolist(), 'f_unlabelled': fu.tolist(),
                'ppi': {'estimate': e1, 'se': s1, 'ci': [e1 - z * s1, e1 + z * s1], 'n_eff': y.var(ddof=1) / s1 ** 2},
                'ppipp': {'estimate': e2, 'se': s2, 'lambda': lam, 'ci': [e2 - z * s2, e2 + z * s2], 'n_eff': y.var(ddof=1) / s2 ** 2},
                'ppi_small_sample': small_sample(1.0), 'ppipp_small_sample': small_sample(lam),
                'human_only': {'estimate': y.mean(), 'se': y.std(ddof=1) / np.sqrt(n)}})

rg = []
for (tp, m1, tn, m0, pos, N) in [(45, 50, 40, 50, 600, 1000), (90, 100, 170, 200, 3000, 5000), (18, 20, 25, 30, 80, 100)]:
    p, q1, q0 = pos / N, tp / m1, tn / m0
    j = q0 + q1 - 1
    th = (p + q0 - 1) / j
    var = (p * (1 - p) / N + (1 - th) ** 2 * q0 * (1 - q0) / m0 + th ** 2 * q1 * (1 - q1) / m1) / j ** 2
    se = float(np.sqrt(var))
    z = norm.ppf(0.975)
    rg.append({'tp': tp, 'm1': m1, 'tn': tn, 'm0': m0, 'positives': pos, 'N': N,
               'estimate': th, 'se': se, 'ci': [th - z * se, th + z * se]})

# Label budget: the first n (brute force) with p(1-p)/n * (1 - rho^2/(1 + n/N)) <= (width / 2z)^2.
import math
budget = []
zq = norm.ppf(0.975)
for (w, rho, N, p) in [(0.1, 0.6, 1000, 0.5), (0.1, 0.8, 10000, 0.5), (0.2, 0.5, 150, 0.5), (0.05, 0.9, 0, 0.5),
                       (0.1, 0.0, 500, 0.5), (0.08, 0.7, 2000, 0.2)]:
    s2, h = p * (1 - p), (w / 2 / zq) ** 2
    ho = max(2, math.ceil(s2 / h))
    n = next(n for n in range(1, ho + 1) if s2 / n * ((1 - rho ** 2 / (1 + n / N)) if N > 0 else 1) <= h)
    budget.append({'width': w, 'rho': rho, 'unlabelled': N, 'rate': p, 'ppi_plus_plus': max(2, n), 'human_only': ho})

out = {'versions': {'numpy': np.__version__, 'scipy': scipy.__version__},
       'ppi': ppi, 'rogan_gladen': rg, 'label_budget': budget}
with open('test/fixtures/stats/people-estimators.json', 'w') as f:
    json.dump(out, f, indent=1)
print(json.dumps(rg))
