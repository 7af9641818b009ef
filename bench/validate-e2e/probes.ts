// End to end (issue 35): every registered bias probe with `detect`, through the real runner, with
// its effect planted by the simulated provider's `-bias-<probe><NN>` knob (planted-bias.ts) and
// with it off. The cells are built from the probe registry when the checks are, so a probe merged
// later is validated with no change here.
//
// The knob moves NN % of the calls the probe's `detect` names (pointwise: the score one point up;
// pairwise: the verdict to the favoured letter). Its planted truth is exact only on a judge whose
// answer without the knob does not depend on the perturbation, so the knob rides on the planted
// judges whose answers are known:
// - pointwise, `-long0-noise<MM>`: every response scores the middle of the scale, ±1 with MM %
//   (half each way), whatever its text or prompt; the knob adds a point on NN % of the detected
//   (variant) responses, so the paired change has mean NN/100 and SD √(r(1 − r) + 2·MM/100), the
//   setting of the length cells (planted.ts) and of the app's paired power rows;
// - pairwise, `-first0-noise<MM>`: the judge keeps one answer of an item in both orders, each ask
//   taking the other with MM %. With MM = 0 and a probe that changes the prompt only (its effect's
//   conditions keep the texts), the variant's verdict before the knob is the base's, so the flip
//   rate (verdicts turned to the worse response, among those not on it) is exactly NN/100. A probe
//   that rewrites the worse response changes the pair this judge reads its kept answer from, so
//   its pairwise cells are run and shown but not claimed (the pointwise ones are exact for every probe).
// Off (no `-bias-` suffix), the paired changes are symmetric noise: the probe's rows (category
// all, Holm within the judge × category family, i.e. the probe's effects in that mode) must flag
// in at most α of runs.
import { biasPower } from '../../src/main/protocols/bias-probes/power';
import { biasProbes, conditionById, ORIGINAL } from '../../src/shared/protocols/bias-probes/probe-registry';
import type { BiasProbe, EffectSpec } from '../../src/shared/protocols/bias-probes/probe-types';
import type { BiasMetrics, Mode, ProbeRow } from '../../src/shared/protocols/bias-probes/types';
import { pairedTPower, WILCOXON_ARE } from '../../src/shared/stats/power';
import { pairItems, plantedLength } from './planted';
import { ALPHA } from './position';
import type { Cell, Check } from './runner';
import { replicateModel, sampleSeed, type Lab } from './studies';

/** The probes the cells cover: every registered one the simulated provider can plant. */
/**
 * The probes these cells can plant and measure: those with `detect` and a paired change. An
 * observational probe (self-preference's own-answers measure) perturbs nothing, so its planted
 * truth is not a change between conditions; its own test recovers it from the mock's log.
 */
export const plantableProbes = (): BiasProbe[] =>
  biasProbes().filter((p) => p.detect !== undefined && p.effects.some((e) => e.measure === 'paired-change'));

/** The probe's paired-change effects measured in a mode (its Holm family there, with the judge × category). */
export const changeEffects = (probe: BiasProbe, mode: Mode): EffectSpec[] =>
  probe.effects.filter((e) => e.measure === 'paired-change' && e.modes.includes(mode));

/** Whether an effect compares conditions that show the texts unchanged (the prompt alone differs). */
export function promptOnly(effect: EffectSpec): boolean {
  return [effect.variant, effect.base].every((c) => {
    if (c === ORIGINAL) return true;
    const text = conditionById(c)?.text;
    return text !== undefined && 'same' in text;
  });
}

/**
 * The app's plan for a pointwise planted effect: the probe's power rows (its own model or the
 * kit's) at the planted d_z, their Wilcoxon row's items for 80 % (the test the probe row reports),
 * and the power that row's model gives at n items (the t's at units · 3/π pairs), at α over the
 * family's size when the probe has several effects (Bonferroni: Holm's first step).
 */
export function planProbe(probe: BiasProbe, effect: EffectSpec, rate: number, noise: number, n: number) {
  const { sd, dz } = plantedLength(rate, noise);
  const id = `paired_difference:${effect.id}`;
  const rows = biasPower.comparisons(
    { items: pairItems(n), options: { probes: [probe.id], shorter: false, mode: 'pointwise' } as never },
    null,
    { [id]: dz, [`${id}:wilcoxon`]: dz },
    { alpha: ALPHA, power: 0.8 },
  );
  const row = rows.find((c) => c.id === `${id}:wilcoxon`) ?? rows.find((c) => c.id === id);
  if (!row) throw new Error(`the power plan of probe "${probe.id}" has no row for effect "${effect.id}"`);
  const family = changeEffects(probe, 'pointwise').length;
  return {
    mean: rate,
    sd,
    dz,
    units: row.n,
    itemsNeeded: row.itemsNeeded,
    family,
    power: pairedTPower(dz, row.n * WILCOXON_ARE, ALPHA / family),
  };
}

/** One study of one probe, one judge; the probe's rows of that judge (category all). */
async function probeRows(lab: Lab, probe: BiasProbe, mode: Mode, n: number, seed: number, tail: string) {
  const m = (await lab.run({
    protocol: 'bias-probes',
    limit: n,
    sample: 'random',
    seed: sampleSeed(seed),
    judges: [{ label: 'J', provider: 'sim', model: replicateModel(seed, tail) }],
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    mode,
    probes: [probe.id],
  })) as BiasMetrics;
  return m.probes.filter((r) => r.judge === 'J' && r.category === 'all' && r.probe === probe.id);
}

const flags = (rows: ProbeRow[]) =>
  rows.length === 0 ? null : rows.some((r) => (r.p_holm ?? r.p ?? 1) < ALPHA);

const covers = (ci: [number, number] | null | undefined, truth: number) =>
  ci === null || ci === undefined ? null : ci[0] <= truth && truth <= ci[1];

/** The judge tails (planted-length / planted-lean knobs) each mode's cells use. */
const NULL_TAIL: Record<Mode, string> = { pointwise: '-long0-noise30', pairwise: '-first0-noise20' };
const plantedTail = (mode: Mode, probe: string, ratePct: number, noisePct: number) =>
  `${mode === 'pointwise' ? `-long0-noise${noisePct}` : `-first0-noise${noisePct}`}-bias-${probe}${ratePct}`;

/**
 * Replicates of each probe's pointwise null and coverage cell in `npm test` (a guard that every
 * registered probe runs end to end and lands in its band; the full run is `npm run validate:e2e`):
 * four, as every probe added to the registry adds two cells to the suite.
 */
const PROBE_CI_REPS = 4;

export function probeChecks(lab: () => Lab): Check[] {
  const nulls: Cell[] = [];
  const coverage: Cell[] = [];
  const power: Cell[] = [];
  for (const probe of plantableProbes()) {
    for (const mode of ['pointwise', 'pairwise'] as const) {
      const effects = changeEffects(probe, mode);
      if (effects.length === 0) continue;
      const effect = effects[0];
      // Pointwise every probe's truth is exact; pairwise only a prompt-only probe's (head of file);
      // in a mode its `detect` plants nothing of known size in (`plantedModes`), none is claimed.
      const claimed =
        (mode === 'pointwise' || promptOnly(effect)) && (probe.plantedModes ?? [mode]).includes(mode);
      const n = 60;
      nulls.push({
        key: `${probe.id}-${mode}-null-n${n}`,
        n,
        planted: `${probe.id}, ${mode}: no effect, ${mode === 'pointwise' ? 'score' : 'verdict'} noise ${NULL_TAIL[mode].split('noise')[1]} % per ask (${effects.length} effect${effects.length > 1 ? 's' : ''} in the Holm family)`,
        claimed,
        reps: 200,
        ci: mode === 'pointwise',
        ciReps: PROBE_CI_REPS,
        replicate: async (seed) => flags(await probeRows(lab(), probe, mode, n, seed, NULL_TAIL[mode])),
      });
      const rate = 0.5;
      const noisePct = mode === 'pointwise' ? 20 : 0;
      const cn = 30;
      coverage.push({
        key: `${probe.id}-${mode}-bias50-n${cn}`,
        n: cn,
        planted:
          mode === 'pointwise'
            ? `${probe.id}, pointwise: +1 on 50 % of the perturbed responses, noise 20 % (mean change 0.5; \`mean_ci\`)`
            : `${probe.id}, pairwise: 50 % of verdicts turned to the worse response, no noise (flip rate 0.5; \`flip_rate_ci\`)`,
        claimed,
        reps: 200,
        ci: mode === 'pointwise',
        ciReps: PROBE_CI_REPS,
        replicate: async (seed) => {
          const rows = await probeRows(
            lab(),
            probe,
            mode,
            cn,
            seed,
            plantedTail(mode, probe.id, 50, noisePct),
          );
          const row = rows.find((r) => r.effect === effect.id);
          if (!row) return null;
          return mode === 'pointwise' ? covers(row.mean_ci, rate) : covers(row.flip_rate_ci, rate);
        },
      });
      if (mode === 'pointwise') {
        const planned = planProbe(probe, effect, 0.2, 0.2, 10);
        const items = planned.itemsNeeded ?? 60;
        const plan = planProbe(probe, effect, 0.2, 0.2, items);
        power.push({
          key: `${probe.id}-pointwise-bias20-noise20-n${items}`,
          n: items,
          planted: `${probe.id}, pointwise: +1 on 20 % of the perturbed responses, noise 20 % (d_z = ${plan.dz.toFixed(3)})`,
          expected: plan.power,
          plan: `biasPower (the probe's Wilcoxon row, ARE 3/π): ${planned.itemsNeeded} items for 80 %; pairedTPower(d_z, ${plan.units} responses · 3/π, α/${plan.family})`,
          reps: 200,
          replicate: async (seed) => {
            const rows = await probeRows(
              lab(),
              probe,
              'pointwise',
              items,
              seed,
              plantedTail('pointwise', probe.id, 20, 20),
            );
            const row = rows.find((r) => r.effect === effect.id);
            return row ? (row.p_holm ?? row.p ?? 1) < ALPHA : null;
          },
        });
      }
    }
  }
  const probes =
    plantableProbes()
      .map((p) => `\`${p.id}\``)
      .join(', ') || 'none registered';
  const design =
    `Bias probes, every registered probe the simulated provider can plant (\`detect\`; now ${probes}), one probe per study, ` +
    'one simulated judge, each run on its own n sampled LLMBar items. Pointwise the judge is `-long0-noise<MM>` ' +
    '(the middle score ±1 with MM %, blind to texts and prompt), pairwise `-first0-noise<MM>` (one kept answer ' +
    'per item, each ask taking the other with MM %); the planted effect is the `-bias-<probe><NN>` knob on top ' +
    '(NN % of the calls `detect` names moved its way: a point up, or the verdict to the worse response). ' +
    'Pairwise cells of a probe that rewrites the worse response are not claimed: the pairwise judge reads its ' +
    'kept answer from the texts, so the truth is not exact there (bench/validate-e2e/probes.ts).';
  return [
    {
      id: 'e2e-bias-probes-null',
      title:
        'Bias probes, every plantable probe: with the knob off, an effect is flagged in at most 5 % of runs',
      kind: 'type1',
      alpha: ALPHA,
      design: `${design} A run flags when any of the probe's rows (category all) has Holm p < 0.05.`,
      cells: nulls,
    },
    {
      id: 'e2e-bias-probes-coverage',
      title: 'Bias probes, every plantable probe: the 95 % interval covers the planted effect',
      kind: 'coverage',
      alpha: ALPHA,
      design: `${design} Pointwise the row's \`mean_ci\` must hold the planted mean change, pairwise its \`flip_rate_ci\` the planted flip rate.`,
      cells: coverage,
    },
    {
      id: 'e2e-bias-probes-power',
      title: 'Bias probes, every plantable probe: a planted pointwise effect is detected at the planned rate',
      kind: 'power',
      alpha: ALPHA,
      design: `${design} A run detects when the probe row of the planted effect has Holm p < 0.05.`,
      cells: power,
    },
  ];
}
