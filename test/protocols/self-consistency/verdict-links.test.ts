// The stability table's cells open the questions behind them (issue 26 item 4): for every row of
// `stability` (each judge × temperature, all categories and each), with and without the flagged
// items (none here: the protocol flags none), the questions the cell's filter selects are exactly
// the row's `questions`, and their repeats give the row's unanimous share and mean P(two repeats
// disagree). Every row of `accuracy_by_k` opens its n votes (a question's first k repeats), and
// the share whose majority is the gold verdict is the row's accuracy.
// Simulated provider through the core (one judge with planted instability, pairs in both
// orders); the rows are matched as the browser matches them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { pairDisagreement, verdictCounts } from '../../../src/shared/protocols/self-consistency/stats';
import type { Table } from '../../../src/shared/report/table';
import { matchVerdicts, rowFilter } from '../../../src/shared/verdicts';
import { tempDir } from '../../helpers/tmp';

let core: Core;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
});
afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

const config = {
  name: 'sc-verdicts',
  protocol: 'self-consistency',
  dataset: 'LLMBar (sample)',
  limit: 24,
  // A random sample, so the items span subsets (the file lists them one subset after another).
  sample: 'random',
  seed: 7,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
  judges: [
    { label: 'Steady', provider: 'sim', model: 'sim-judge' },
    // Its own temperature: the rows' temperature reads "judge's own (T=0.7)", the other's the default.
    { label: 'Shaky', provider: 'sim', model: 'sim-judge-flip25', temperature: 0.7 },
  ],
  repeats: 3,
  orders: 'both',
};

/** A listed question's repeats: its valid verdicts ("×" marks a repeat with no usable answer). */
const repeatsOf = (verdict: string) => verdict.split(' ').filter((v) => v !== '×');

describe('stability cells', () => {
  it('open exactly the questions behind each row, whose repeats give its rates', async () => {
    const { id } = await core.call('experiments.create', { config });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const { links } = await core.call('experiments.verdictLinks', { experimentId: id });
    const link = links.find((l) => l.table === 'stability')!;
    expect(link).toBeDefined();
    let unstable = 0;
    const listed: number[] = [];
    for (const excludeFlagged of [false, true]) {
      const results = await core.call('experiments.results', { experimentId: id, excludeFlagged });
      const table = results.tables.find((t: Table) => t.id === 'stability')!;
      const { rows } = await core.call('experiments.verdicts', { experimentId: id, excludeFlagged });
      // 2 judges, each pooled and per category.
      expect(table.rows.length).toBeGreaterThan(4);
      for (const row of table.rows) {
        const filter = rowFilter(link, row)!;
        const behind = matchVerdicts(rows, filter);
        expect(behind.length, JSON.stringify(filter)).toBe(row.questions);
        expect(behind.every((v) => v.reason.split('\n').length === 3)).toBe(true);
        const repeats = behind.map((v) => repeatsOf(v.verdict));
        expect(repeats.every((r) => r.length >= 2)).toBe(true);
        const unanimous = repeats.filter((r) => verdictCounts(r).size === 1).length;
        unstable += behind.length - unanimous;
        expect(unanimous / behind.length, JSON.stringify(filter)).toBeCloseTo(
          row.unanimous_rate as number,
          12,
        );
        const disagree = repeats.reduce((s, r) => s + pairDisagreement(r)!, 0) / behind.length;
        expect(disagree, JSON.stringify(filter)).toBeCloseTo(row.disagree_prob as number, 12);
      }
      // The pooled rows hold every listed question once.
      const questions = rows.filter((v) => v.fields.kind === 'question');
      const pooled = table.rows.filter((r) => r.category === 'all');
      expect(pooled.reduce((s, r) => s + (r.questions as number), 0)).toBe(questions.length);
      listed.push(questions.length);

      // Accuracy by k: each row's n votes of the first k repeats, graded against gold.
      const votes = links.find((l) => l.table === 'accuracy_by_k')!;
      const accuracy = results.tables.find((t: Table) => t.id === 'accuracy_by_k')!;
      expect(accuracy.rows.length).toBeGreaterThan(4);
      for (const row of accuracy.rows) {
        const filter = rowFilter(votes, row)!;
        const behind = matchVerdicts(rows, filter);
        expect(behind.length, JSON.stringify(filter)).toBe(row.n);
        expect(behind.every((v) => v.verdict.split(' ').length === row.k)).toBe(true);
        const correct = behind.filter((v) => v.correct === true).length;
        expect(correct / behind.length, JSON.stringify(filter)).toBeCloseTo(row.accuracy as number, 12);
      }
    }
    // Self-consistency audits nothing (no protocol flag hook): the switch changes no list.
    expect(listed[1]).toBe(listed[0]);
    // The planted instability shows, so the rates checked are not all 100%.
    expect(unstable).toBeGreaterThan(0);
  }, 180_000);
});
