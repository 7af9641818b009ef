// The CI-sized subset of the end-to-end validation (issue 33; `node bench/run.mjs validate-e2e`):
// the cells marked `ci` in bench/validate-e2e, each a study run again and again through the real
// core, queue, simulated provider and metrics on real SQLite, with the same seed and replicate
// seeds as the full run (its first R replicates). A planted first-position lean or length effect
// must be flagged at the rate the app's power planner predicts, within the Monte Carlo band
// (prediction ± 4 MC SE); with the effect off, at most at α + 4 MC SE; a planted language flip
// rate or repeat noise must be covered by the reported interval at least at 95 % − 4 MC SE. The
// costly studies (Judge-LS) run few replicates (`ciReps`): a coarse guard, the full run is the
// measurement. Seeded, so not flaky.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAN_NOISE } from '../../src/main/providers/simulated/planted-lean';
import { mcnemarExactPower } from '../../src/shared/stats/power';
import {
  ALPHA,
  biasPositionChecks,
  holmTwoPower,
  planLean,
  plantedPosition,
} from '../../bench/validate-e2e/position';
import { allE2eChecks } from '../../bench/validate-e2e/checks';
import { planAgreement, plantedAgreement } from '../../bench/validate-e2e/agreement';
import { planLength, plantedLength, plantedRepeatNoise } from '../../bench/validate-e2e/planted';
import { DEFAULT_SEED, judgeCell, runCell } from '../../bench/validate-e2e/runner';
import { openLab, type Lab } from '../../bench/validate-e2e/studies';
import {
  changeEffects,
  planProbe,
  plantableProbes,
  probeChecks,
  promptOnly,
} from '../../bench/validate-e2e/probes';
import {
  biasProbes,
  registerBiasProbe,
  unregisterBiasProbe,
} from '../../src/shared/protocols/bias-probes/probe-registry';
import { crowdProbe } from '../protocols/bias-probes-extra-probe/probe';

// The kit's test-only probe (a prompt note with `detect`), registered before the checks are built
// from the registry: the probe cells then run whether or not a built-in probe can be planted yet,
// and every built-in one that can is covered beside it.
registerBiasProbe(crowdProbe);

/**
 * Replicates per CI cell: ~0.18 CPU-s a study of ~100 items. 48 keeps the band at ± 4 MC SE ≈ ± 23
 * points for a power of 80 % (a lean the app misses, power near α, is far outside it) and a null
 * cell's at α + 13 points: a coarse guard, the full run (`npm run validate:e2e`) is the measurement.
 * 80 gave ± 18 points for 12 CPU-s more, a tenth of the suite's budget for bias probes.
 */
const CI_REPS = 48;
/** A give-up point, not a measurement: 120 studies take ~20 CPU-s, minutes of wall time at load 15 on two cores. */
const CELL_TIMEOUT = 1_800_000;

let lab: Lab;
const env = process.env.JUDGE_LAB_RESOURCES;
beforeAll(async () => {
  lab = await openLab();
}, CELL_TIMEOUT);
afterAll(async () => {
  // Test files share a process: the files after this one see the built-in probes only.
  unregisterBiasProbe(crowdProbe.id);
  await lab?.close();
  // openLab points the app at the repository's samples; a shared test process gets its env back.
  if (env === undefined) delete process.env.JUDGE_LAB_RESOURCES;
  else process.env.JUDGE_LAB_RESOURCES = env;
});

describe('the planted truth and the plan the cells are judged by', () => {
  it('the planted shares are the McNemar setting: ψ = p10 + p01, δ = the planted rate', () => {
    const e = LEAN_NOISE;
    const t = plantedPosition(0.1);
    expect(t.p01).toBeCloseTo(0.9 * 0.98 * e * (1 - e), 12);
    expect(t.psi - 2 * t.p01).toBeCloseTo(0.1, 12);
    expect(plantedPosition(0, 0.25).delta).toBe(0);
  });

  it("the plan is the app's: the items its power plan asks for give at least 80 %, one fewer less", () => {
    const plan = planLean(0.1);
    expect(plan.power(plan.itemsNeeded)).toBeGreaterThanOrEqual(0.8);
    expect(mcnemarExactPower(plan.itemsNeeded - 1, plan.psi, plan.delta)).toBeLessThan(0.8);
  });

  it('Holm over two independent rows costs power: between the α/2 and α tests', () => {
    const plan = planLean(0.1);
    const n = plan.itemsNeeded;
    const holm = holmTwoPower(plan.power, n);
    expect(holm).toBeGreaterThan(plan.power(n, ALPHA / 2));
    expect(holm).toBeLessThan(plan.power(n, ALPHA));
  });

  it('a band is the nominal ± 4 MC SE; a cell outside it is out of band, 5 points off is flagged', () => {
    const [check] = biasPositionChecks(() => lab);
    const cell = { ...check.cells[0], expected: 0.8 };
    const ok = judgeCell(check, cell, { reps: 400, defined: 400, hits: 330 }, 0);
    expect(ok.band[0]).toBeCloseTo(0.8 - 4 * Math.sqrt(0.16 / 400), 12);
    expect(ok.inBand).toBe(true);
    expect(ok.flagged).toBe(false);
    const short = judgeCell(check, cell, { reps: 400, defined: 400, hits: 280 }, 0);
    expect(short.inBand).toBe(false);
    expect(short.flagged).toBe(true);
  });
});

describe('the other planted truths and plans', () => {
  it('repeat noise: P(two repeats disagree) and unanimity of K asks, ties never disagreeing', () => {
    const t = plantedRepeatNoise(0.1, 3);
    expect(t.disagree).toBeCloseTo(0.98 * 0.18, 12);
    expect(t.unanimous).toBeCloseTo(0.02 + 0.98 * (0.9 ** 3 + 0.1 ** 3), 12);
  });

  it("length: d_z of the planted differences; the plan counts an item's two responses", () => {
    const t = plantedLength(0.2, 0.2);
    expect(t.sd).toBeCloseTo(Math.sqrt(0.16 + 0.4), 12);
    const plan = planLength(0.2, 0.2, 50);
    expect(plan.units).toBe(100);
    expect(plan.power).toBeGreaterThan(planLength(0.2, 0.2, 25).power);
  });
});

describe('the planted judge–human agreement and its plan', () => {
  it('ρ and κ_w of the judge against three annotators’ median: the exact law, checked at its ends and against numpy', () => {
    expect(plantedAgreement(1, 0.3).rho).toBeCloseTo(0, 12);
    expect(plantedAgreement(1, 0.3).kappa).toBeCloseTo(0, 12);
    expect(plantedAgreement(0, 0).rho).toBeCloseTo(1, 12);
    const t = plantedAgreement(0.05, 0.2);
    for (const row of t.joint) for (const p of row) expect(p).toBeGreaterThan(0);
    expect(t.joint.flat().reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // The same law enumerated in numpy (mid-distribution transforms, quadratic weights).
    expect(t.rho).toBeCloseTo(0.904947379617068, 10);
    expect(t.kappa).toBeCloseTo(0.904950495049505, 10);
    expect(plantedAgreement(0.3, 0.3).rho).toBeCloseTo(0.62656811370424, 10);
  });

  it("the plan is the app's human-agreement row: its items reach 80 % at the planted ρ, one fewer does not", () => {
    const rho = plantedAgreement(0.05, 0.2).rho;
    const plan = planAgreement(rho);
    expect(plan.power(plan.itemsNeeded!)).toBeGreaterThanOrEqual(0.8);
    expect(plan.power(plan.itemsNeeded! - 1)).toBeLessThan(0.8);
  });
});

describe('the probe cells: built from the registry, one set per plantable probe', () => {
  it('every registered probe with `detect` gets null and coverage cells per mode it measures, and a pointwise power cell', () => {
    const plantable = plantableProbes();
    expect(plantable.map((p) => p.id)).toContain('crowd');
    expect(plantable).toEqual(
      biasProbes().filter((p) => p.detect && p.effects.some((e) => e.measure === 'paired-change')),
    );
    expect(plantable.map((p) => p.id)).not.toContain('self_preference');
    const [nulls, coverage, power] = probeChecks(() => lab);
    for (const probe of plantable) {
      const modes = (['pointwise', 'pairwise'] as const).filter((m) => changeEffects(probe, m).length);
      expect(modes.length).toBeGreaterThan(0);
      for (const mode of modes) {
        expect(nulls.cells.some((c) => c.key.startsWith(`${probe.id}-${mode}-null`))).toBe(true);
        expect(coverage.cells.some((c) => c.key.startsWith(`${probe.id}-${mode}-bias50`))).toBe(true);
      }
      expect(power.cells.filter((c) => c.key.startsWith(`${probe.id}-pointwise-`))).toHaveLength(1);
    }
    // The crowd note changes the prompt only: its pairwise truth is exact, so those cells are claimed.
    expect(promptOnly(crowdProbe.effects[0])).toBe(true);
    expect(coverage.cells.find((c) => c.key === 'crowd-pairwise-bias50-n30')!.claimed).toBe(true);
  });

  it("the power cell's plan is the probe's own power model at the planted d_z, Holm's first step over its family", () => {
    const plan = planProbe(crowdProbe, crowdProbe.effects[0], 0.2, 0.2, 40);
    expect(plan.dz).toBeCloseTo(0.2 / Math.sqrt(0.16 + 0.4), 12);
    expect(plan.units).toBe(80);
    expect(plan.family).toBe(1);
    expect(plan.power).toBeGreaterThan(planProbe(crowdProbe, crowdProbe.effects[0], 0.2, 0.2, 20).power);
    expect(plan.power).toBeLessThan(1);
  });
});

describe('end to end: studies through the real runner detect planted effects at the planned rate', () => {
  // The lean cells first (the criterion), then the other planted effects.
  const checks = allE2eChecks(() => lab);
  for (const check of checks)
    for (const cell of check.cells.filter((c) => c.ci))
      it(
        `${check.id} ${cell.key}`,
        async () => {
          const reps = cell.ciReps ?? CI_REPS;
          const r = await runCell(check, cell, DEFAULT_SEED, reps);
          const shown = `${r.hits}/${r.defined} = ${r.rate.toFixed(3)}, band [${r.band[0].toFixed(3)}, ${r.band[1].toFixed(3)}]`;
          // Every run reported its test or interval: no study failed or left the row out.
          expect(r.defined, shown).toBe(reps);
          expect(r.inBand, shown).toBe(true);
          if (check.kind === 'power') expect(r.expected!).toBeGreaterThan(0.5);
        },
        CELL_TIMEOUT,
      );
});
