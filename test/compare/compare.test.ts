// Compare runs through the core's API: two judges of one experiment, and two prompt-template
// variants (two experiments) on the same items, against the Judge-LS mock provider.
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResult } from '../../src/shared/compare';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { loadExperiment } from '../../src/main/experiments/load';
import { metricsContext } from '../../src/main/experiments/results';
import { clusteredMcnemarExact, holmAdjust, mcnemarExact } from '../../src/shared/stats';
import { formatCell } from '../../src/shared/report/table';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock;
let pilot: number;
let variant: number;

const config = (name: string, judgeUser?: string) => ({
  name,
  protocol: 'judge-ls',
  dataset: env.datasetId,
  limit: 12,
  providers: { o: { kind: 'openai', baseURL: `${env.mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
  transform: { provider: 'o', model: 'gpt-4.1-mini', languages: ['ZH'] },
  judges: [
    { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' },
    { label: 'Haiku', provider: 'o', model: 'claude-haiku-4-5' },
  ],
  tieProbes: false,
  ...(judgeUser ? { options: { templates: { judgeUser } } } : {}),
});

beforeAll(async () => {
  env = await startLlmbarMock();
  const { core } = env;
  pilot = (await core.call('experiments.create', { config: config('pilot') })).id;
  expect((await core.experiments.runToEnd(pilot)).status).toBe('finished');
  // The same study with a reworded judge prompt: the template variant to compare against.
  const reworded =
    'Pick the response that follows the instruction more closely.\n\n<instruction>\n{{instruction}}\n</instruction>\n\n' +
    '<response_a>\n{{output_a}}\n</response_a>\n\n<response_b>\n{{output_b}}\n</response_b>\n\n' +
    'Answer as JSON with "winner" ("A", "B" or "tie"), "confidence" and "reason".';
  variant = (await core.call('experiments.create', { config: config('reworded', reworded) })).id;
  expect((await core.experiments.runToEnd(variant)).status).toBe('finished');
}, 120_000);
afterAll(() => env?.close());

const row = (r: CompareResult, condition: string, judge = 'GPT') =>
  r.rows.find((x) => x.condition === condition && x.judge_a === judge)!;

describe('experiments.compare', () => {
  it('puts two judges of one experiment side by side with paired tests on the same verdict slots', async () => {
    const { core } = env;
    const r = await core.call('experiments.compare', {
      a: { experimentId: pilot, judge: 'GPT' },
      b: { experimentId: pilot, judge: 'Haiku' },
    });
    expect(r.rows.map((x) => `${x.judge_a}/${x.judge_b} ${x.condition}`)).toEqual([
      'GPT/Haiku EN',
      'GPT/Haiku ZH',
      'GPT/Haiku all',
    ]);
    // Every verdict is valid here, so each side's accuracy is the judge's own strict accuracy.
    const { metrics } = (await core.call('experiments.results', { experimentId: pilot })) as unknown as {
      metrics: JudgeLsMetrics;
    };
    for (const lang of ['EN', 'ZH'] as const) {
      const x = row(r, lang);
      const qa = metrics.quality.find((q) => q.judge === 'GPT' && q.language === lang)!;
      const qb = metrics.quality.find((q) => q.judge === 'Haiku' && q.language === lang)!;
      expect(x.n).toBe(24);
      expect(x.items).toBe(12);
      expect(x.accuracy_a).toBeCloseTo(qa.accuracy_strict, 12);
      expect(x.accuracy_b).toBeCloseTo(qb.accuracy_strict, 12);
      expect(x.delta).toBeCloseTo(qb.accuracy_strict - qa.accuracy_strict, 12);
      // Discordant counts explain the accuracy difference; agreement is the rest.
      expect((x.b_only_correct - x.a_only_correct) / x.n).toBeCloseTo(x.delta, 12);
      expect(x.agreement).toBeCloseTo(1 - (x.a_only_correct + x.b_only_correct) / x.n, 12);
      // The test's unit is the item: each item's A-only minus B-only observations (its two orders).
      const exp = loadExperiment(env.core.db, pilot);
      const graded = exp.protocol.comparable!.call(exp.protocol, metricsContext(env.core.db, exp, false));
      const at = (judge: string) =>
        new Map(
          graded
            .filter((g) => g.judge === judge && g.condition === lang)
            .map((g) => [`${g.item}|${g.unit}`, g]),
        );
      const [ga, gb] = [at('GPT'), at('Haiku')];
      const perItem = new Map<string, number>();
      for (const [k, a] of ga) {
        const b = gb.get(k);
        if (!b) continue;
        const d = a.correct === b.correct ? 0 : a.correct ? 1 : -1;
        perItem.set(a.item, (perItem.get(a.item) ?? 0) + d);
      }
      expect(x.mcnemar_p).toBe(clusteredMcnemarExact([...perItem.values()]));
      // With one discordant observation per item at most it is the exact McNemar test itself.
      if ([...perItem.values()].every((d) => Math.abs(d) <= 1))
        expect(x.mcnemar_p).toBe(mcnemarExact(x.a_only_correct, x.b_only_correct));
      expect(x.delta_ci![0]).toBeLessThanOrEqual(x.delta);
      expect(x.delta_ci![1]).toBeGreaterThanOrEqual(x.delta);
    }
    expect([row(r, 'EN').mcnemar_p_holm, row(r, 'ZH').mcnemar_p_holm]).toEqual(
      holmAdjust([row(r, 'EN').mcnemar_p, row(r, 'ZH').mcnemar_p]),
    );
    const all = row(r, 'all');
    expect(all.n).toBe(48);
    expect(all.mcnemar_p_holm).toBeNull();
    // Seeded: the same comparison gives the same intervals.
    expect(
      await core.call('experiments.compare', {
        a: { experimentId: pilot, judge: 'GPT' },
        b: { experimentId: pilot, judge: 'Haiku' },
      }),
    ).toEqual(r);
    expect(r.table.rows).toHaveLength(3);
    expect(r.table.columns.map((c) => c.key)).toContain('mcnemar_p_holm');
  });

  it('compares two prompt-template variants on the same items, judge by judge', async () => {
    const r = await env.core.call('experiments.compare', {
      a: { experimentId: pilot },
      b: { experimentId: variant },
    });
    expect(r.a.name).toBe('pilot');
    expect(r.b.name).toBe('reworded');
    expect(new Set(r.rows.map((x) => `${x.judge_a}/${x.judge_b}`))).toEqual(
      new Set(['GPT/GPT', 'Haiku/Haiku']),
    );
    const en = row(r, 'EN');
    expect(en.n).toBe(24);
    // The mock's verdicts depend on the model, item, language and order, not on the prompt's
    // wording: the two variants agree everywhere, and the paired tests say "no difference".
    for (const x of r.rows) {
      expect(x).toMatchObject({ agreement: 1, delta: 0, a_only_correct: 0, b_only_correct: 0, mcnemar_p: 1 });
      // Δ = 0 in every resample: no zero-width [0, 0], an interval that does not exist, and why.
      expect(x.delta_ci).toBeNull();
      expect(x.delta_ci_undefined_reason).toBe('every resample gives the same value');
    }
    const column = r.table.columns.find((c) => c.key === 'delta_ci')!;
    expect(formatCell(column, r.table.rows[0].delta_ci)).toBe(
      'undefined (every resample gives the same value)',
    );
    // The caption names Holm's family and what Agreement counts.
    expect(r.table.caption).toContain('Holm: adjusted across the per-condition rows (each test once)');
    expect(r.table.caption).toContain('each order of an item counts once');
  });

  it('exports the comparison as CSV, XLSX and LaTeX through the report kit', async () => {
    const a = { experimentId: pilot, judge: 'GPT' };
    const b = { experimentId: pilot, judge: 'Haiku' };
    const csv = await env.core.call('experiments.compareFile', { a, b, format: 'csv' });
    expect(csv.fileName).toBe(`compare-${pilot}-a-vs-${pilot}-b.csv`);
    const text = Buffer.from(csv.contentBase64, 'base64').toString('utf8');
    expect(text.split(/\r?\n/)[0]).toContain('Δ (B − A)');
    expect(text).toContain('GPT,Haiku,EN,24,12,');
    const tex = Buffer.from(
      (await env.core.call('experiments.compareFile', { a, b, format: 'tex' })).contentBase64,
      'base64',
    ).toString('utf8');
    expect(tex).toContain('\\begin{table}');
    expect(tex).toContain('Holm p');
    const xlsx = await env.core.call('experiments.compareFile', { a, b, format: 'xlsx' });
    expect(Object.keys(unzipSync(Buffer.from(xlsx.contentBase64, 'base64')))).toContain('xl/workbook.xml');
  });

  it('says clearly what cannot be compared', async () => {
    const { core } = env;
    await expect(
      core.call('experiments.compare', { a: { experimentId: pilot }, b: { experimentId: pilot } }),
    ).rejects.toThrow(/name the judge of each side/);
    await expect(
      core.call('experiments.compare', {
        a: { experimentId: pilot, judge: 'GPT' },
        b: { experimentId: pilot, judge: 'GPT' },
      }),
    ).rejects.toThrow(/same judge of the same experiment/);
    await expect(
      core.call('experiments.compare', {
        a: { experimentId: pilot, judge: 'Nobody' },
        b: { experimentId: variant },
      }),
    ).rejects.toThrow(/no graded answers of judge "Nobody" \(judges: GPT, Haiku\)/);
    await expect(
      core.call('experiments.compare', { a: { experimentId: pilot }, b: { experimentId: 999 } }),
    ).rejects.toThrow(/999/);
  });
});
