// A probe added to bias probes from this folder only (DESIGN.md §1b "How to add a probe"): the
// crowd probe (probe.ts) is registered with one line and runs end to end through the core — the
// config accepts it, the plan asks its conditions with its prompt change (and its placebo with the
// noise floor on), the metrics measure its effect, and its rows, labels, power plan, report-card
// rows and Methods sentence appear wherever the built-in probes' do — against the mock provider
// (both wire formats, with a planted effect recovered from the mock's log) and the simulated one.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadExperimentConfig } from '../../../src/main/facade/config-files';
import {
  allConditions,
  allEffects,
  biasProbeIds,
  conditionById,
  effectById,
  probeById,
  registerBiasProbe,
  unregisterBiasProbe,
} from '../../../src/shared/protocols/bias-probes/probe-registry';
import { BIAS_FIGURES_ZH } from '../../../src/shared/protocols/bias-probes/report/figure-zh';
import { buildBiasFigures } from '../../../src/shared/protocols/bias-probes/report/figures';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { biasRows, VARIANTS_VIEW } from '../../../src/shared/protocols/bias-probes/views';
import {
  probeOption,
  type BiasProbe,
  type ProbeOption,
} from '../../../src/shared/protocols/bias-probes/probe-types';
import { checkFamilies } from '../../../src/shared/report/families';
import { biasResponder } from '../../mock-provider/bias-responder';
import type { MockRequest } from '../../mock-provider/server';
import {
  excessOf,
  expectHolm,
  expectPairwiseRow,
  expectPointwiseRow,
  expectSimulatedRecovered,
  fnvUnit as unit,
  pairFromLog,
  placeboConditions,
  placeboOf,
  plant,
  RECORDS as all,
  rowOf,
  tagged,
  useProbeHarness,
  type Verdict,
} from '../../helpers/probe-harness';
import { CROWD_DEFAULT_DZ, CROWD_NOTE, crowdPairNote, crowdProbe, NEUTRAL_NOTE } from './probe';

const LIMIT = 24;
/** The planted share of calls the crowd note moves: one point up, or the verdict to the named response. */
const PLANTED = 0.5;

interface Logged extends Verdict {
  model: string;
  note: 'crowd' | 'neutral';
  /** The request without its note: the same for the crowd and the neutral ask of one unit. */
  key: string;
  instruction: string;
  /** Pairwise: the response the crowd note named. */
  named?: 'A' | 'B';
}

/** The bias mock, with the crowd note moving PLANTED of the answers it is in; every noted answer logged. */
function crowdResponder() {
  const base = biasResponder(all);
  const log: Logged[] = [];
  const respond = (req: MockRequest): unknown => {
    const answer = base.respond(req) as Verdict;
    const text = req.lastUser;
    const pair = (['A', 'B'] as const).find((x) => text.endsWith(`\n\n${crowdPairNote(x)}`));
    const note = text.endsWith(CROWD_NOTE) || pair ? 'crowd' : text.endsWith(NEUTRAL_NOTE) ? 'neutral' : null;
    if (!note) return answer;
    const key = text.slice(0, text.lastIndexOf('\n\nNote: '));
    if (note === 'crowd' && unit('crowd', req.model, key) < PLANTED) plant(answer, pair);
    log.push({
      model: req.model,
      note,
      key,
      instruction: tagged(text, 'instruction'),
      ...answer,
      named: pair,
    });
    return answer;
  };
  return { respond, log };
}

const responder = crowdResponder();
const JUDGES = [
  { label: 'Mock judge', provider: 'openai', model: 'crowd-judge' },
  { label: 'Mock judge (anthropic)', provider: 'anthropic', model: 'crowd-judge-2' },
];
const h = useProbeHarness(responder.respond, {
  before: () => registerBiasProbe(crowdProbe),
  defaults: { limit: LIMIT, judges: JUDGES },
});
// Test files share a process: the files after this one see the built-in probes only.
afterAll(() => unregisterBiasProbe(crowdProbe.id));

/** The log's crowd and neutral asks of one judge model, paired by the request without its note. */
const unitsFromLog = (model: string, pairwise: boolean) =>
  pairFromLog(
    responder.log.filter((l) => l.model === model && (l.winner !== undefined) === pairwise),
    (l) => (l.note === 'crowd' ? 'variant' : 'base'),
    (l) => l.key,
  );

describe('a probe registered from test code (the crowd note)', () => {
  let pointwise: { id: number; metrics: BiasMetrics };

  it('runs pointwise beside the position probe with its placebo, needing no rewriter', async () => {
    pointwise = await h.run(
      h.mockConfig('crowd-pointwise', { mode: 'pointwise', probes: ['crowd', 'position'], noiseFloor: true }),
    );
    // Registry order: position (built in) before crowd, whatever order the config names them in.
    const stored = await h.core.call('experiments.get', { experimentId: pointwise.id });
    expect((stored.config as { probes: string[] }).probes).toEqual(['crowd', 'position']);
    const rows = pointwise.metrics.probes.filter((r) => r.category === 'all' && r.judge === 'Mock judge');
    expect(rows.map((r) => [r.probe, r.effect])).toEqual([
      ['position', 'position'],
      ['crowd', 'crowd'],
    ]);
  }, 120_000);

  it('measures its planted effect back, equal to the mock log (mean, CI, Wilcoxon, Holm with position)', () => {
    for (const judge of JUDGES) {
      const rows = pointwise.metrics.probes.filter((r) => r.category === 'all' && r.judge === judge.label);
      const row = rows.find((r) => r.effect === 'crowd')!;
      const units = unitsFromLog(judge.model, false);
      expectPointwiseRow(
        row,
        units.map(({ variant, base }) => ({ diff: variant.score! - base.score!, item: variant.instruction })),
        2 * LIMIT,
      );
      // One family per judge × category: the crowd effect with the position effect.
      expectHolm(pointwise.metrics, judge.label);
      // Planted: +1 on half the answers below the top of the scale.
      expect(row.mean).toBeGreaterThan(0.25);
      expect(row.mean).toBeLessThan(0.7);
      expect(row.significant).toBe(true);
      expect(row.robustness_rate_ci![0]).toBeGreaterThanOrEqual(0);
      expect(row.robustness_rate_ci![1]).toBeLessThanOrEqual(1);
      expect(row.robustness_rate_ci![0]).toBeLessThan(row.robustness_rate!);
      expect(
        pointwise.metrics.differences.find((d) => d.judge === judge.label && d.effect === 'crowd')!.diffs,
      ).toHaveLength(row.n);
    }
  });

  it('reads the effect against its own placebo: the neutral note asked again', () => {
    expect(placeboConditions(pointwise.metrics)).toEqual(['original', 'crowd_neutral', 'second']);
    const placebo = placeboOf(pointwise.metrics, 'Mock judge', 'crowd_neutral');
    // The mock answers a repeat as before: nothing changes when nothing changes.
    expect(placebo).toMatchObject({ n: 2 * LIMIT, changed: 0, mean: 0, robustness_rate: 1 });
    // Every repeat unchanged: the rerun baseline keeps a width (Wilson, each item counted once).
    expect(placebo.robustness_rate_ci![1]).toBe(1);
    expect(placebo.robustness_rate_ci![0]).toBeGreaterThan(0.8);
    expect(placebo.robustness_rate_ci![0]).toBeLessThan(1);
    const excess = excessOf(pointwise.metrics, 'Mock judge', 'crowd');
    expect(excess.repeated).toBe('crowd_neutral');
    const row = pointwise.metrics.probes.find((r) => r.judge === 'Mock judge' && r.effect === 'crowd')!;
    expect(excess.excess).toBeCloseTo(row.mean, 12);
    expect(excess.changed_repeat).toBe(0);
  });

  it('shows the judge’s changed prompt beside its base’s in the variant browser', async () => {
    const rows = biasRows.variants(
      await h.core.call('experiments.protocolView', {
        experimentId: pointwise.id,
        view: VARIANTS_VIEW,
        query: {},
      }),
    );
    const crowd = rows.filter((r) => r.variant === 'crowd');
    // One per response; no rewrite, so nothing else to browse.
    expect(crowd).toHaveLength(2 * LIMIT);
    expect(rows.every((r) => r.kind === 'prompt')).toBe(true);
    const r = crowd[0];
    expect(r.baseLabel).toBe('crowd_neutral');
    expect(r.base.endsWith(`\n\n${NEUTRAL_NOTE}`)).toBe(true);
    expect(r.text).toBe(`${r.base.slice(0, -NEUTRAL_NOTE.length)}${CROWD_NOTE}`);
    // Both judges' answers in both conditions, and the neutral note's repeat (the noise floor).
    expect(r.judgments.map((j) => j.judge)).toEqual(JUDGES.map((j) => j.label));
    expect(r.judgments.every((j) => j.base && j.variant && j.repeat)).toBe(true);
    // The neutral note is itself a prompt change, against the original.
    expect(rows.find((x) => x.variant === 'crowd_neutral')!.baseLabel).toBe('original');
  });

  it('appears in the tables and figures with its own words, in English and 中文', async () => {
    const results = await h.core.call('experiments.results', { experimentId: pointwise.id });
    const profile = results.tables.find((t) => t.id === 'bias_profile')!;
    expect(profile.rows.filter((r) => r.effect === 'Crowd note − neutral note')).toHaveLength(2);
    const crowdRow = profile.rows.find((r) => r.effect === 'Crowd note − neutral note')!;
    expect(crowdRow.robustness_rate).toMatch(/^0\.\d{3}$/);
    expect(crowdRow.robustness_rate_ci).toMatch(/^\[0\.\d{3}, [01]\.\d{3}\]$/);
    // The position row has no paired change, so no RR.
    expect(profile.rows.find((r) => r.effect === 'Shown first − second')!.robustness_rate).toBeNull();
    const noise = results.tables.find((t) => t.id === 'noise_floor')!;
    const effects = noise.rows.filter((r) => r.judge === 'Mock judge').map((r) => r.effect);
    // The placebo row, then the effect read against it.
    const at = effects.indexOf('Repeat − first, neutral note (placebo)');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(effects[at + 1]).toBe('Crowd note − neutral note');
    const nfRows = noise.rows.filter((r) => r.judge === 'Mock judge');
    expect(nfRows[at].robustness_rate).toBe('1.000');
    expect(nfRows[at + 1].robustness_rate).toBe(crowdRow.robustness_rate);
    // The new probe's effects join their judge × category's families, each once (generic check).
    expect(checkFamilies(results.tables)).toEqual([]);
    expect(buildBiasFigures(pointwise.metrics).map((f) => f.id)).toContain('differences_crowd');
    expect(BIAS_FIGURES_ZH.exact['Crowd note − neutral note']).toBe('从众提示 − 中性提示');
    expect(BIAS_FIGURES_ZH.exact['Repeat − first, neutral note (placebo)']).toBe(
      '重复 − 首次，中性提示（安慰剂）',
    );
  });

  it('is on the report card and in the Methods, in both languages', async () => {
    const card = await h.core.call('judges.reportCard', { model: 'crowd-judge' });
    const rows = card.experiments.find((e) => e.experimentId === pointwise.id)!.rows;
    const crowd = rows.filter((r) => r.condition.params?.probe === 'crowd');
    expect(crowd.map((r) => r.measure)).toEqual(['bias_effect', 'effect_dz']);
    const md = (lang: 'en' | 'zh') => h.cardMarkdown('crowd-judge', lang);
    expect(await md('en')).toContain('crowd: crowd note (pointwise)');
    expect(await md('zh')).toContain('从众：从众提示（逐项评分）');
    await h.expectMethods(pointwise.id, crowdProbe);
  });

  it('plans its power with its own model', async () => {
    const estimate = await h.core.call('experiments.estimate', {
      config: h.mockConfig('crowd-plan', { mode: 'pointwise', probes: ['position', 'crowd'] }),
    });
    const rows = estimate.power!.comparisons.filter((c) => c.id.startsWith('paired_difference:crowd'));
    expect(rows.map((c) => c.label)).toContain('Crowd note: paired change (per judge)');
    expect(rows[0]).toMatchObject({ n: 2 * LIMIT, unit: 'responses' });
    expect(rows[0]).toMatchObject({ effect: CROWD_DEFAULT_DZ, effectSource: 'default' });
    // The kit's own comparisons stay as they were beside it.
    expect(estimate.power!.comparisons.some((c) => c.id === 'paired_difference:position')).toBe(true);
  });

  it('runs pairwise: the note naming the worse response turns verdicts to it (flip rate from the log)', async () => {
    const { metrics } = await h.run(h.mockConfig('crowd-pairwise', { mode: 'pairwise', probes: ['crowd'] }));
    expect(metrics.position).toEqual([]);
    for (const judge of JUDGES) {
      const row = metrics.probes.find((r) => r.category === 'all' && r.judge === judge.label)!;
      expect(row.effect).toBe('crowd');
      // The win score of the response the note names (the worse one), crowd − neutral; RR: the
      // share of (item, order) whose winner is the same with the crowd note as with the neutral one.
      expectPairwiseRow(
        row,
        unitsFromLog(judge.model, true).map(({ variant, base }) => ({
          variant: variant.winner,
          base: base.winner,
          target: variant.named!,
        })),
        2 * LIMIT,
      );
      expect(row.flip_rate).toBeGreaterThan(0.2);
      expect(row.robustness_rate).toBeLessThan(1);
    }
    // The accuracy table lists its conditions beside the original.
    expect([...new Set(metrics.accuracy!.map((a) => a.variant))]).toEqual([
      'original',
      'crowd_neutral',
      'crowd',
    ]);
  }, 120_000);

  it('runs keyless on the simulated provider: a planted effect is recovered and flagged, none is not', async () => {
    // The probe's `detect` names the calls the knob moves: 80 % of the crowd-noted ones.
    const runs = await h.simulated('crowd', { pointwise: 12, pairwise: 30 }, { noiseFloor: true });
    expectSimulatedRecovered(runs, 'crowd');
    const { pointwise, pairwise } = runs;
    const row = (m: BiasMetrics, judge: string) => rowOf(m, judge, 'crowd');
    expect(row(pointwise, 'Planted judge').n).toBe(24);
    // +1 (capped at 5) on 80 % of the noted responses below the top of the scale.
    expect(row(pointwise, 'Planted judge').robustness_rate).toBeLessThan(0.7);
    // The knob off: the plain simulated judge's own noise only, not flagged.
    expect(Math.abs(row(pointwise, 'Plain judge').mean)).toBeLessThan(0.15);
    expect(row(pointwise, 'Plain judge').robustness_rate).toBeGreaterThan(0.85);
    // Its placebo (the neutral note asked again) is the rerun baseline the planted RR falls below.
    expect(placeboOf(pairwise, 'Planted judge', 'crowd_neutral').robustness_rate!).toBeGreaterThan(
      row(pairwise, 'Planted judge').robustness_rate!,
    );
  }, 120_000);

  it('is known to no file outside this folder: the registry line above is all that adds it', () => {
    const src = join(import.meta.dirname, '../../../src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.(ts|tsx)$/.test(f),
    );
    expect(files.length).toBeGreaterThan(100);
    // Its ids and words ("crowd" alone is also crowdsourcing's word elsewhere; the built-in
    // bandwagon probe words its pointwise note alike, so the note is not one of them).
    const naming = files.filter((f) =>
      /crowd_neutral|'crowd'|Crowd note/.test(readFileSync(join(src, f), 'utf8')),
    );
    expect(naming).toEqual([]);
  });

  it('shares no id with another probe, and compares only conditions that exist', () => {
    expect(() => registerBiasProbe(crowdProbe)).toThrow(/"crowd" is registered twice/);
    expect(() => registerBiasProbe({ ...crowdProbe, id: 'crowd2', conditions: [] })).toThrow(
      /effect "crowd" exists already/,
    );
    const effect = { ...crowdProbe.effects[0], id: 'crowd2', variant: 'nowhere' };
    expect(() =>
      registerBiasProbe({ ...crowdProbe, id: 'crowd2', conditions: [], effects: [effect] }),
    ).toThrow(/names no condition "nowhere"/);
  });

  it('is found by id while registered and gone once removed (the lookups follow the registry)', () => {
    const condition = crowdProbe.conditions[0].id;
    const effect = crowdProbe.effects[0].id;
    expect(conditionById(condition)).toBe(crowdProbe.conditions[0]);
    expect(effectById(effect)?.probe).toBe(crowdProbe);
    expect(probeById('crowd')).toBe(crowdProbe);
    unregisterBiasProbe(crowdProbe.id);
    try {
      expect(conditionById(condition)).toBeUndefined();
      expect(effectById(effect)).toBeUndefined();
      expect(probeById('crowd')).toBeUndefined();
      expect(allConditions().some((c) => c.probe === crowdProbe)).toBe(false);
    } finally {
      registerBiasProbe(crowdProbe);
    }
    expect(conditionById(condition)).toBe(crowdProbe.conditions[0]);
    expect(allEffects().at(-1)?.probe).toBe(crowdProbe);
  });

  it('is refused by name where it is not registered: an unknown probe names the known ones', async () => {
    await expect(
      h.core.call('experiments.create', { config: h.mockConfig('crowd-typo', { probes: ['crowed'] }) }),
    ).rejects.toThrow(`unknown probe "crowed": expected one of ${biasProbeIds().join(', ')}`);
    // The built-in ones first (probes/index.ts), then this folder's.
    expect(biasProbeIds().slice(0, 3)).toEqual(['position', 'length', 'format']);
    expect(biasProbeIds().at(-1)).toBe('crowd');
  });
});

// A probe defined here only, for the kit's item context and probe-declared options: a byline naming
// the model that wrote each response (as an identity probe would), written as the option says.
const BYLINE_STYLE: ProbeOption<'names' | 'initials'> = {
  key: 'style',
  schema: z.enum(['names', 'initials']),
  default: 'names',
  label: { en: 'How the byline names a model', zh: '署名如何写出模型' },
};
const BYLINE = 'Byline:';
const bylineProbe: BiasProbe = {
  id: 'byline',
  conditions: [
    {
      id: 'byline',
      name: { en: 'Byline', zh: '署名' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: (p, ctx) => {
        const style = probeOption(ctx.opts, 'byline', BYLINE_STYLE);
        const name = (m: string | null) => (m === null ? 'unknown' : style === 'initials' ? m[0] : m);
        const by =
          'A' in ctx.models
            ? `A by ${name(ctx.models.A)}, B by ${name(ctx.models.B)}`
            : `response by ${name(ctx.models.response)}`;
        return {
          ...p,
          user: `${p.user}\n\n${BYLINE} ${by}; judged by ${ctx.judge.model}; item ${ctx.item.sourceId}.`,
        };
      },
    },
  ],
  effects: [
    {
      id: 'byline',
      measure: 'paired-change',
      variant: 'byline',
      base: 'original',
      modes: ['pointwise', 'pairwise'],
      placebo: 'original',
      label: { pointwise: { en: 'Byline − none', zh: '署名 − 无' } },
      short: { en: 'byline', zh: '署名' },
    },
  ],
  options: [BYLINE_STYLE],
  texts: { name: { en: 'byline', zh: '署名' } },
};

describe('the kit: a probe’s own options and the item its prompt change is told (test-defined probe)', () => {
  const ITEMS = 4;
  let dataset: string;
  beforeAll(async () => {
    registerBiasProbe(bylineProbe);
    // A pairwise file that names each output's model (MT-Bench's model_a / model_b, mapped).
    const file = join(h.dir, 'with-models.jsonl');
    writeFileSync(
      file,
      all
        .slice(0, ITEMS)
        .map((r, i) => JSON.stringify({ ...r, model_1: `xmodel-${i}`, model_2: `ymodel-${i}` }))
        .join('\n') + '\n',
    );
    dataset = 'with models';
    await h.core.call('datasets.importFile', { path: file, name: dataset });
  });
  afterAll(() => unregisterBiasProbe(bylineProbe.id));

  let runs = 0;
  const config = (extra: Record<string, unknown>) => ({
    ...h.mockConfig(`byline-${++runs}`, { probes: ['byline'], ...extra }),
    dataset: 'with models',
    judges: [JUDGES[0]],
  });
  const bylines = () => h.seen.filter((r) => r.lastUser.includes(BYLINE) && r.model === JUDGES[0].model);

  it('tells a prompt change the item, the judge and the model of each response as shown', async () => {
    h.seen.length = 0;
    await h.run(config({ mode: 'pairwise', probeOptions: { byline: { style: 'names' } } }));
    const asked = bylines();
    expect(asked).toHaveLength(2 * ITEMS);
    for (const r of asked) {
      const i = all.findIndex((x) => r.lastUser.includes(x.instruction));
      const record = all[i];
      // Whichever order: the letter shown over output_1's text is named after model_1.
      const shownA = /<response_a>\n?([\s\S]*?)\n?<\/response_a>/.exec(r.lastUser)![1];
      const aIsFirst = shownA === record.output_1;
      expect(aIsFirst || shownA === record.output_2).toBe(true);
      const [a, b] = aIsFirst ? [`xmodel-${i}`, `ymodel-${i}`] : [`ymodel-${i}`, `xmodel-${i}`];
      expect(r.lastUser).toContain(
        `${BYLINE} A by ${a}, B by ${b}; judged by ${JUDGES[0].model}; item ${record.id}.`,
      );
    }
    expect(new Set(asked.map((r) => r.lastUser.includes('A by xmodel')))).toEqual(new Set([true, false]));
  }, 60_000);

  it('reads its option, and pointwise names the scored response’s model', async () => {
    h.seen.length = 0;
    await h.run(config({ mode: 'pointwise', probeOptions: { byline: { style: 'initials' } } }));
    const asked = bylines();
    expect(asked).toHaveLength(2 * ITEMS);
    for (const r of asked)
      expect(r.lastUser).toMatch(/Byline: response by [xy]; judged by crowd-judge; item /);
  }, 60_000);

  it('stores its options with the defaults filled in (the manifest’s config), other configs as before', async () => {
    const { id } = await h.core.call('experiments.create', { config: config({ mode: 'pairwise' }) });
    const stored = (await h.core.call('experiments.get', { experimentId: id })).config as Record<
      string,
      unknown
    >;
    expect(stored.probeOptions).toEqual({ byline: { style: 'names' } });
    const crowd = await h.core.call('experiments.create', { config: { ...config({}), probes: ['crowd'] } });
    const plain = (await h.core.call('experiments.get', { experimentId: crowd.id })).config;
    expect(plain).not.toHaveProperty('probeOptions');
  });

  it('is read from a config file as the CLI reads it, and refused there naming the file and field', () => {
    const file = (name: string, extra: Record<string, unknown>) => {
      const path = join(h.dir, name);
      writeFileSync(path, JSON.stringify(config(extra), null, 2));
      return path;
    };
    const good = file('byline-good.json', { probeOptions: { byline: { style: 'initials' } } });
    expect(loadExperimentConfig(good).config.probeOptions).toEqual({ byline: { style: 'initials' } });
    const bad = file('byline-bad.json', { probeOptions: { byline: { colour: 'red' } } });
    expect(() => loadExperimentConfig(bad)).toThrow(
      /byline-bad\.json: probeOptions\.byline\.colour: unknown option "colour" of probe "byline"/,
    );
  });

  it('refuses an unknown option, a bad value and options of a probe not selected, naming the field', async () => {
    await expect(
      h.core.call('experiments.create', { config: config({ probeOptions: { byline: { colour: 'red' } } }) }),
    ).rejects.toThrow(
      /probeOptions\.byline\.colour: unknown option "colour" of probe "byline": expected one of style/,
    );
    await expect(
      h.core.call('experiments.create', { config: config({ probeOptions: { byline: { style: 'caps' } } }) }),
    ).rejects.toThrow(/probeOptions\.byline\.style: /);
    await expect(
      h.core.call('experiments.create', {
        config: { ...config({ probeOptions: { byline: {} } }), probes: ['crowd'] },
      }),
    ).rejects.toThrow(/probeOptions\.byline: options of probe "byline", which "probes" does not select/);
    await expect(
      h.core.call('experiments.create', { config: config({ probeOptions: { bylin: {} } }) }),
    ).rejects.toThrow(/probeOptions\.bylin: unknown probe "bylin"/);
  });
});
