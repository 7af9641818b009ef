// Reference sensitivity end to end through the core against the mock provider (both wire
// formats), on the bundled TyDi QA sample, with planted over-acceptance: C2 and flip rates
// land within sampling error of the planted rates, and the metrics equal values recomputed
// here from the mock's own log.
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { pickWrongAnswers } from '../../../src/main/protocols/reference-sensitivity/plan';
import type { RefSensMetrics } from '../../../src/shared/protocols/reference-sensitivity/types';
import type { FlipsView } from '../../../src/shared/protocols/reference-sensitivity/views';
import { tempDir } from '../../helpers/tmp';
import { refSensResponder, WRONG_ACCEPT, type QaRecord } from '../../mock-provider/refsens-responder';
import { startMockProvider, type MockProvider } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/tydiqa-en-ar-te.jsonl');
const items: QaRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as QaRecord);

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
const responder = refSensResponder(items);

const JUDGES = [
  { label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini' },
  { label: 'Claude judge', provider: 'anthropic', model: 'claude-haiku-4-5' },
];
const GENERATORS = [
  { label: 'GPT gen', provider: 'openai', model: 'gen-openai' },
  { label: 'Claude gen', provider: 'anthropic', model: 'gen-anthropic' },
];

function config(url: string) {
  return {
    name: 'refsens-run',
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    seed: 7,
    providers: {
      openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 16 },
      anthropic: { kind: 'anthropic', baseURL: url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 16 },
    },
    generators: GENERATORS,
    judges: JUDGES,
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  mock = await startMockProvider({ latencyMs: [0, 1], respond: responder.respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

/** The verdict the mock gave for (judge model, setting, question, answer), from its log. */
function logged(model: string, setting: string, question: string, answer: string) {
  const hits = responder.judgments.filter(
    (j) => j.model === model && j.setting === setting && j.question === question && j.answer === answer,
  );
  expect(hits.length).toBeGreaterThan(0);
  return hits[0].verdict;
}

describe('reference sensitivity against the mock provider', () => {
  let metrics: RefSensMetrics;
  let id: number;

  it('runs every stage to the end on both wire formats', async () => {
    ({ id } = await core.call('experiments.create', { config: config(mock.url) }));
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.protocol).toBe('reference-sensitivity');
    // 2 generators × 450 + 2 judges × (450 C1 + 450 C2 + 2 × 450 answers × 3 settings)
    expect(results.counts).toMatchObject({ planned: 900 + 2 * (900 + 2700), failed: 0, pending: 0 });
    metrics = results.metrics as RefSensMetrics;
    expect(Object.keys(metrics)).toEqual([
      'calibration',
      'acceptance',
      'flips',
      'string_baseline',
      'human',
      'usage',
      'failures',
    ]);
  }, 600_000);

  it('finds the planted C2 rates within sampling error (Telugu 40%, others 10%)', () => {
    for (const row of metrics.calibration) {
      const planted = WRONG_ACCEPT[row.language][0];
      const se = Math.sqrt((planted * (1 - planted)) / row.n);
      expect(row.n).toBe(150);
      expect(Math.abs(row.c2_accept! - planted)).toBeLessThan(3.5 * se);
      expect(row.c2_accept_ci![0]).toBeLessThan(row.c2_accept!);
      expect(row.cgp).toBeCloseTo(row.c1_accept! - row.c2_accept!, 12);
    }
  });

  it('compares its two judges on the calibration probes (graded by the probe, not by a person)', async () => {
    const r = await core.call('experiments.compare', {
      a: { experimentId: id, judge: 'GPT judge' },
      b: { experimentId: id, judge: 'Claude judge' },
    });
    // No imported human labels in this run: only the calibration probes are graded.
    expect(r.rows.map((x) => x.condition)).toEqual(['calibration']);
    const [row] = r.rows;
    expect(row.n).toBe(900);
    expect(row.items).toBe(450);
    // Right = accepting the gold answer (C1) or rejecting the wrong one (C2).
    const accuracy = (judge: string) => {
      const rows = metrics.calibration.filter((c) => c.judge === judge);
      const n = rows.reduce((t, c) => t + c.n, 0);
      return rows.reduce((t, c) => t + c.n * (c.c1_accept! + 1 - c.c2_accept!), 0) / (2 * n);
    };
    expect(row.accuracy_a).toBeCloseTo(accuracy('GPT judge'), 12);
    expect(row.accuracy_b).toBeCloseTo(accuracy('Claude judge'), 12);
  });

  it('equals calibration and acceptance recomputed from the mock log', () => {
    const wrong = pickWrongAnswers(
      items.map((i, k) => ({ ...i, sourceId: i.id, id: k, context: null, category: null })),
      7,
    );
    for (const judge of JUDGES)
      for (const language of ['en', 'ar', 'te']) {
        const row = metrics.calibration.find((r) => r.judge === judge.label && r.language === language)!;
        const langItems = items.filter((i) => i.language === language);
        const c1 = langItems.filter((i) => logged(judge.model, 'NR', i.question, i.answers[0]) === 'CORRECT');
        const c2 = langItems.filter(
          (i) => logged(judge.model, 'NR', i.question, wrong.get(i.id)!.answers[0]) === 'CORRECT',
        );
        expect(row.c1_accept).toBe(c1.length / 150);
        expect(row.c2_accept).toBe(c2.length / 150);
        for (const setting of ['NR', 'RV', 'RC'] as const) {
          let accepted = 0;
          let n = 0;
          for (const gen of GENERATORS)
            for (const i of langItems) {
              const g = responder.generations.find(
                (x) => x.model === gen.model && x.question === i.question,
              )!;
              n++;
              if (logged(judge.model, setting, i.question, g.answer) === 'CORRECT') accepted++;
            }
          const acc = metrics.acceptance.find(
            (r) =>
              r.judge === judge.label &&
              r.generator === 'all' &&
              r.language === language &&
              r.setting === setting,
          )!;
          expect(acc.n).toBe(n);
          expect(acc.accept_rate).toBe(accepted / n);
        }
      }
  });

  it('shows the planted Telugu NR→RV flips: wrong answers accepted without a reference, rejected with one', () => {
    for (const judge of JUDGES) {
      const te = metrics.flips.find(
        (r) =>
          r.judge === judge.label && r.generator === 'all' && r.language === 'te' && r.transition === 'NR-RV',
      )!;
      // Wrong answers are ~40% of 300; a flip needs NR accept (40%) and RV reject (95%) – the
      // responder draws once per answer, so RV accepts only where NR does.
      let flips = 0;
      for (const gen of GENERATORS)
        for (const i of items.filter((x) => x.language === 'te')) {
          const g = responder.generations.find((x) => x.model === gen.model && x.question === i.question)!;
          if (
            logged(judge.model, 'NR', i.question, g.answer) !==
            logged(judge.model, 'RV', i.question, g.answer)
          )
            flips++;
        }
      expect(te.n).toBe(300);
      expect(te.flip_rate).toBe(flips / 300);
      expect(te.correct_to_incorrect).toBe(flips);
      expect(te.incorrect_to_correct).toBe(0);
      const wrongShare = 0.4;
      const planted = wrongShare * (0.4 - 0.05);
      expect(Math.abs(te.flip_rate! - planted)).toBeLessThan(
        3.5 * Math.sqrt((planted * (1 - planted)) / 300),
      );
      expect(te.mcnemar_p).toBeLessThan(0.001);
      const rvRc = metrics.flips.find(
        (r) =>
          r.judge === judge.label && r.generator === 'all' && r.language === 'te' && r.transition === 'RV-RC',
      )!;
      expect(rvRc.flip_rate).toBe(0);
    }
  });

  it('exports metrics, judgments, tables and figures', async () => {
    const out = join(dir, 'export');
    const exported = await core.call('experiments.export', { experimentId: id, outDir: out });
    expect(exported.files).toEqual(
      expect.arrayContaining([
        'metrics.json',
        'judgments.csv',
        'manifest.json',
        'tables/calibration.csv',
        'tables/flips.tex',
        'figures/calibration.svg',
        'figures/acceptance_heatmap.png',
        'figures/flips.svg',
      ]),
    );
    expect(JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'))).toEqual(metrics);
    const csv = readFileSync(join(out, 'judgments.csv'), 'utf8');
    expect(csv.split('\r\n').filter((l) => l !== '')).toHaveLength(1 + 2 * (900 + 2700));
    // texts.csv (issue 26 item 3): every generated answer with its question, keyed like the
    // sensitivity rows of judgments.csv; each answer is one the judges were logged grading.
    const table = (name: string) =>
      parse(readFileSync(join(out, name), 'utf8').replace(/^\uFEFF/, ''), { columns: true }) as Record<
        string,
        string
      >[];
    const texts = table('texts.csv');
    expect(texts).toHaveLength(GENERATORS.length * items.length);
    const byKey = new Map(texts.map((t) => [`${t.item_id}|${t.generator}`, t]));
    expect(byKey.size).toBe(texts.length);
    for (const j of table('judgments.csv').filter((r) => r.kind === 'sensitivity')) {
      const t = byKey.get(`${j.item_id}|${j.generator}`)!;
      expect(t.answer).toBe(j.shown_answer);
      expect(t.language).toBe(j.language);
    }
    for (const t of texts) {
      const q = items.find((i) => i.id === t.item_id)!;
      expect(t.question).toBe(q.question);
      expect(JSON.parse(t.gold_answers)).toEqual(q.answers);
      expect(t.source).toBe('generated');
      expect(responder.judgments.some((j) => j.question === q.question && j.answer === t.answer)).toBe(true);
    }
    expect(existsSync(join(out, 'tables/human.csv'))).toBe(false);
  });

  const flips = (query: Record<string, unknown>) =>
    core.call('experiments.protocolView', { experimentId: id, view: 'flips', query }) as Promise<FlipsView>;

  it('lists the flips of the flip browser, agreeing with the metrics and the mock log', async () => {
    for (const judge of JUDGES) {
      const te = metrics.flips.find(
        (r) =>
          r.judge === judge.label && r.generator === 'all' && r.language === 'te' && r.transition === 'NR-RV',
      )!;
      const view = await flips({ judge: judge.label, language: 'te', transition: 'NR-RV' });
      expect(view.total).toBe(te.correct_to_incorrect + te.incorrect_to_correct);
      expect(view.judges).toEqual(JUDGES.map((j) => j.label));
      expect(view.languages).toEqual(['en', 'ar', 'te']);
      expect(view.settings).toEqual(['NR', 'RV', 'RC']);
      for (const row of view.rows) {
        expect(row).toMatchObject({ judge: judge.label, language: 'te', humanLabel: null });
        const item = items.find((i) => i.id === row.sourceId)!;
        expect(row.question).toBe(item.question);
        expect(row.gold).toEqual(item.answers);
        const gen = GENERATORS.find((g) => g.label === row.generator)!;
        expect(row.answer).toBe(
          responder.generations.find((x) => x.model === gen.model && x.question === item.question)!.answer,
        );
        for (const setting of ['NR', 'RV', 'RC'] as const) {
          const v = row.verdicts[setting]!;
          expect(v.verdict).toBe(logged(judge.model, setting, item.question, row.answer));
          expect(v.explanation).toBe(`mock ${setting}`);
          expect(v.extracted).toBe(row.answer.slice(0, 40));
        }
        expect(row.flips['NR-RV']).toBe('correct_to_incorrect');
      }
    }
    const all = await flips({ flipsOnly: false });
    // 2 judges × 2 generators × 450 answers.
    expect(all.total).toBe(1800);
    const i2c = await flips({ change: 'incorrect_to_correct', transition: 'NR-RV' });
    expect(i2c.total).toBe(
      metrics.flips
        .filter((r) => r.generator === 'all' && r.transition === 'NR-RV')
        .reduce((n, r) => n + r.incorrect_to_correct, 0),
    );
    const page = await flips({ flipsOnly: false, offset: 10, limit: 5 });
    expect(page.rows.map((r) => r.sourceId)).toEqual(all.rows.slice(10, 15).map((r) => r.sourceId));
  });

  it('refuses a bad flip-browser query naming the field, and an unknown view', async () => {
    await expect(flips({ transition: 'NR-XX' })).rejects.toThrow(/transition/);
    await expect(flips({ limit: 0 })).rejects.toThrow(/limit/);
    await expect(
      core.call('experiments.protocolView', { experimentId: id, view: 'nope', query: {} }),
    ).rejects.toThrow(/offers no "nope" view/);
  });

  it('previews the real prompts of an item for the wizard, with edited templates', async () => {
    const preview = await core.call('experiments.previewPrompts', {
      config: {
        ...config(mock.url),
        templates: { judgeUserRV: 'REF {{reference}} Q {{question}} A {{answer}}' },
      },
    });
    const item = items.find((i) => i.id === preview.sourceId)!;
    // Stage by stage, in the order they are sent: generate, calibrate, judge.
    expect(preview.prompts.map((p) => p.stage)).toEqual([
      'generate',
      'calibrate',
      'calibrate',
      'judge',
      'judge',
      'judge',
    ]);
    const generate = preview.prompts.filter((p) => p.stage === 'generate');
    const judge = preview.prompts.filter((p) => p.stage !== 'generate');
    expect(generate.map((p) => p.label)).toEqual([`Generator GPT gen (${item.language})`]);
    expect(generate[0].user).toBe(item.question);
    expect(judge.map((p) => p.label)).toEqual([
      'Calibration C1 (gold answer, no reference)',
      expect.stringMatching(/^Calibration C2 \(wrong answer from .+, no reference\)$/),
      'Judge NR (gold answer shown as the answer)',
      'Judge RV (gold answer shown as the answer)',
      'Judge RC (gold answer shown as the answer)',
    ]);
    expect(judge[3].user).toBe(
      `REF ${item.answers.map((a) => `- ${a}`).join('\n')} Q ${item.question} A ${item.answers[0]}`,
    );
    expect(judge[2].user).not.toContain('Reference');
  });
});
