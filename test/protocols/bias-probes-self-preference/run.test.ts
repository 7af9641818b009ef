// The self-preference probe (src/shared/protocols/bias-probes/probes/self-preference.ts) end to
// end: a pairwise file naming each response's model (model_1 / model_2), the judges' original
// verdicts in both orders read against the human label on the items where exactly one response is
// by the judge's own model (the probe's model mapping). Against the mock in both wire formats, a
// judge planted to prefer "its" answers (recognised by a content marker in the data) shows an
// excess self-win rate that the metrics recover exactly from the mock's log; a judge without the
// planting is not flagged; a judge with no own answer in the data gets "undefined (why)". Keyless
// on the simulated provider with the `-bias-self_preference<NN>` knob. Refused on data that names
// no model, and in pointwise mode.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OWN_MODELS,
  isOwnAnswer,
  SIMULATED_OWN_MARK,
  selfPreferenceProbe,
} from '../../../src/shared/protocols/bias-probes/probes/self-preference';
import type { BiasMetrics, OwnAnswersRow } from '../../../src/shared/protocols/bias-probes/types';
import { clusteredPairedEffect } from '../../../src/shared/stats';
import { checkFamilies } from '../../../src/shared/report/families';
import { matchVerdicts, rowFilter } from '../../../src/shared/verdicts';
import { biasTableText } from '../../../src/renderer/src/protocols/bias-probes/table-text';
import type { MockRequest } from '../../mock-provider/server';
import {
  fnvUnit as unit,
  isNullJudge,
  itemMeansWilcoxon,
  RECORDS,
  rowOf,
  simConfig,
  simJudges,
  tagged,
  useProbeHarness,
} from '../../helpers/probe-harness';

/** Items with exactly one own answer; then 2 with both own and 2 with none (left out). */
const ONE_OWN = 20;
const ITEMS = ONE_OWN + 4;
const OWN = 'own-model';
const OTHER = 'other-model';
/** The planted share of verdicts turned to the own answer, and the base judge's accuracy. */
const PLANTED = 0.6;
const SKILL = 0.8;

/**
 * The dataset: on half of the one-own items the own answer is the human-preferred one, so a judge
 * without self-preference and symmetric errors has an excess near 0. Own answers carry the marker.
 */
const records = RECORDS.slice(0, ITEMS).map((r, i) => {
  const ownSlot: 1 | 2 = i < ONE_OWN ? (i % 2 === 0 ? r.label : r.label === 1 ? 2 : 1) : 1;
  const own = (slot: 1 | 2) => (i < ONE_OWN ? slot === ownSlot : i < ONE_OWN + 2);
  const mark = (text: string, slot: 1 | 2) => (own(slot) ? `${text}\n\n${SIMULATED_OWN_MARK}` : text);
  return {
    ...r,
    output_1: mark(r.output_1, 1),
    output_2: mark(r.output_2, 2),
    model_1: own(1) ? OWN : OTHER,
    model_2: own(2) ? OWN : OTHER,
  };
});

interface Logged {
  model: string;
  item: string;
  /** The letter the own answer was shown under (null: none or both own). */
  own: 'A' | 'B' | null;
  winner: 'A' | 'B';
  /** Its letter's text is the human-preferred one. */
  gold: 'A' | 'B';
}

/** A pairwise judge that picks the better response with SKILL, and (unless `-null`) its own with PLANTED. */
function selfResponder() {
  const log: Logged[] = [];
  const respond = (req: MockRequest): unknown => {
    const a = tagged(req.lastUser, 'response_a');
    const b = tagged(req.lastUser, 'response_b');
    const record = records.find(
      (r) => (r.output_1 === a && r.output_2 === b) || (r.output_1 === b && r.output_2 === a),
    )!;
    const goldText = record.label === 1 ? record.output_1 : record.output_2;
    const gold: 'A' | 'B' = a === goldText ? 'A' : 'B';
    const marked = (['A', 'B'] as const).filter((x) => (x === 'A' ? a : b).includes(SIMULATED_OWN_MARK));
    const own = marked.length === 1 ? marked[0] : null;
    let winner: 'A' | 'B' = unit('skill', req.model, req.lastUser) < SKILL ? gold : gold === 'A' ? 'B' : 'A';
    if (own && !isNullJudge(req.model) && unit('self', req.model, req.lastUser) < PLANTED) winner = own;
    log.push({ model: req.model, item: record.id, own, winner, gold });
    return { winner, confidence: 0.8, reason: `Response ${winner} answers better.` };
  };
  return { respond, log };
}

const responder = selfResponder();
const DATASET = 'with answer models';

const JUDGES = [
  { label: 'OpenAI judge', provider: 'openai', model: 'self-judge' },
  { label: 'Anthropic judge', provider: 'anthropic', model: 'self-judge-2' },
  { label: 'Fair judge', provider: 'openai', model: 'self-judge-null' },
  { label: 'Stranger', provider: 'openai', model: 'stranger-judge' },
];
/** The study's mapping: the self-judge family owns `own-model`'s answers; the stranger owns none. */
const MODELS = { 'self-judge*': [OWN] };

const h = useProbeHarness(responder.respond, {
  setup: async (core, dir) => {
    const file = join(dir, 'with-models.jsonl');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await h.core.call('datasets.importFile', { path: file, name: DATASET });
  },
  defaults: {
    dataset: DATASET,
    judges: JUDGES,
    mode: 'pairwise',
    probes: ['self_preference'],
    probeOptions: { self_preference: { models: MODELS } },
  },
});

const ownRow = (m: BiasMetrics, judge: string): OwnAnswersRow =>
  m.own_answers!.find((r) => r.judge === judge && r.category === 'all')!;

describe('the self-preference probe (a judge’s verdicts on its own model’s answers vs the human labels)', () => {
  let mockRun: { id: number; metrics: BiasMetrics };

  it('runs pairwise on a file naming the answer models, asking only the original pair in both orders', async () => {
    mockRun = await h.run(h.mockConfig('self-preference'));
    // No perturbation: two calls per item and judge, the original pair in both orders.
    expect(responder.log.filter((l) => l.model === 'self-judge')).toHaveLength(2 * ITEMS);
    const stored = await h.core.call('experiments.get', { experimentId: mockRun.id });
    // The mapping the run used is in the stored config, so in the manifest.
    expect((stored.config as { probeOptions: unknown }).probeOptions).toEqual({
      self_preference: { models: MODELS },
    });
  }, 120_000);

  it('recovers the planted excess from the mock log (self-win, human, excess, CI, Wilcoxon), both wire formats', () => {
    for (const judge of JUDGES.slice(0, 3)) {
      const log = responder.log.filter((l) => l.model === judge.model && l.own !== null);
      const items = log.map((l) => l.item);
      const win = log.map((l): number => (l.winner === l.own ? 1 : 0));
      const ref = log.map((l) => (l.gold === l.own ? 1 : 0));
      const diffs = win.map((w, i) => w - ref[i]);
      const row = ownRow(mockRun.metrics, judge.label);
      expect(row.n_pairs).toBe(ONE_OWN);
      expect(row.both_own).toBe(2);
      expect(row.own_models).toEqual([OWN]);
      expect(row.reference_win_rate.mean).toBe(0.5);
      expect(row.self_win_rate.mean).toBeCloseTo(win.reduce((a, b) => a + b, 0) / win.length, 12);
      const e = clusteredPairedEffect(diffs, items, [-1, 1]);
      expect(row.excess.mean).toBeCloseTo(e.mean, 12);
      const profile = rowOf(mockRun.metrics, judge.label, 'self_preference');
      expect(profile.n).toBe(2 * ONE_OWN);
      // The same numbers summed in another order: equal to the last bits.
      expect(profile.mean_ci![0]).toBeCloseTo(e.ci![0], 12);
      expect(profile.mean_ci![1]).toBeCloseTo(e.ci![1], 12);
      const w = itemMeansWilcoxon(diffs, items)!;
      expect(row.excess.p).toBe(w.p);
      expect(profile.p).toBe(w.p);
      // The length strata split the same items; the balanced excess averages their excess.
      const [longer, other] = row.strata;
      expect(longer.excess.n + other.excess.n).toBe(ONE_OWN);
      if (row.length_balanced.mean !== null)
        expect(row.length_balanced.mean).toBeCloseTo((longer.excess.mean! + other.excess.mean!) / 2, 12);
      for (const ci of [row.excess.ci, row.length_balanced.ci, row.self_win_rate.ci])
        if (ci) expect(ci[0] >= -1 && ci[1] <= 1).toBe(true);
      if (isNullJudge(judge.model)) {
        expect(profile.significant).toBe(false);
        expect(Math.abs(row.excess.mean!)).toBeLessThan(0.2);
      } else {
        expect(profile.significant).toBe(true);
        expect(row.excess.mean!).toBeGreaterThan(0.15);
        expect(row.length_balanced.mean!).toBeGreaterThan(0.15);
        expect(row.length_balanced.p!).toBeLessThan(0.05);
      }
    }
  });

  it('says why it is undefined for a judge none of whose answers are in the data', () => {
    const row = ownRow(mockRun.metrics, 'Stranger');
    expect(row).toMatchObject({ n_pairs: 0, own_models: [], self_win_rate: { mean: null, ci: null } });
    expect(row.undefined_reason).toMatch(
      /no item has exactly one response by the judge's own model \(judge model stranger-judge/,
    );
    expect(mockRun.metrics.probes.some((r) => r.judge === 'Stranger')).toBe(false);
  });

  it('shows the table (EN), links the profile cells to the verdicts, and puts the excess and its gate on the card', async () => {
    const results = await h.core.call('experiments.results', { experimentId: mockRun.id });
    const table = results.tables.find((t) => t.id === 'own_answers')!;
    // One category in the data: its rows stand for "all" (the table drops the echoed pool).
    const stranger = table.rows.find((r) => r.judge === 'Stranger')!;
    expect(String(stranger.self_win)).toMatch(/^undefined \(no item has exactly one response/);
    expect(table.rows.find((r) => r.judge === 'OpenAI judge')!.n_pairs).toBe(ONE_OWN);
    // 中文 on screen: title, caption, every header and the undefined reason.
    const zh = biasTableText(table, mockRun.metrics, 'zh');
    expect(zh.title).toBe('自我偏好：超额自胜率');
    expect(zh.caption).toMatch(/^恰有一个回答由评审自身模型写成/);
    for (const c of table.columns) if (c.header !== 'p') expect(zh.headerText!(c), c.key).not.toBe(c.header);
    const selfWin = table.columns.find((c) => c.key === 'self_win')!;
    expect(zh.cellText!(selfWin, stranger, String(stranger.self_win))).toBe(
      '无定义（没有恰有一个回答由评审自身模型写成的条目；评审模型 stranger-judge，计为其自身的回答模型：数据中没有）',
    );
    expect(checkFamilies(results.tables)).toEqual([]);
    const { links } = await h.core.call('experiments.verdictLinks', { experimentId: mockRun.id });
    const link = links.find((l) => l.table === 'bias_profile')!;
    const { rows } = await h.core.call('experiments.verdicts', { experimentId: mockRun.id });
    const profile = results.tables.find((t) => t.id === 'bias_profile')!;
    const selfRow = profile.rows.find(
      (r) => r.judge === 'OpenAI judge' && r.effect === 'Own answer: judge − human win rate',
    )!;
    const behind = matchVerdicts(rows, rowFilter(link, selfRow)!);
    expect(behind).toHaveLength(2 * ONE_OWN);
    const diffs = behind.map((v) => {
      const [human, judge] = v.verdict.split(' → ').map(Number);
      return judge - human;
    });
    expect((diffs.reduce((a, b) => a + b, 0) / diffs.length).toFixed(3)).toBe(selfRow.mean);
    const card = await h.core.call('judges.reportCard', { model: 'self-judge' });
    const cardRows = card.experiments.find((e) => e.experimentId === mockRun.id)!.rows;
    expect(cardRows.map((r) => r.measure)).toEqual([
      'self_win_rate',
      'excess_self_win',
      'excess_self_win_balanced',
    ]);
    const row = ownRow(mockRun.metrics, 'OpenAI judge');
    expect(cardRows[2].value).toBe(row.length_balanced.mean);
    const gate = card.gates.find((g) => g.definition.id === 'self_preference')!;
    expect(gate.status).toBe('fail');
    const md = (lang: 'en' | 'zh') => h.cardMarkdown('self-judge', lang);
    expect(await md('en')).toContain('Excess self-win rate (length-balanced)');
    expect(await md('zh')).toContain('超额自胜率（长度平衡）');
    const fair = await h.core.call('judges.reportCard', { model: 'self-judge-null' });
    expect(fair.gates.find((g) => g.definition.id === 'self_preference')!.status).not.toBe('fail');
    await h.expectMethods(mockRun.id, selfPreferenceProbe);
  });

  it('runs keyless on the simulated provider: the planted knob is recovered, the plain judge is not flagged', async () => {
    const { metrics } = await h.run(
      simConfig('self-preference-simulated', {
        dataset: DATASET,
        judges: simJudges('self_preference', false),
        mode: 'pairwise',
        probes: ['self_preference'],
        probeOptions: { self_preference: { models: { 'sim-judge*': [OWN] } } },
      }),
    );
    const profile = (judge: string) => rowOf(metrics, judge, 'self_preference');
    expect(ownRow(metrics, 'Planted judge').n_pairs).toBe(ONE_OWN);
    expect(ownRow(metrics, 'Planted judge').excess.mean!).toBeGreaterThan(0.2);
    expect(profile('Planted judge').significant).toBe(true);
    expect(profile('Plain judge').significant).toBe(false);
    expect(ownRow(metrics, 'Planted judge').self_win_rate.mean!).toBeGreaterThan(
      ownRow(metrics, 'Plain judge').self_win_rate.mean!,
    );
  }, 120_000);

  it('is refused on data that names no answer model, and in pointwise mode', async () => {
    await expect(
      h.core.call('experiments.create', {
        config: h.mockConfig('self-no-models', { dataset: 'LLMBar (sample)', limit: 4 }),
      }),
    ).rejects.toThrow(/no item names the model that wrote its responses; the self_preference probe compares/);
    await expect(
      h.core.call('experiments.estimate', { config: h.mockConfig('self-pointwise', { mode: 'pointwise' }) }),
    ).rejects.toThrow(/the self_preference probe measures nothing in pointwise mode/);
  });

  it('plans its power on the items whose two responses name different models', async () => {
    const estimate = await h.core.call('experiments.estimate', { config: h.mockConfig('self-plan') });
    const row = estimate.power!.comparisons.find((c) => c.id === 'paired_difference:self_preference')!;
    // The four items whose two answers are by one model (own-model twice, other-model twice)
    // cannot be any judge's own-answer pair.
    expect(row).toMatchObject({ n: ONE_OWN, unit: 'items' });
  });

  it('maps judge models to answer models by the editable patterns (default: families)', () => {
    expect(isOwnAnswer('gpt-4-0613', 'gpt-4', DEFAULT_OWN_MODELS)).toBe(true);
    expect(isOwnAnswer('GPT-4o', 'gpt-4', DEFAULT_OWN_MODELS)).toBe(true);
    expect(isOwnAnswer('claude-3-5-sonnet', 'claude-v1', DEFAULT_OWN_MODELS)).toBe(true);
    expect(isOwnAnswer('claude-3-5-sonnet', 'gpt-4', DEFAULT_OWN_MODELS)).toBe(false);
    expect(isOwnAnswer('gpt-3.5-turbo', 'gpt-4', DEFAULT_OWN_MODELS)).toBe(false);
    // A judge no pattern names owns the answers of its exact model name only.
    expect(isOwnAnswer('mistral-large', 'mistral-large', DEFAULT_OWN_MODELS)).toBe(true);
    expect(isOwnAnswer('mistral-large', 'mistral-small', DEFAULT_OWN_MODELS)).toBe(false);
  });
});
