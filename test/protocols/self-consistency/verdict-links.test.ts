// The stability table's cells open the questions behind them (issue 26 item 4): for every row of
// `stability` (each judge × temperature, all categories and each), with and without the flagged
// items (none here: the protocol flags none), the questions the cell's filter selects are exactly
// the row's `questions`, and their repeats give the row's unanimous share and mean P(two repeats
// disagree). Every row of `accuracy_by_k` opens its n votes (a question's first k repeats), and
// the share whose majority is the gold verdict is the row's accuracy.
// The stability table's complete-question cells (Fleiss' κ, ICC(1), `complete`) open exactly the
// questions with every repeat valid, whose counts give κ; every row of `position_by_k` opens its
// n items, each with the first k repeats in both orders, whose majorities give the consistency.
// Pointwise, the within-SD is the mean SD of the questions the cell opens, and ICC(1) that of the
// complete ones.
// Simulated provider through the core (one judge with planted instability, pairs in both
// orders); the rows are matched as the browser matches them.
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  icc1,
  pairDisagreement,
  plurality,
  sampleSd,
  verdictCounts,
} from '../../../src/shared/protocols/self-consistency/stats';
import { orUndefined } from '../../../src/shared/protocols/self-consistency/report/tables';
import { fleissKappa } from '../../../src/shared/stats';
import type { SelfConsistencyMetrics } from '../../../src/shared/protocols/self-consistency/types';
import type { Table } from '../../../src/shared/report/table';
import { matchVerdicts, rowFilter } from '../../../src/shared/verdicts';
import { useSampleCore } from '../../helpers/sample-core';

const sample = useSampleCore('llmbar');

// Pointwise data: one response per item, with a human score.
const points = Array.from({ length: 16 }, (_, i) => ({
  id: `pt-${i + 1}`,
  instruction: `Explain idea number ${i + 1} in one paragraph.`,
  response: `Idea ${i + 1} is explained here in plain words, number ${i * 7}.`,
  human_score: 1 + (i % 5),
}));

beforeAll(async () => {
  const file = join(sample.dir, 'points.jsonl');
  writeFileSync(file, points.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await sample.core.call('datasets.import', {
    fileName: 'points.jsonl',
    contentBase64: readFileSync(file).toString('base64'),
    name: 'points',
  });
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

/** A choice said in the swapped order, as the original order's. */
const asOrig: Record<string, string> = { A: 'B', B: 'A', tie: 'tie' };

/** A listed question's repeats: its valid verdicts ("×" marks a repeat with no usable answer). */
const repeatsOf = (verdict: string) => verdict.split(' ').filter((v) => v !== '×');

describe('stability cells', () => {
  it('open exactly the questions behind each row, whose repeats give its rates', async () => {
    const { id } = await sample.core.call('experiments.create', { config });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const { links } = await sample.core.call('experiments.verdictLinks', { experimentId: id });
    const link = links.find((l) => l.table === 'stability')!;
    expect(link).toBeDefined();
    let unstable = 0;
    const listed: number[] = [];
    for (const excludeFlagged of [false, true]) {
      const results = await sample.core.call('experiments.results', { experimentId: id, excludeFlagged });
      const table = results.tables.find((t: Table) => t.id === 'stability')!;
      const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id, excludeFlagged });
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
    // The complete questions behind κ: each with every repeat valid, and exactly the listed
    // questions that have every repeat valid (the statistic's set); their counts give κ.
    const complete = links.find((l) => l.table === 'stability' && l.where?.kind === 'complete')!;
    expect(complete).toBeDefined();
    const results = await sample.core.call('experiments.results', { experimentId: id });
    const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id });
    const table = results.tables.find((t: Table) => t.id === 'stability')!;
    const key = (v: { sourceId: string; fields: Record<string, string> }) =>
      [v.fields.judge, v.fields.condition, v.sourceId, v.fields.order].join('|');
    for (const row of table.rows) {
      const filter = rowFilter(complete, row)!;
      const what = JSON.stringify(filter);
      const behind = matchVerdicts(rows, filter);
      expect(behind.length, what).toBe(row.complete);
      const full = matchVerdicts(rows, { ...filter, kind: 'question' }).filter(
        (v) => !v.verdict.split(' ').includes('×') && v.verdict.split(' ').length === config.repeats,
      );
      expect(behind.map(key).sort(), what).toEqual(full.map(key).sort());
      // Choices as the metrics read them: A in the swapped order is the original's B.
      const counts = behind.map((v) => {
        const said = v.verdict.split(' ');
        const c = verdictCounts(v.fields.order === 'swap' ? said.map((x) => asOrig[x]) : said);
        return ['A', 'B', 'tie'].map((x) => c.get(x) ?? 0);
      });
      const kappa = behind.length < 2 ? null : fleissKappa(counts);
      const why = behind.length < 2 ? 'fewer than 2 complete questions' : 'one verdict everywhere';
      expect(orUndefined(kappa, why), what).toBe(row.fleiss_kappa);
    }

    // Position by k: each row's n items, the first k repeats in both orders; the majorities agree
    // (A in the original order is B in the swapped one) in the row's share.
    const order = links.find((l) => l.table === 'position_by_k')!;
    expect(order).toBeDefined();
    const position = results.tables.find((t: Table) => t.id === 'position_by_k')!;
    expect(position.rows.length).toBeGreaterThan(2);
    let inconsistent = 0;
    for (const row of position.rows) {
      const filter = rowFilter(order, row)!;
      const what = JSON.stringify(filter);
      const behind = matchVerdicts(rows, filter);
      expect(behind.length, what).toBe(row.n);
      expect(behind.every((v) => v.reason.split('\n').length === 2 * (row.k as number))).toBe(true);
      const consistent = behind.filter((v) => {
        const [orig, swap] = v.verdict.split(' → ').map((s) => s.split(' '));
        expect([orig.length, swap.length], what).toEqual([row.k, row.k]);
        const a = plurality(orig);
        const b = plurality(swap.map((x) => asOrig[x]));
        return a !== null && a === b;
      }).length;
      inconsistent += behind.length - consistent;
      expect(consistent / behind.length, what).toBeCloseTo(row.consistency as number, 12);
    }
    expect(inconsistent).toBeGreaterThan(0);

    // The mean singles (k = 1 rows) open the same questions or items with every repeat, which
    // graded one by one (against the item's gold; across the orders) give the cell.
    const single = (table: string) =>
      links.find((l) => l.table === table && l.columns.includes('single_mean'))!;
    const norm = (said: string, order: string) =>
      said === 'tie' ? 'tie' : (order === 'swap' ? asOrig[said] : said) === 'A' ? 1 : 2;
    const gold = new Map<number, unknown>();
    const accuracy = results.tables.find((t: Table) => t.id === 'accuracy_by_k')!;
    const firsts = accuracy.rows.filter((r) => r.k === 1);
    expect(firsts.length).toBeGreaterThan(2);
    for (const row of firsts) {
      const filter = rowFilter(single('accuracy_by_k'), row)!;
      const what = JSON.stringify(filter);
      const behind = matchVerdicts(rows, filter);
      expect(behind.length, what).toBe(row.n);
      let hits = 0;
      for (const v of behind) {
        if (!gold.has(v.itemId))
          gold.set(v.itemId, (await sample.core.call('items.get', { itemId: v.itemId })).label);
        const said = v.verdict.split(' ');
        expect(said.length).toBe(config.repeats);
        hits += said.filter((x) => norm(x, v.fields.order) === gold.get(v.itemId)).length;
      }
      expect(hits / (behind.length * config.repeats), what).toBeCloseTo(row.single_mean as number, 12);
    }
    for (const row of position.rows.filter((r) => r.k === 1)) {
      const filter = rowFilter(single('position_by_k'), row)!;
      const what = JSON.stringify(filter);
      const behind = matchVerdicts(rows, filter);
      expect(behind.length, what).toBe(row.n);
      let same = 0;
      for (const v of behind) {
        const [orig, swap] = v.verdict.split(' → ').map((s) => s.split(' '));
        expect([orig.length, swap.length]).toEqual([config.repeats, config.repeats]);
        same += orig.filter((x, j) => x === asOrig[swap[j]]).length;
      }
      expect(same / (behind.length * config.repeats), what).toBeCloseTo(row.single_mean as number, 12);
    }

    // Self-consistency audits nothing (no protocol flag hook): the switch changes no list.
    expect(listed[1]).toBe(listed[0]);
    // The planted instability shows, so the rates checked are not all 100%.
    expect(unstable).toBeGreaterThan(0);
  }, 180_000);

  it('pointwise: within-SD and ICC(1) open the questions they are computed over', async () => {
    const { id } = await sample.core.call('experiments.create', {
      config: {
        name: 'sc-verdicts-points',
        protocol: 'self-consistency',
        dataset: 'points',
        providers: config.providers,
        judges: [{ label: 'Shaky', provider: 'sim', model: 'sim-judge-flip25' }],
        repeats: 3,
        scale: 5,
      },
    });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const { links } = await sample.core.call('experiments.verdictLinks', { experimentId: id });
    const stable = links.find((l) => l.table === 'stability' && l.where?.kind === 'question')!;
    const complete = links.find((l) => l.table === 'stability' && l.where?.kind === 'complete')!;
    expect(stable.columns).toContain('within_sd');
    expect(complete.columns).toEqual(expect.arrayContaining(['icc1', 'icc1_ci', 'fleiss_kappa']));
    const results = await sample.core.call('experiments.results', { experimentId: id });
    const m = results.metrics as SelfConsistencyMetrics;
    const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id });
    const table = results.tables.find((t: Table) => t.id === 'stability')!;
    const scores = (v: { verdict: string }) => repeatsOf(v.verdict).map(Number);
    let spread = 0;
    for (const row of table.rows) {
      const metric = m.stability.find((r) => r.judge === row.judge && r.category === row.category)!;
      const questions = matchVerdicts(rows, rowFilter(stable, row)!);
      expect(questions.length).toBe(row.questions);
      const sds = questions.map((v) => sampleSd(scores(v))!);
      spread += sds.filter((x) => x > 0).length;
      expect(sds.reduce((a, b) => a + b, 0) / sds.length).toBeCloseTo(metric.within_sd!, 12);
      const full = matchVerdicts(rows, rowFilter(complete, row)!);
      expect(full.length).toBe(metric.complete);
      expect(full.every((v) => scores(v).length === 3)).toBe(true);
      expect(icc1(full.map(scores)).icc).toBeCloseTo(metric.icc1!, 12);
    }
    // The planted flips move scores, so the SDs checked are not all zero.
    expect(spread).toBeGreaterThan(0);
  }, 180_000);
});
