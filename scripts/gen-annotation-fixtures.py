#!/usr/bin/python3
"""Writes test/fixtures/annotation/stats.json: reference values for the human-rating statistics
in src/shared/stats, computed by independent implementations:

- scipy.stats: pearsonr, spearmanr, kendalltau (tau-b), f.ppf, norm.ppf; the Fisher-z interval
  of Spearman's rho is written out here with numpy.arctanh/tanh and norm.ppf.
- scikit-learn: cohen_kappa_score (weights None and "quadratic"), IsotonicRegression
  (out_of_bounds="clip"), also inside the k-fold cross-validation below.
- statsmodels: cohens_kappa (the Fleiss-Cohen-Everitt interval, unweighted and quadratic),
  fleiss_kappa.
- R: psych::ICC ("Single_random_raters" = ICC2 with its lower/upper bound), run through Rscript.
- Krippendorff's alpha: Debian ships no package for it (no r-cran-irr, no python3-krippendorff),
  so it is written out below by pair enumeration (observed and expected disagreement summed over
  ordered value pairs, Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"), a different
  route from the coincidence matrix the TypeScript code builds; the first set is that paper's
  4-coder x 12-unit example, whose published values are nominal 0.743 and ordinal 0.815.

    apt-get install -y python3-scipy python3-sklearn python3-statsmodels r-cran-psych
    /usr/bin/python3 scripts/gen-annotation-fixtures.py
"""

import json
import platform
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import scipy
import sklearn
import statsmodels
from scipy import stats
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa

OUT = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "annotation" / "stats.json"
rng = np.random.default_rng(20261130)


def fl(v):
    return None if v is None or (isinstance(v, float) and np.isnan(v)) else float(v)


# --- correlations -----------------------------------------------------------------------------
corr_sets = []
for n, kind in [(10, "int"), (30, "int"), (50, "cont"), (200, "int"), (8, "cont"), (120, "int")]:
    if kind == "int":
        h = rng.integers(1, 6, n)
        j = np.clip(h + rng.integers(-2, 3, n), 1, 5)
    else:
        h = rng.normal(3, 1, n)
        j = h * 0.6 + rng.normal(0, 0.8, n)
    corr_sets.append((j.tolist(), h.tolist()))
corr_sets.append(([1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5]))
correlations = []
for x, y in corr_sets:
    rho = stats.spearmanr(x, y).statistic
    n = len(x)
    z = np.arctanh(rho)
    # Jackknife SE of atanh rho over leave-one-out items (spearmanr recomputed on each), t on n - 1
    # df (Efron & Tibshirani 1993, ch. 11); scripts/gen-spearman-jackknife-fixtures.py has the edge cases.
    zs = np.array([np.arctanh(stats.spearmanr(np.delete(x, i), np.delete(y, i)).statistic) for i in range(n)])
    half = stats.t.ppf(0.975, n - 1) * np.sqrt((n - 1) / n * np.sum((zs - zs.mean()) ** 2))
    correlations.append(
        {
            "x": x,
            "y": y,
            "pearson": fl(stats.pearsonr(x, y).statistic),
            "spearman": fl(rho),
            # Every leave-one-out rho equal (the last set): no spread, the app says undefined.
            "spearman_ci": None if half < 1e-9 else [fl(np.tanh(z - half)), fl(np.tanh(z + half))],
            "kendall_tau_b": fl(stats.kendalltau(x, y).statistic),
        }
    )

# --- Cohen's kappa ----------------------------------------------------------------------------
kappas = []
for n, cats, weights in [
    (40, [1, 2, 3, 4, 5], "quadratic"),
    (200, [1, 2, 3, 4, 5], "quadratic"),
    (30, list(range(1, 11)), "quadratic"),
    (60, [1, 2, 3], "quadratic"),
    (50, ["A", "B", "tie"], None),
    (100, ["CORRECT", "INCORRECT"], None),
    (25, [1, 2, 3, 4, 5], None),
]:
    a = rng.choice(len(cats), n)
    b = np.where(rng.random(n) < 0.6, a, rng.choice(len(cats), n))
    if weights == "quadratic":
        b = np.clip(np.where(rng.random(n) < 0.5, a + rng.integers(-1, 2, n), b), 0, len(cats) - 1)
    la = [cats[i] for i in a]
    lb = [cats[i] for i in b]
    table = np.zeros((len(cats), len(cats)))
    for i, j in zip(a, b):
        table[i, j] += 1
    res = cohens_kappa(table, wt="quadratic" if weights else None)
    kappas.append(
        {
            "a": la,
            "b": lb,
            "categories": cats,
            "weights": weights or "none",
            "kappa": fl(cohen_kappa_score(la, lb, labels=cats, weights=weights)),
            "ci": [fl(res["kappa_low"]), fl(res["kappa_upp"])],
            "statsmodels_kappa": fl(res["kappa"]),
        }
    )


# --- R: psych::ICC and irr::kripp.alpha -------------------------------------------------------
def run_r(script):
    with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as f:
        f.write(script)
    return subprocess.run(["Rscript", f.name], capture_output=True, text=True, check=True).stdout


icc_sets = []
for n, k, noise in [(30, 2, 0.7), (30, 3, 1.0), (10, 4, 0.5), (50, 2, 1.5), (200, 3, 0.8), (6, 2, 0.3)]:
    truth = rng.integers(1, 6, n)
    m = np.clip(truth[:, None] + np.round(rng.normal(0, noise, (n, k))) + rng.integers(0, 2, k), 1, 6)
    icc_sets.append(m.astype(int).tolist())
icc_sets.append([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])

alpha_sets = []
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 coders x 12 units.
kripp_example = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
alpha_sets.append([list(u) for u in zip(*kripp_example)])  # units x coders
for n, k, p_missing in [(30, 3, 0.1), (50, 2, 0.0), (40, 5, 0.3)]:
    truth = rng.integers(1, 6, n)
    m = np.clip(truth[:, None] + rng.integers(-1, 2, (n, k)), 1, 5).astype(object)
    m[rng.random((n, k)) < p_missing] = None
    alpha_sets.append(m.tolist())


def r_matrix(rows):
    flat = ",".join("NA" if v is None else str(v) for row in rows for v in row)
    return f"matrix(c({flat}), nrow={len(rows)}, byrow=TRUE)"


script = "suppressMessages({library(psych); library(jsonlite)})\nout <- list(icc=list())\n"
for i, m in enumerate(icc_sets):
    script += f"r <- ICC({r_matrix(m)}, lmer=FALSE)$results; row <- r[r$type=='ICC2',]\n"
    script += f"out$icc[[{i + 1}]] <- c(row$ICC, row$`lower bound`, row$`upper bound`)\n"
script += "cat(toJSON(out, digits=NA))\n"
r_out = json.loads(run_r(script))
r_versions = run_r(
    "cat(R.version.string, '| psych', as.character(packageVersion('psych')))"
)

icc = [
    {"matrix": m, "icc": fl(v[0]), "ci": [fl(v[1]), fl(v[2])]} for m, v in zip(icc_sets, r_out["icc"])
]


def kripp_alpha(units, level):
    pairable = [[v for v in u if v is not None] for u in units]
    pairable = [u for u in pairable if len(u) >= 2]
    values = [v for u in pairable for v in u]
    n = len(values)
    cats = sorted(set(values))
    freq = {c: values.count(c) for c in cats}

    def d2(a, b):
        if level == "nominal":
            return 0.0 if a == b else 1.0
        lo, hi = sorted((cats.index(a), cats.index(b)))
        s = sum(freq[cats[g]] for g in range(lo, hi + 1))
        return (s - (freq[cats[lo]] + freq[cats[hi]]) / 2) ** 2

    observed = 0.0
    for u in pairable:
        m = len(u)
        for i in range(m):
            for j in range(m):
                if i != j:
                    observed += d2(u[i], u[j]) / (m - 1)
    observed /= n
    expected = 0.0
    for i in range(n):
        for j in range(n):
            if i != j:
                expected += d2(values[i], values[j])
    expected /= n * (n - 1)
    return 1 - observed / expected


alphas = [{"units": m, "nominal": kripp_alpha(m, "nominal"), "ordinal": kripp_alpha(m, "ordinal")} for m in alpha_sets]
assert round(alphas[0]["nominal"], 3) == 0.743, alphas[0]


# --- Fleiss' kappa ----------------------------------------------------------------------------
fleiss = []
for n, m, k in [(30, 3, 3), (50, 5, 2), (20, 4, 5)]:
    truth = rng.integers(0, k, n)
    ratings = np.where(rng.random((n, m)) < 0.7, truth[:, None], rng.integers(0, k, (n, m)))
    counts = np.stack([(ratings == c).sum(axis=1) for c in range(k)], axis=1)
    fleiss.append({"counts": counts.tolist(), "kappa": fl(fleiss_kappa(counts, method="fleiss"))})

# --- isotonic, linear, cross-validation -------------------------------------------------------
iso = []
for n, kind in [(40, "int"), (100, "cont"), (15, "int")]:
    x = rng.integers(1, 11, n) if kind == "int" else rng.normal(0, 1, n)
    y = np.clip(np.round(x * 0.4 + rng.normal(1, 1, n)), 1, 5) if kind == "int" else x + rng.normal(0, 1, n)
    model = IsotonicRegression(out_of_bounds="clip").fit(x, y)
    query = np.linspace(float(np.min(x)) - 1, float(np.max(x)) + 1, 23)
    slope, intercept = np.polyfit(x, y, 1)
    iso.append(
        {
            "x": x.tolist(),
            "y": y.tolist(),
            "query": query.tolist(),
            "isotonic": model.predict(query).tolist(),
            "fitted": model.predict(x).tolist(),
            "slope": float(slope),
            "intercept": float(intercept),
        }
    )

cv = []
for n, k in [(60, 5), (100, 10), (24, 3)]:
    x = rng.integers(1, 6, n).astype(float)
    y = np.clip(np.round(x * 0.7 + rng.normal(1, 0.8, n)), 1, 5)
    folds = (np.arange(n) % k)[rng.permutation(n)]
    iso_pred = np.zeros(n)
    lin_pred = np.zeros(n)
    for f in range(k):
        tr, te = folds != f, folds == f
        iso_pred[te] = IsotonicRegression(out_of_bounds="clip").fit(x[tr], y[tr]).predict(x[te])
        s, b = np.polyfit(x[tr], y[tr], 1)
        lin_pred[te] = b + s * x[te]
    cv.append(
        {
            "x": x.tolist(),
            "y": y.tolist(),
            "folds": folds.tolist(),
            "mae_before": float(np.mean(np.abs(x - y))),
            "mae_isotonic": float(np.mean(np.abs(iso_pred - y))),
            "mae_linear": float(np.mean(np.abs(lin_pred - y))),
            "rho_before": fl(stats.spearmanr(x, y).statistic),
            "rho_isotonic": fl(stats.spearmanr(iso_pred, y).statistic),
            "rho_linear": fl(stats.spearmanr(lin_pred, y).statistic),
        }
    )

distributions = {
    "f_ppf": [
        {"p": p, "d1": a, "d2": b, "q": float(stats.f.ppf(p, a, b))}
        for p, a, b in [(0.975, 29, 31.7), (0.975, 4.2, 9), (0.95, 1, 1), (0.975, 199, 350.5), (0.5, 3, 7), (0.025, 10, 2.5)]
    ],
    "norm_ppf": [{"p": p, "q": float(stats.norm.ppf(p))} for p in [0.975, 0.5, 0.001, 1e-10, 0.9, 0.3]],
}

OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_text(
    json.dumps(
        {
            "generated_by": "scripts/gen-annotation-fixtures.py",
            "versions": {
                "python": platform.python_version(),
                "numpy": np.__version__,
                "scipy": scipy.__version__,
                "sklearn": sklearn.__version__,
                "statsmodels": statsmodels.__version__,
                "r": r_versions,
            },
            "correlations": correlations,
            "kappa": kappas,
            "icc21": icc,
            "krippendorff": alphas,
            "fleiss": fleiss,
            "isotonic": iso,
            "cv": cv,
            "distributions": distributions,
        },
        indent=1,
    )
    + "\n"
)
print(f"wrote {OUT}")
