// End to end: the planted first-position lean (issue 32 item 1, the issue "Conclusions that
// hold"), through the real runner. The simulated `-first<NN>` judge picks the answer shown first
// in both orders on a planted NN % of items; elsewhere it keeps one answer in both orders, each
// ask taking the other with the per-ask noise e (`-noise<NN>`, else LEAN_NOISE), and an item is
// a tie with LEAN_TIE. Per item, independently (every decision is seeded from the replicate's
// own model name): both-first with p10 = r + (1 − r)(1 − t) e (1 − e), both-second with
// p01 = (1 − r)(1 − t) e (1 − e). That is exactly the exact McNemar power model's setting
// (discordant share ψ = p10 + p01, difference δ = p10 − p01 = r), so the app's planner,
// given the planted ψ and δ, predicts each study's detection rate.
import { assumed, mcnemarRow } from '../../src/shared/paper/power-rows';
import { mcnemarExactPower } from '../../src/shared/stats/power';
import { LEAN_NOISE, LEAN_TIE } from '../../src/main/providers/simulated/planted-lean';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import type { Cell, Check } from './runner';
import { replicateModel, sampleSeed, type Lab } from './studies';

export const ALPHA = 0.05;
/** The planner's target power: each lean cell runs at the n the planner asks for it. */
const TARGET_POWER = 0.8;

/** The planted truth of a `-first<rate>-noise<noise>` judge on one item. */
export function plantedPosition(rate: number, noise = LEAN_NOISE) {
  const off = (1 - rate) * (1 - LEAN_TIE) * noise * (1 - noise);
  const p10 = rate + off;
  return { p10, p01: off, psi: p10 + off, delta: rate };
}

/** The judge's model-name suffix for a planted share and noise (percent). */
export function leanSuffix(ratePct: number, noisePct?: number): string {
  return `-first${ratePct}${noisePct === undefined ? '' : `-noise${noisePct}`}`;
}

/**
 * The app's plan for the position lean at the planted ψ and δ: the items it asks for at 80 %
 * (the power plan's row, `mcnemarRow`, as the bias-probes plan builds it) and the power its model
 * gives at the n a cell runs (`mcnemarExactPower`, which that row solves with).
 */
export function planLean(rate: number, noise?: number, alpha = ALPHA) {
  const t = plantedPosition(rate, noise);
  const row = mcnemarRow(
    { id: 'position_lean', label: 'Position lean', unit: 'items', unitsPerItem: 1, n: 1 },
    assumed('psi', 'discordant share ψ', t.psi, t.psi),
    { typed: t.delta, fallback: { value: t.delta, source: 'default' } },
    { alpha, power: TARGET_POWER },
  );
  if (row.itemsNeeded === null) throw new Error(`no plan for a lean of ${rate}: ${row.itemsUndefined}`);
  return {
    ...t,
    itemsNeeded: row.itemsNeeded,
    power: (n: number, a = alpha) => mcnemarExactPower(n, t.psi, t.delta, a),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

// ---- bias probes: the pairwise position probe, one judge --------------------------------------

/** One bias-probes study (pairwise, position probe only) of n sampled items; its position row. */
async function biasPositionRow(lab: Lab, n: number, seed: number, suffix: string) {
  const metrics = (await lab.run({
    protocol: 'bias-probes',
    limit: n,
    sample: 'random',
    seed: sampleSeed(seed),
    judges: [{ label: 'J', provider: 'sim', model: replicateModel(seed, suffix) }],
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    mode: 'pairwise',
    probes: ['position'],
  })) as BiasMetrics;
  return metrics.position.find((r) => r.judge === 'J' && r.category === 'all') ?? null;
}

/** The study flags a lean as the report card reads it: its Holm p (the judge × category family) below α. */
const biasFlags = (row: Awaited<ReturnType<typeof biasPositionRow>>) =>
  row === null ? null : (row.p_holm ?? row.lean_p) < ALPHA;

function biasLeanCell(
  lab: () => Lab,
  ratePct: number,
  noisePct: number | undefined,
  extra: Partial<Cell>,
): Cell {
  const plan = planLean(ratePct / 100, noisePct === undefined ? undefined : noisePct / 100);
  const n = extra.n ?? plan.itemsNeeded;
  const suffix = leanSuffix(ratePct, noisePct);
  return {
    key: `lean${ratePct}-noise${noisePct ?? 'default'}-n${n}`,
    n,
    planted: `lean ${ratePct} %, noise ${pct(noisePct === undefined ? LEAN_NOISE : noisePct / 100)} (ψ = ${plan.psi.toFixed(4)}, δ = ${plan.delta})`,
    expected: plan.power(n),
    plan: `mcnemarRow: ${plan.itemsNeeded} items for 80 %; mcnemarExactPower(${n}, ψ, δ, ${ALPHA})`,
    reps: 400,
    ...extra,
    replicate: async (seed) => biasFlags(await biasPositionRow(lab(), n, seed, suffix)),
  };
}

function biasNullCell(lab: () => Lab, noisePct: number | undefined, n: number, extra: Partial<Cell>): Cell {
  const suffix = leanSuffix(0, noisePct);
  const t = plantedPosition(0, noisePct === undefined ? undefined : noisePct / 100);
  return {
    key: `null-noise${noisePct ?? 'default'}-n${n}`,
    n,
    planted: `no lean, noise ${pct(noisePct === undefined ? LEAN_NOISE : noisePct / 100)} (ψ = ${t.psi.toFixed(4)})`,
    reps: 400,
    ...extra,
    replicate: async (seed) => biasFlags(await biasPositionRow(lab(), n, seed, suffix)),
  };
}

export function biasPositionChecks(lab: () => Lab): Check[] {
  const design =
    'Bias probes, pairwise, the position probe only, one simulated judge; each run samples its n ' +
    'LLMBar items (`sample: "random"`) and names its judge with its own seed, so items, planted ' +
    'items and noise are new draws. A run flags a lean when its position row (category all) has ' +
    'Holm p < 0.05, the test the report card fails a judge on.';
  return [
    {
      id: 'e2e-bias-position-power',
      title: 'Bias probes: a planted first-position lean is detected at the planned rate',
      kind: 'power',
      alpha: ALPHA,
      design,
      cells: [
        // The lean of "Conclusions that hold" (`-first5`, default noise), at the n the planner asks.
        biasLeanCell(lab, 5, undefined, {}),
        biasLeanCell(lab, 10, undefined, { ci: true }),
        // Below the planned n: the prediction must hold where power is far from 80 % too. Its
        // first 200 runs gave 13.5 % against 7.8 % planned (seed 3320261206), 2.4 MC SE out:
        // the next 800 gave 8.0 %. Monte Carlo error at a rare event (about 15 detections in 200);
        // the model is exact here (see the head of this file): 1,000 runs (~70 CPU-s) gave 9.1 %.
        biasLeanCell(lab, 10, undefined, { n: 30, reps: 1000 }),
        // A noisy judge: many discordant items either way, the lean on top.
        biasLeanCell(lab, 15, 10, { reps: 200 }),
      ],
    },
    {
      id: 'e2e-bias-position-null',
      title: 'Bias probes: with the lean off, a lean is flagged in at most 5 % of runs',
      kind: 'type1',
      alpha: ALPHA,
      design,
      cells: [
        // The judge of "Conclusions that hold" with its lean off, at the n planned for its lean.
        biasNullCell(lab, undefined, planLean(0.05).itemsNeeded, { reps: 200 }),
        // Noisy nulls: many discordant items, split evenly; the exact test's size shows here.
        biasNullCell(lab, 10, 120, { reps: 150 }),
        biasNullCell(lab, 25, 60, { ci: true }),
      ],
    },
  ];
}

// ---- Judge-LS: the position table, English and Chinese, Holm over both -----------------------

async function judgeLsPositionRows(lab: Lab, n: number, seed: number, suffix: string) {
  const metrics = (await lab.run({
    protocol: 'judge-ls',
    limit: n,
    sample: 'random',
    seed: sampleSeed(seed),
    judges: [{ label: 'J', provider: 'sim', model: replicateModel(seed, suffix) }],
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
    tieProbes: false,
  })) as JudgeLsMetrics;
  return metrics.position.filter((r) => r.judge === 'J');
}

/**
 * Power of the English row under Holm over two independent rows with the same planted truth (the
 * texts differ, so the planted items are drawn apart): rejected at α/2 outright, or between α/2
 * and α when the Chinese row is rejected at α/2 first.
 */
export function holmTwoPower(power: (n: number, a?: number) => number, n: number): number {
  const half = power(n, ALPHA / 2);
  return half + (power(n, ALPHA) - half) * half;
}

export function judgeLsPositionChecks(lab: () => Lab): Check[] {
  const design =
    'Judge-LS, one simulated judge, English and Chinese (the simulated translator), both orders; ' +
    'each run samples its n LLMBar items and names its judge with its own seed. The position ' +
    "table's Holm family is every judge × language (here two rows): a run flags the English lean " +
    "when that row's Holm p < 0.05; with the lean off, a run that flags either row is a false positive.";
  const leanCell = (ratePct: number, n: number, extra: Partial<Cell>): Cell => {
    const plan = planLean(ratePct / 100);
    const suffix = leanSuffix(ratePct);
    return {
      key: `lean${ratePct}-n${n}`,
      n,
      planted: `lean ${ratePct} %, noise ${pct(LEAN_NOISE)} in each language (ψ = ${plan.psi.toFixed(4)}, δ = ${plan.delta})`,
      expected: holmTwoPower(plan.power, n),
      plan: `mcnemarExactPower(${n}, ψ, δ) at α/2 and α, Holm over 2 independent rows (planner: ${plan.itemsNeeded} items for 80 % unadjusted)`,
      reps: 200,
      ...extra,
      replicate: async (seed) => {
        const en = (await judgeLsPositionRows(lab(), n, seed, suffix)).find((r) => r.language === 'EN');
        return en ? en.lean_p_holm < ALPHA : null;
      },
    };
  };
  return [
    {
      id: 'e2e-judge-ls-position-power',
      title: 'Judge-LS: a planted lean is detected at the planned rate, Holm over languages included',
      kind: 'power',
      alpha: ALPHA,
      design,
      // 200 runs gave 69.3 % against 77.2 % planned (seed 3320261206) and 82.7 % with another
      // seed: Monte Carlo error (SE 3.0 points at 200 runs; the two rows' rates and both-first
      // counts matched the McNemar model over 800 rows). At 600 runs the SE is 1.7 points, so the
      // issue's ±5 points is 2.9 SE. Too costly for the CI subset (~0.5 CPU-s a study).
      cells: [leanCell(10, planLean(0.1).itemsNeeded, { reps: 600 })],
    },
    {
      id: 'e2e-judge-ls-position-null',
      title: 'Judge-LS: with the lean off, a lean is flagged (either language) in at most 5 % of runs',
      kind: 'type1',
      alpha: ALPHA,
      design,
      cells: [
        {
          key: 'null-noise10-n100',
          n: 100,
          planted: `no lean, noise 10 % (ψ = ${plantedPosition(0, 0.1).psi.toFixed(4)})`,
          reps: 120,
          replicate: async (seed) => {
            const rows = await judgeLsPositionRows(lab(), 100, seed, leanSuffix(0, 10));
            return rows.length === 0 ? null : rows.some((r) => r.lean_p_holm < ALPHA);
          },
        },
      ],
    },
  ];
}
