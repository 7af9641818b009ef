// Judge-LS with "noiseFloor": true against the mock provider (OpenAI and Anthropic wire formats,
// the real SDKs): each EN verdict is asked twice (sample 1 is its own ledger row and call), the mock
// answers some repeats otherwise (planted per model), and every noise-floor number equals what the
// test recomputes from the mock's own log of the answers it gave.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import {
  clusteredMcnemarExact,
  holmAdjust,
  newcombePairedInterval,
  wilsonInterval,
} from '../../src/shared/stats';
import {
  judgeLsResponder,
  unit,
  type JudgeLsResponder,
  type LoggedVerdict,
} from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';

const JUDGES = [
  { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
  { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
];
/** Planted: the share of (item, order) pairs whose EN verdict changes when asked again. */
const REPEAT_FLIPS: Record<string, number> = { 'gpt-4.1-mini': 0.3, 'claude-haiku-4-5': 0.1 };
const LIMIT = 40;

let core: Core;
let mock: MockProvider;
let responder: JudgeLsResponder;
let items: Item[];
let metrics: JudgeLsMetrics;
let cleanup: () => void;
let dir: string;
let rows: Record<string, string>[];
let estimateCalls: number;

function config(url: string, noiseFloor: boolean) {
  return {
    name: noiseFloor ? 'noise-floor' : 'no-noise-floor',
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: LIMIT,
    providers: {
      openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 16 },
      anthropic: { kind: 'anthropic', baseURL: url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 16 },
    },
    transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
    judges: JUDGES,
    tieProbes: false,
    noiseFloor,
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test-openai', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 100 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const listed = (await core.call('items.list', { datasetId: dataset.id })).slice(0, LIMIT);
  items = (await Promise.all(listed.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  responder = judgeLsResponder(items, { repeatFlips: REPEAT_FLIPS });
  mock = await startMockProvider({ respond: responder.respond, wrapText: false });
  const off = await core.call('experiments.estimate', { config: config(mock.url, false) });
  const on = await core.call('experiments.estimate', { config: config(mock.url, true) });
  estimateCalls = on.calls - off.calls;
  const { id } = await core.call('experiments.create', { config: config(mock.url, true) });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  metrics = (await core.call('experiments.results', { experimentId: id })).metrics as JudgeLsMetrics;
  const out = join(dir, 'export');
  await core.call('experiments.export', { experimentId: id, outDir: out });
  rows = parse(readFileSync(join(out, 'judgments.csv'), 'utf8'), { columns: true, bom: true });
}, 600_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

/** The mock's answer behind a judgments.csv row: its reason names the ask it was. */
function logged(row: Record<string, string>, model: string): LoggedVerdict {
  const ask = Number(/ Ask (\d+)\.$/.exec(row.reason)?.[1]);
  const v = responder.verdicts.find(
    (x) =>
      x.model === model &&
      x.sourceId === row.item_id &&
      x.language === row.language &&
      x.order === row.order &&
      x.ask === ask,
  );
  if (!v) throw new Error(`no logged answer for ${JSON.stringify(row)}`);
  return v;
}

const choice = (order: string, winner: string) =>
  winner === 'tie' ? 'tie' : (winner === 'A') === (order === 'orig') ? 1 : 2;

describe('Judge-LS noise floor through the mock provider', () => {
  it('asks every EN verdict twice, each its own call, and the estimate counts them', () => {
    const en = responder.verdicts.filter((v) => v.kind === 'quality' && v.language === 'EN');
    expect(en.filter((v) => v.ask === 0)).toHaveLength(LIMIT * 2 * JUDGES.length);
    expect(en.filter((v) => v.ask === 1)).toHaveLength(LIMIT * 2 * JUDGES.length);
    expect(estimateCalls).toBe(LIMIT * 2 * JUDGES.length);
    expect(rows.filter((r) => r.sample === '1')).toHaveLength(LIMIT * 2 * JUDGES.length);
  });

  it('reports the values recomputed from the mock log, and recovers the planted flips', () => {
    const excess: Record<string, number | string | number[]>[] = [];
    for (const { label, model } of JUDGES) {
      const mine = rows.filter((r) => r.judge === label && r.kind === 'quality' && r.status === 'ok');
      const at = (language: string, sample: string) =>
        new Map(
          mine
            .filter((r) => r.language === language && r.sample === sample)
            .map((r) => [`${r.item_id}|${r.order}`, choice(r.order, logged(r, model).winner)]),
        );
      const en = at('EN', '0');
      const again = at('EN', '1');
      const keys = [...en.keys()].filter((k) => again.has(k));
      const repeatFlips = keys.filter((k) => en.get(k) !== again.get(k)).length;
      const r = metrics.noise_floor!.repeat.find((x) => x.judge === label)!;
      expect(r).toMatchObject({ n: keys.length, flips: repeatFlips });
      expect(r.flip_rate_ci).toEqual(wilsonInterval(repeatFlips, keys.length));
      // Planted: exactly the pairs whose draw is below the model's probability flip on repeat.
      const planted = keys.filter((k) => {
        const [item, order] = k.split('|');
        return unit('repeat', model, item, order) < REPEAT_FLIPS[model];
      });
      expect(repeatFlips).toBe(planted.length);
      const p = REPEAT_FLIPS[model];
      expect(Math.abs(r.flip_rate - p)).toBeLessThan(3.5 * Math.sqrt((p * (1 - p)) / keys.length));
      for (const language of ['ZH', 'LS']) {
        const target = at(language, '0');
        const both = keys.filter((k) => target.has(k));
        const lang = (k: string) => en.get(k) !== target.get(k);
        const rep = (k: string) => en.get(k) !== again.get(k);
        const a = both.filter((k) => lang(k) && rep(k)).length;
        const b = both.filter((k) => lang(k) && !rep(k)).length;
        const c = both.filter((k) => !lang(k) && rep(k)).length;
        const d = both.length - a - b - c;
        // The test's unit is the item (its two orders summed): language-only minus repeat-only.
        const perItem = new Map<string, number>();
        for (const k of both) {
          const item = k.split('|')[0];
          const diff = lang(k) === rep(k) ? 0 : lang(k) ? 1 : -1;
          perItem.set(item, (perItem.get(item) ?? 0) + diff);
        }
        excess.push({
          judge: label,
          comparison: `EN-${language}`,
          table: [a, b, c, d],
          excess: (b - c) / both.length,
          ci: newcombePairedInterval(a, b, c, d),
          p: clusteredMcnemarExact([...perItem.values()]),
        });
      }
    }
    const holm = holmAdjust(excess.map((e) => e.p as number));
    expect(metrics.noise_floor!.excess).toHaveLength(excess.length);
    excess.forEach((e, i) => {
      const row = metrics.noise_floor!.excess[i];
      expect(row).toMatchObject({ judge: e.judge, comparison: e.comparison });
      expect([row.both_flipped, row.language_only, row.repeat_only, row.neither]).toEqual(e.table);
      expect(row.excess_flip_rate).toBeCloseTo(e.excess as number, 12);
      expect(row.excess_flip_rate_ci).toEqual(e.ci);
      expect(row.mcnemar_p).toBe(e.p);
      expect(row.mcnemar_p_holm).toBe(holm[i]);
    });
    // The first asks' metrics are those of the EN answers at ask 0 only.
    const enRow = metrics.quality.find((q) => q.judge === 'GPT mock' && q.language === 'EN')!;
    expect(enRow.n).toBe(LIMIT * 2);
  });
});
