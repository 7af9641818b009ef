// `node bench/run.mjs e2e-direct [sc|length|agreement]`: the end-to-end cells' planted laws drawn
// directly, without the pipeline, through the same statistics functions (issue 33). Where an e2e
// cell is off, this says whether the method or the run is: the numbers quoted in
// bench/validate-e2e's comments and in the judge–human captions come from here (seeded).
import { clusterBootstrapRatio } from '../src/shared/stats/bootstrap';
import { cohensKappa } from '../src/shared/stats/agreement';
import { spearmanInterval } from '../src/shared/stats/correlation';
import { wilcoxonSignedRank } from '../src/shared/stats/wilcoxon';
import { mulberry32 } from '../src/shared/random';
import { LEAN_TIE } from '../src/main/providers/simulated/planted-lean';
import { plantedAgreement } from './validate/planted-agreement';
import { plantedRepeatNoise } from './validate-e2e/planted';

const which = process.argv[2] ?? 'all';

/** Self-consistency, K = 3, one question per item: coverage of the disagreement's item bootstrap. */
function repeatNoise(noise: number, n: number, R = 2000) {
  const rng = mulberry32(12345);
  const truth = plantedRepeatNoise(noise, 3).disagree;
  let covered = 0;
  for (let r = 0; r < R; r++) {
    const cs = Array.from({ length: n }, () => {
      if (rng() < LEAN_TIE) return { num: 0, den: 1 };
      const flips = [0, 1, 2].reduce((s) => s + (rng() < noise ? 1 : 0), 0);
      return { num: (flips * (3 - flips)) / 3, den: 1 };
    });
    const ci = clusterBootstrapRatio(cs, { B: 2000, seed: 1 + r });
    if (ci[0] <= truth && truth <= ci[1]) covered++;
  }
  return covered / R;
}

/** Bias probes' length null: two responses an item, each score ±1 with noise/2 each way; Wilcoxon on item means. */
function lengthNull(noise: number, items: number, R = 40000) {
  const rng = mulberry32(4242);
  const ask = () => {
    const u = rng();
    return u < noise / 2 ? -1 : u < noise ? 1 : 0;
  };
  let rejected = 0;
  for (let r = 0; r < R; r++) {
    const means = Array.from({ length: items }, () => (ask() - ask() + ask() - ask()) / 2);
    const w = wilcoxonSignedRank(means);
    if ((w ? w.p : 1) < 0.05) rejected++;
  }
  return rejected / R;
}

/** The judge against three annotators' median, as bench/validate-e2e/agreement.ts plants it. */
function agreement(judgeNoise: number, humanNoise: number, n: number, R = 2000) {
  const rng = mulberry32(777);
  const t = plantedAgreement(judgeNoise, humanNoise);
  const u5 = () => 1 + Math.floor(rng() * 5);
  let rho = 0;
  let rhoDefined = 0;
  let kappa = 0;
  let kappaDefined = 0;
  for (let r = 0; r < R; r++) {
    const judge: number[] = [];
    const median: number[] = [];
    for (let i = 0; i < n; i++) {
      const q = u5();
      judge.push(rng() < judgeNoise ? u5() : q);
      median.push([0, 1, 2].map(() => (rng() < humanNoise ? u5() : q)).sort((a, b) => a - b)[1]);
    }
    const s = spearmanInterval(judge, median).ci;
    if (s) {
      rhoDefined++;
      if (s[0] <= t.rho && t.rho <= s[1]) rho++;
    }
    const k = cohensKappa(judge, median, 'quadratic', [1, 2, 3, 4, 5]).ci;
    if (k) {
      kappaDefined++;
      if (k[0] <= t.kappa && t.kappa <= k[1]) kappa++;
    }
  }
  return { truth: t, rho: rho / rhoDefined, kappa: kappa / kappaDefined };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
if (which === 'all' || which === 'sc')
  console.log(`self-consistency noise 25 %, 150 items: disagreement covered ${pct(repeatNoise(0.25, 150))}`);
if (which === 'all' || which === 'length')
  console.log(`length null, noise 30 %, 60 items: rejected ${pct(lengthNull(0.3, 60))}`);
if (which === 'all' || which === 'agreement')
  for (const [j, h] of [
    [1, 0.3],
    [0.3, 0.3],
    [0.15, 0.2],
    [0.05, 0.2],
  ])
    for (const n of [30, 74, 200, 500]) {
      const a = agreement(j, h, n);
      console.log(
        `judge ${j}, people ${h} (ρ ${a.truth.rho.toFixed(3)}), ${n} responses: ρ covered ${pct(a.rho)}, κ_w ${pct(a.kappa)}`,
      );
    }
