// Reference sensitivity with "noiseFloor": true against the mock provider (both wire formats): NR
// is asked twice per judge and answer (sample 1 its own call), the mock gives the other verdict on
// some repeats (planted per model), and the noise-floor rows equal what the test recomputes from
// the mock's own log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import type { RefSensMetrics } from '../../../src/shared/protocols/reference-sensitivity/types';
import { holmAdjust, mcnemarExact, newcombePairedInterval, wilsonInterval } from '../../../src/shared/stats';
import { tempDir } from '../../helpers/tmp';
import { refSensResponder, type QaRecord } from '../../mock-provider/refsens-responder';
import { startMockProvider, type MockProvider } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/tydiqa-en-ar-te.jsonl');
const items: QaRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as QaRecord);
const REPEAT_FLIPS = { 'gpt-4.1-mini': 0.25, 'claude-haiku-4-5': 0.1 };
const responder = refSensResponder(items, REPEAT_FLIPS);
const JUDGES = [
  { label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini' },
  { label: 'Claude judge', provider: 'anthropic', model: 'claude-haiku-4-5' },
];

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
let metrics: RefSensMetrics;
let rows: Record<string, string>[];

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
  const { id } = await core.call('experiments.create', {
    config: {
      name: 'refsens-noise-floor',
      protocol: 'reference-sensitivity',
      dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
      seed: 7,
      languages: ['en'],
      limit: 40,
      providers: {
        openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 16 },
        anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 16 },
      },
      generators: [{ label: 'GPT gen', provider: 'openai', model: 'gen-openai' }],
      judges: JUDGES,
      parts: { calibration: false },
      noiseFloor: true,
    },
  });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  metrics = (await core.call('experiments.results', { experimentId: id })).metrics as RefSensMetrics;
  const out = join(dir, 'export');
  await core.call('experiments.export', { experimentId: id, outDir: out });
  rows = parse(readFileSync(join(out, 'judgments.csv'), 'utf8'), { columns: true, bom: true });
}, 600_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

describe('reference sensitivity noise floor through the mock provider', () => {
  it('asks NR twice and reports the values recomputed from the mock log', () => {
    const question = new Map(items.map((i) => [i.id, i.question]));
    const expected: { judge: string; transition: string; table: number[] }[] = [];
    for (const { label, model } of JUDGES) {
      // The verdict behind each stored row: the mock's, found by the ask its explanation names.
      const verdictOf = (r: Record<string, string>) => {
        const ask = Number(/ask (\d+)$/.exec(r.explanation)?.[1]);
        const hit = responder.judgments.find(
          (j) =>
            j.model === model &&
            j.setting === r.setting &&
            j.question === question.get(r.item_id) &&
            j.ask === ask &&
            j.answer.startsWith(r.extracted_answer),
        );
        if (!hit) throw new Error(`no logged verdict for ${JSON.stringify(r)}`);
        return hit.verdict;
      };
      const mine = rows.filter((r) => r.judge === label && r.kind === 'sensitivity' && r.status === 'ok');
      const at = (setting: string, sample: string) =>
        new Map(
          mine
            .filter((r) => r.setting === setting && r.sample === sample)
            .map((r) => [r.item_id, verdictOf(r)]),
        );
      const nr = at('NR', '0');
      const again = at('NR', '1');
      expect(again.size).toBe(nr.size);
      const keys = [...nr.keys()].filter((k) => again.has(k));
      const flips = keys.filter((k) => nr.get(k) !== again.get(k)).length;
      const rep = metrics.noise_floor!.repeat.find((r) => r.judge === label && r.generator === 'all')!;
      expect(rep).toMatchObject({ n: keys.length, flips, language: 'en' });
      expect(rep.flip_rate_ci).toEqual(wilsonInterval(flips, keys.length));
      expect(flips).toBeGreaterThan(0);
      for (const to of ['RV', 'RC']) {
        const y = at(to, '0');
        const cells = [0, 0, 0, 0];
        for (const k of keys.filter((x) => y.has(x))) {
          const changed = y.get(k) !== nr.get(k);
          const repeated = again.get(k) !== nr.get(k);
          cells[changed ? (repeated ? 0 : 1) : repeated ? 2 : 3]++;
        }
        expected.push({ judge: label, transition: `NR-${to}`, table: cells });
      }
    }
    const all = metrics.noise_floor!.excess.filter((r) => r.generator === 'all');
    expect(all.map((r) => [r.judge, r.transition])).toEqual(expected.map((e) => [e.judge, e.transition]));
    all.forEach((r, i) => {
      const [a, b, c, d] = expected[i].table;
      expect([r.both_flipped, r.change_only, r.repeat_only, r.neither]).toEqual([a, b, c, d]);
      expect(r.excess_flip_rate_ci).toEqual(newcombePairedInterval(a, b, c, d));
      expect(r.mcnemar_p).toBe(mcnemarExact(b, c));
    });
    // Holm's family: the single generator's rows, each test once; the pooled rows repeat them.
    const family = metrics.noise_floor!.excess.filter((r) => r.generator !== 'all');
    expect(family.map((r) => r.mcnemar_p_holm)).toEqual(holmAdjust(family.map((r) => r.mcnemar_p)));
    expect(all.every((r) => r.mcnemar_p_holm === null)).toBe(true);
    // The other metrics read the first asks only: NR acceptance rests on one verdict per answer.
    const acc = metrics.acceptance.find(
      (r) => r.judge === 'GPT judge' && r.generator === 'all' && r.setting === 'NR',
    )!;
    expect(acc.n).toBe(
      rows.filter(
        (r) => r.judge === 'GPT judge' && r.setting === 'NR' && r.sample === '0' && r.status === 'ok',
      ).length,
    );
  });
});
