// Bias probes end to end through the core against the mock provider, pointwise on the bundled
// LLMBar sample, with planted biases (+0.8 for a longer variant, −0.2 for a shorter one, +0.3
// for Markdown, +0.4 for being shown first): each is measured back within sampling error, and
// every metric equals the value recomputed here from the mock's own log.
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
import { tokenCount } from '../../../src/main/protocols/bias-probes/audit';
import {
  clusteredPairedEffect,
  holmAdjust,
  pearson,
  spearman,
  wilcoxonSignedRank,
} from '../../../src/shared/stats';
import type { BiasMetrics, ProbeRow } from '../../../src/shared/protocols/bias-probes/types';
import { biasRows } from '../../../src/shared/protocols/bias-probes/views';
import { tempDir } from '../../helpers/tmp';
import { BOTCHED_LONGER, biasResponder, PLANTED, type PairRecord } from '../../mock-provider/bias-responder';
import { startMockProvider, type MockProvider } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/llmbar.jsonl');
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);
const LIMIT = 120;
const items = all.slice(0, LIMIT);
const JUDGE = { label: 'Mock judge', provider: 'mock', model: 'judge-model' };

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
const responder = biasResponder(all);

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ latencyMs: [0, 0], respond: responder.respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

type Slot = 'output_1' | 'output_2';
const slots: Slot[] = ['output_1', 'output_2'];

/** The mock's logged score for (item, slot, condition); plain text equal to the original is logged as original. */
function logged(itemId: string, slot: Slot, condition: string, shown: 'first' | 'second' | null = null) {
  const hits = responder.scores.filter(
    (s) =>
      s.model === JUDGE.model &&
      s.itemId === itemId &&
      s.slot === slot &&
      s.shown === shown &&
      (shown !== null || s.condition === condition || (condition === 'plain' && s.condition === 'original')),
  );
  return hits.length ? hits[hits.length - 1].score : undefined;
}

/** The log's differences with the item each belongs to (an item's two responses are two units). */
function unitsFromLog(effect: ProbeRow['effect']): { diffs: number[]; items: string[] } {
  const diffs: number[] = [];
  const itemsOf: string[] = [];
  for (const i of items)
    for (const slot of slots) {
      const [v, b] =
        effect === 'position'
          ? [logged(i.id, slot, '', 'first'), logged(i.id, slot, '', 'second')]
          : effect === 'markdown'
            ? [logged(i.id, slot, 'markdown'), logged(i.id, slot, 'plain')]
            : [logged(i.id, slot, effect), logged(i.id, slot, 'original')];
      if (v !== undefined && b !== undefined) {
        diffs.push(v - b);
        itemsOf.push(String(i.id));
      }
    }
  return { diffs, items: itemsOf };
}

function diffsFromLog(effect: ProbeRow['effect']): number[] {
  return unitsFromLog(effect).diffs;
}

describe('bias probes (pointwise) against the mock provider', () => {
  let metrics: BiasMetrics;
  let id: number;

  it('rewrites and judges every item to the end', async () => {
    ({ id } = await core.call('experiments.create', {
      config: {
        name: 'bias-pointwise',
        protocol: 'bias-probes',
        dataset: 'LLMBar (sample)',
        limit: LIMIT,
        providers: {
          mock: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 16 },
        },
        rewriter: { provider: 'mock', model: 'rewriter-model' },
        judges: [JUDGE],
        mode: 'pointwise',
        scale: 5,
      },
    }));
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.protocol).toBe('bias-probes');
    expect(results.counts).toMatchObject({ failed: 0, pending: 0 });
    metrics = results.metrics as BiasMetrics;
    expect(Object.keys(metrics)).toEqual([
      'mode',
      'scale',
      'probes',
      'position',
      'length_correlation',
      'debiased',
      'audit',
      'sensitivity',
      'scatter',
      'differences',
      'usage',
      'failures',
    ]);
  }, 600_000);

  it('measures each planted effect back within sampling error', () => {
    const planted = {
      longer: PLANTED.longer,
      shorter: PLANTED.shorter,
      markdown: PLANTED.markdown,
      position: PLANTED.pairFirst,
    };
    for (const [effect, value] of Object.entries(planted)) {
      const row = metrics.probes.find((r) => r.category === 'all' && r.effect === effect)!;
      expect(row, effect).toBeDefined();
      // Each difference is a Bernoulli(|value|) step of one point.
      const se = Math.sqrt((Math.abs(value) * (1 - Math.abs(value))) / row.n);
      expect(Math.abs(row.mean - value), effect).toBeLessThan(3.5 * se);
      expect(row.mean_ci![0]).toBeLessThan(row.mean);
      expect(row.significant, effect).toBe(true);
    }
    expect(metrics.probes.find((r) => r.category === 'all' && r.effect === 'longer')!.n).toBe(2 * LIMIT);
  });

  it('equals every probe row recomputed from the mock log (mean, CI, d_z, Wilcoxon, Holm)', () => {
    const rows = metrics.probes.filter((r) => r.category === 'all');
    expect(rows.map((r) => r.effect).sort()).toEqual(['longer', 'markdown', 'position', 'shorter']);
    const ps: number[] = [];
    for (const row of rows) {
      const { diffs, items: ids } = unitsFromLog(row.effect);
      // The item is the unit: a cluster-robust t interval, the signed-rank test on item means.
      const e = clusteredPairedEffect(diffs, ids, [-4, 4]);
      const sums = new Map<string, number[]>();
      ids.forEach((id, k) => sums.set(id, [...(sums.get(id) ?? []), diffs[k]]));
      const means = [...sums.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
      const w = wilcoxonSignedRank(means)!;
      expect(row.items).toBe(sums.size);
      expect(row.n).toBe(diffs.length);
      expect(row.mean).toBeCloseTo(diffs.reduce((a, b) => a + b, 0) / diffs.length, 12);
      expect(row.mean_ci).toEqual(e.ci);
      expect(row.dz).toBeCloseTo(e.dz!, 12);
      expect(row.p).toBe(w.p);
      ps.push(w.p);
    }
    const adjusted = holmAdjust(ps);
    rows.forEach((r, i) => expect(r.p_holm).toBe(adjusted[i]));
    // The differences behind the histograms are the log's.
    for (const d of metrics.differences) expect([...d.diffs].sort()).toEqual(diffsFromLog(d.effect).sort());
  });

  it('reports length correlations and raw vs debiased scores from the originals', () => {
    const x: number[] = [];
    const y: number[] = [];
    for (const i of items)
      for (const slot of slots) {
        x.push(tokenCount(i[slot]));
        y.push(logged(i.id, slot, 'original')!);
      }
    const row = metrics.length_correlation.find((r) => r.category === 'all')!;
    expect(row.n).toBe(2 * LIMIT);
    expect(row.pearson_r).toBeCloseTo(pearson(x, y).r!, 12);
    expect(row.spearman_r).toBeCloseTo(spearman(x, y).r!, 12);
    expect(row.n_human).toBe(0);
    expect(row.partial_spearman_r).toBeNull();
    const deb = metrics.debiased.find((r) => r.category === 'all')!;
    expect(deb.raw_mean).toBeCloseTo(y.reduce((a, b) => a + b, 0) / y.length, 12);
    const plain = items.flatMap((i) => slots.map((s) => logged(i.id, s, 'plain')!));
    expect(deb.debiased_mean).toBeCloseTo(plain.reduce((a, b) => a + b, 0) / plain.length, 12);
  });

  it('flags every botched longer rewrite and leaves it out of the sensitivity view', async () => {
    const botched = responder.rewrites.filter((r) => r.botched && items.some((i) => i.id === r.itemId));
    expect(botched.length).toBeGreaterThan(0);
    expect(botched.length).toBeLessThan(BOTCHED_LONGER * 2 * LIMIT * 3);
    for (const b of botched)
      expect(
        metrics.audit.flagged.some(
          (f) => f.item_id === b.itemId && f.response === b.slot && f.variant === 'longer',
        ),
      ).toBe(true);
    const flaggedLonger = metrics.audit.flagged.filter((f) => f.variant === 'longer').length;
    const main = metrics.probes.find((r) => r.category === 'all' && r.effect === 'longer')!;
    const sens = metrics.sensitivity.probes.find((r) => r.category === 'all' && r.effect === 'longer')!;
    expect(sens.n).toBe(main.n - flaggedLonger);
    // The generic "without flagged items" switch drops every item with a flagged variant.
    const without = (await core.call('experiments.results', { experimentId: id, excludeFlagged: true }))
      .metrics as BiasMetrics;
    const dropped = new Set(metrics.audit.flagged.map((f) => f.item_id));
    expect(without.scatter.some((p) => dropped.has(p.item_id))).toBe(false);
    expect(without.scatter).toHaveLength(2 * (LIMIT - dropped.size));
    const views = biasRows.variants(
      await core.call('experiments.protocolView', {
        experimentId: id,
        view: 'variants',
        query: { flaggedOnly: true },
      }),
    );
    expect(views.length).toBe(metrics.audit.flagged.length);
    const v = views.find((x) => x.variant === 'longer')!;
    expect(v.judgments[0].variant?.value).toBe(String(logged(v.itemId, v.response as Slot, 'longer')));
  });

  it('exports metrics, judgments, variants, item scores, tables and figures', async () => {
    const out = join(dir, 'export');
    const exported = await core.call('experiments.export', { experimentId: id, outDir: out });
    expect(exported.files).toEqual(
      expect.arrayContaining([
        'metrics.json',
        'judgments.csv',
        'variants.csv',
        'item_scores.csv',
        'tables/bias_profile.csv',
        'tables/bias_profile.tex',
        'figures/bias_profile.svg',
        'figures/bias_profile.png',
        'figures/length_scatter.svg',
        'figures/differences_longer.png',
      ]),
    );
    expect(JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'))).toEqual(metrics);
    expect(existsSync(join(out, 'tables/position.csv'))).toBe(false);
    // texts.csv (issue 26 item 3): every verdict's texts, keyed like judgments.csv; each is the
    // text the judge was sent (in the logged prompt), each rewrite the one variants.csv audits.
    const table = (name: string) =>
      parse(readFileSync(join(out, name), 'utf8').replace(/^\uFEFF/, ''), { columns: true }) as Record<
        string,
        string
      >[];
    const texts = table('texts.csv');
    const key = (r: Record<string, string>) => `${r.item_id}|${r.response}|${r.condition}`;
    const byKey = new Map(texts.map((t) => [key(t), t]));
    expect(byKey.size).toBe(texts.length);
    const judged = table('judgments.csv').filter((j) => j.shown === '');
    expect(judged.length).toBeGreaterThan(0);
    for (const j of judged) expect(byKey.has(key(j)), key(j)).toBe(true);
    const prompts = mock.log.filter((e) => e.model === JUDGE.model).map((e) => e.lastUser ?? '');
    for (const t of texts)
      expect(
        prompts.some((p) => p.includes(t.text)),
        key(t),
      ).toBe(true);
    const rewrites = new Map(
      table('variants.csv')
        .filter((v) => v.status === 'ok')
        .map((v) => [`${v.item_id}|${v.response}|${v.variant}`, v.text]),
    );
    const rewritten = texts.filter((t) => t.rewritten === '1');
    expect(rewritten.length).toBeGreaterThan(0);
    for (const t of rewritten) expect(t.text).toBe(rewrites.get(key(t)));
    const pair = items.find((r) => r.id === texts[0].item_id)!;
    expect(
      texts.find((t) => t.item_id === pair.id && t.response === 'output_1' && t.condition === 'original')!
        .text,
    ).toBe(pair.output_1);
    expect(texts[0].instruction).toBe(pair.instruction);
    const scores = readFileSync(join(out, 'item_scores.csv'), 'utf8')
      .split('\r\n')
      .filter((l) => l !== '');
    expect(scores).toHaveLength(1 + 2 * LIMIT);
    // itemScores (the rows human agreement consumes): raw = the logged original score, debiased
    // = the logged score of the Markdown-stripped text.
    const [header, ...rows] = scores.map((l) => l.replace(/^\uFEFF/, '').split(','));
    expect(header).toEqual(['judge', 'item_id', 'response', 'category', 'raw', 'debiased']);
    for (const [, itemId, response, , raw, debiased] of rows) {
      expect(Number(raw)).toBe(logged(itemId, response as Slot, 'original'));
      expect(Number(debiased)).toBe(logged(itemId, response as Slot, 'plain'));
    }
  });
});
