// The planted judge–human law of the e2e human-ratings cells (bench/validate-e2e/agreement.ts) and
// its exact truth, apart from the pipeline so the statistical checks (bench/validate/checks.ts,
// spearman-fisher-z) and their CI subset can draw the same law without loading the app's core.

/** The scale people and the judge rate on (bias probes' pointwise default). */
export const MAX = 5;
export const ANNOTATORS = ['ann-1', 'ann-2', 'ann-3'] as const;

/** P(score | quality) of a rater who gives the quality, or with `noise` a uniform score. */
function rater(noise: number): number[][] {
  return Array.from({ length: MAX }, (_, q) =>
    Array.from({ length: MAX }, (_, s) => (s === q ? 1 - noise : 0) + noise / MAX),
  );
}

/**
 * The planted truth of a `-quality<judgeNoise>` judge against the median of `raters` annotators
 * each with `humanNoise`: the joint law of (judge score, human median), its population Spearman ρ
 * (Pearson of the mid-distribution transforms F(x−) + ½P(x)) and quadratic-weighted κ.
 */
export function plantedAgreement(judgeNoise: number, humanNoise: number, raters = ANNOTATORS.length) {
  const judge = rater(judgeNoise);
  const human = rater(humanNoise);
  // P(median of the raters = m | quality q), over every combination of their scores.
  const median = Array.from({ length: MAX }, () => new Array<number>(MAX).fill(0));
  for (let q = 0; q < MAX; q++) {
    const scores = new Array<number>(raters).fill(0);
    for (;;) {
      const p = scores.reduce((acc, s) => acc * human[q][s], 1);
      const sorted = [...scores].sort((a, b) => a - b);
      median[q][sorted[(raters - 1) >> 1]] += p;
      let i = 0;
      while (i < raters && ++scores[i] === MAX) scores[i++] = 0;
      if (i === raters) break;
    }
  }
  if (raters % 2 === 0) throw new RangeError('an odd number of raters keeps the median on the scale');
  const joint = Array.from({ length: MAX }, (_, j) =>
    Array.from({ length: MAX }, (_, m) => {
      let p = 0;
      for (let q = 0; q < MAX; q++) p += (judge[q][j] * median[q][m]) / MAX;
      return p;
    }),
  );
  const pj = joint.map((row) => row.reduce((a, b) => a + b, 0));
  const pm = joint[0].map((_, m) => joint.reduce((a, row) => a + row[m], 0));
  const mid = (p: number[]) => p.map((x, i) => p.slice(0, i).reduce((a, b) => a + b, 0) + x / 2);
  const gj = mid(pj);
  const gm = mid(pm);
  const mean = (g: number[], p: number[]) => g.reduce((a, x, i) => a + x * p[i], 0);
  const [mj, mm] = [mean(gj, pj), mean(gm, pm)];
  let cov = 0;
  let vj = 0;
  let vm = 0;
  let observed = 0;
  let chance = 0;
  for (let j = 0; j < MAX; j++) {
    vj += pj[j] * (gj[j] - mj) ** 2;
    vm += pm[j] * (gm[j] - mm) ** 2;
    for (let m = 0; m < MAX; m++) {
      cov += joint[j][m] * (gj[j] - mj) * (gm[m] - mm);
      const w = ((j - m) / (MAX - 1)) ** 2;
      observed += w * joint[j][m];
      chance += w * pj[j] * pm[m];
    }
  }
  return { joint, rho: cov / Math.sqrt(vj * vm), kappa: 1 - observed / chance };
}
