// `judge-lab run` with a "protocol": "bias-probes" config (pairwise mode), as a real child
// process against the mock provider: exit 0, the export written, and the planted biases (a 60%
// position-A rate; the worse response made longer wins half the time the position lean does not
// decide) measured back within sampling error and equal to what the mock's log says.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenCount } from '../../../src/main/protocols/bias-probes/audit';
import {
  clusteredPairedEffect,
  mcnemarExact,
  pearson,
  spearman,
  wilcoxonSignedRank,
} from '../../../src/shared/stats';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { assertBuilt, ROOT, runCliInProcess } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';
import {
  biasResponder,
  PLANTED,
  type LoggedVerdict,
  type PairRecord,
} from '../../mock-provider/bias-responder';
import { startMockProvider } from '../../mock-provider/server';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
const LIMIT = 150;
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);
const items = all.slice(0, LIMIT);

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

const runAsync = (args: string[]) => runCliInProcess(args, { MOCK_API_KEY: 'sk-test-cli' }, { cwd: dir });

/** The choice (1 | 2 | tie) of a logged verdict, undoing the order. */
const choice = (v: LoggedVerdict): 1 | 2 => ((v.winner === 'A' ? v.a.slot : v.b.slot) === 'output_1' ? 1 : 2);
const order = (v: LoggedVerdict) => (v.a.slot === 'output_1' ? 'orig' : 'swap');

describe('judge-lab run (bias probes, pairwise)', () => {
  it('runs to the end and exports metrics that match the planted biases and the mock log', async () => {
    const responder = biasResponder(all);
    const mock = await startMockProvider({ respond: responder.respond, latencyMs: [0, 0], logBodies: false });
    try {
      const cfg = join(dir, 'bias.json');
      writeFileSync(
        cfg,
        JSON.stringify({
          name: 'bias-cli',
          protocol: 'bias-probes',
          dataset: SAMPLE,
          limit: LIMIT,
          mode: 'pairwise',
          probes: ['position', 'length'],
          providers: {
            mock: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 16 },
          },
          rewriter: { provider: 'mock', model: 'rewriter-model' },
          judges: [{ label: 'Mock judge', provider: 'mock', model: 'judge-model' }],
        }),
      );
      const out = join(dir, 'out');
      const r = await runAsync(['run', cfg, '--out', out, '--data-dir', join(dir, 'data')]);
      expect(r.code, r.stderr).toBe(0);
      const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as BiasMetrics;
      expect(m.mode).toBe('pairwise');

      // Position: original texts, both orders.
      const originals = responder.verdicts.filter(
        (v) => v.a.condition === 'original' && v.b.condition === 'original',
      );
      expect(originals).toHaveLength(2 * LIMIT);
      const a = originals.filter((v) => v.winner === 'A').length;
      const pos = m.position.find((p) => p.category === 'all')!;
      expect(pos.n).toBe(2 * LIMIT);
      expect(pos.position_a_rate).toBe(a / (2 * LIMIT));
      const se = Math.sqrt((PLANTED.positionA * (1 - PLANTED.positionA)) / (2 * LIMIT));
      expect(Math.abs(pos.position_a_rate - PLANTED.positionA)).toBeLessThan(3.5 * se);
      const byItem = new Map<string, Map<string, 1 | 2>>();
      for (const v of originals)
        byItem.set(v.itemId, (byItem.get(v.itemId) ?? new Map()).set(order(v), choice(v)));
      const same = [...byItem.values()].filter((o) => o.get('orig') === o.get('swap')).length;
      expect(pos.n_pairs).toBe(LIMIT);
      expect(pos.swap_consistency).toBe(same / LIMIT);
      // The lean is tested on the items, paired: both orders A against both orders B (the mock never ties).
      const winners = new Map<string, string>();
      for (const v of originals) winners.set(v.itemId, (winners.get(v.itemId) ?? '') + v.winner);
      const bothA = [...winners.values()].filter((w) => w === 'AA').length;
      const bothB = [...winners.values()].filter((w) => w === 'BB').length;
      expect([pos.both_first, pos.both_second]).toEqual([bothA, bothB]);
      expect(pos.lean_p).toBe(mcnemarExact(bothA, bothB));

      // Length: the worse response made longer, against the original, per (item, order).
      const diffs: number[] = [];
      const itemOf: string[] = [];
      let flippable = 0;
      let flips = 0;
      for (const item of items) {
        const worse = item.label === 1 ? 2 : 1;
        for (const o of ['orig', 'swap'] as const) {
          const base = originals.find((v) => v.itemId === item.id && order(v) === o)!;
          const longer = responder.verdicts.find(
            (v) =>
              v.itemId === item.id &&
              order(v) === o &&
              (v.a.condition === 'longer' || v.b.condition === 'longer'),
          );
          if (!longer) continue;
          const ws = (v: LoggedVerdict) => (choice(v) === worse ? 1 : 0);
          diffs.push(ws(longer) - ws(base));
          itemOf.push(String(item.id));
          if (choice(base) !== worse) {
            flippable++;
            if (choice(longer) === worse) flips++;
          }
        }
      }
      const row = m.probes.find((p) => p.category === 'all' && p.effect === 'longer')!;
      expect(row.n).toBe(diffs.length);
      expect(row.mean).toBeCloseTo(diffs.reduce((x, y) => x + y, 0) / diffs.length, 12);
      // The item is the unit (its two orders): a cluster-robust t interval, signed ranks of item means.
      expect(row.mean_ci).toEqual(clusteredPairedEffect(diffs, itemOf, [-1, 1]).ci);
      const unitsOf = new Map<string, number[]>();
      itemOf.forEach((id, k) => unitsOf.set(id, [...(unitsOf.get(id) ?? []), diffs[k]]));
      const means = [...unitsOf.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
      expect(row.p).toBe(wilcoxonSignedRank(means)!.p);
      expect(row.flip_n).toBe(flippable);
      expect(row.flip_rate).toBe(flips / flippable);
      // Planted: without the position lean (80% of verdicts) the longer worse response wins with
      // probability 0.5; with it (20%) "A" wins whatever is shown. So the expected change of its
      // win score is 0.8 × 0.5 = 0.4, and among the (item, order) pairs it lost originally
      // (0.8 + 0.2 × ½ of them) the flip rate is 0.4 / 0.9.
      const lean = PLANTED.positionLean;
      const expectedMean = (1 - lean) * PLANTED.pairwiseLongerFlip;
      const expectedFlip = expectedMean / (1 - lean + lean / 2);
      const mse = Math.sqrt(0.25 / diffs.length);
      expect(Math.abs(row.mean - expectedMean)).toBeLessThan(3.5 * mse);
      const fse = Math.sqrt((expectedFlip * (1 - expectedFlip)) / flippable);
      expect(Math.abs(row.flip_rate! - expectedFlip)).toBeLessThan(3.5 * fse);
      expect(row.significant).toBe(true);

      // Length against output_1's win score (averaged over both orders), from the log.
      const x = items.map((i) => tokenCount(i.output_1) - tokenCount(i.output_2));
      const y = items.map((i) => {
        const of = originals.filter((v) => v.itemId === i.id);
        return of.reduce((acc, v) => acc + (choice(v) === 1 ? 1 : 0), 0) / of.length;
      });
      const corr = m.length_correlation.find((c) => c.category === 'all')!;
      expect(corr.n).toBe(LIMIT);
      expect(corr.pearson_r).toBeCloseTo(pearson(x, y).r!, 12);
      expect(corr.spearman_r).toBeCloseTo(spearman(x, y).r!, 12);

      const judgments = readFileSync(join(out, 'judgments.csv'), 'utf8')
        .split('\r\n')
        .filter((l) => l !== '');
      expect(judgments.length).toBe(1 + responder.verdicts.length);
      const tables = readFileSync(join(out, 'tables', 'position.csv'), 'utf8');
      expect(tables).toContain('Mock judge');
    } finally {
      await mock.close();
    }
  }, 300_000);
});
