// Judge-LS's pair tables open the pairs behind their cells (issue 26 item 4): for every row of
// `invariance`, `subset_flip`, `position` and `noise_floor`, with and without the flagged items,
// the pairs the cell's filter selects are exactly n, and their two graded choices ("1 ✓ → tie ✗")
// give the row's flip rate (and, for invariance, the correctness counts and McNemar's p); every
// row of `subset_quality` opens its n single verdicts, whose tie-half score averages to its value,
// and every row of `tie_probe` its n probes, whose choices give its ZH win rate.
// Simulated provider through the core, on a random sample spanning LLMBar's subsets, with the
// noise floor on; the rows are matched as the browser matches them.
import { describe, expect, it } from 'vitest';
import type { Table, TableRow } from '../../../src/shared/report/table';
import { clusteredMcnemarExact } from '../../../src/shared/stats';
import { matchVerdicts, rowFilter, type VerdictRow } from '../../../src/shared/verdicts';
import { normalizeChoice } from '../../../src/shared/protocols/judge-ls/choice';
import { useSampleCore } from '../../helpers/sample-core';

const sample = useSampleCore('llmbar');

const config = {
  name: 'judge-ls-verdicts',
  protocol: 'judge-ls',
  dataset: 'LLMBar (sample)',
  limit: 24,
  // A random sample, so the items span subsets (the file lists them one subset after another).
  sample: 'random',
  seed: 3,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
  transform: { provider: 'sim', model: 'sim-translator' },
  judges: [
    { label: 'Sim A', provider: 'sim', model: 'sim-judge' },
    { label: 'Sim B', provider: 'sim', model: 'sim-judge-weak' },
  ],
  noiseFloor: true,
};

/** A listed pair's two sides: each normalized choice and whether it is correct. */
function sides(v: VerdictRow) {
  const [a, b] = v.verdict.split(' → ').map((s) => {
    const [choice, mark] = s.split(' ');
    return { choice, correct: mark === '✓' };
  });
  return { a, b };
}

const share = (k: number, n: number) => k / n;

function checkPairs(table: Table, row: TableRow, behind: VerdictRow[], what: string) {
  expect(behind.length, what).toBe(row.n);
  const pairs = behind.map(sides);
  expect(behind.every((v) => v.reason.split('\n').length === 2)).toBe(true);
  const flips = pairs.filter((p) => p.a.choice !== p.b.choice).length;
  const rate = table.id === 'position' ? row.inconsistency_rate : row.flip_rate;
  expect(share(flips, behind.length), what).toBeCloseTo(rate as number, 12);
  if (table.id !== 'invariance') return;
  const enOnly = pairs.filter((p) => p.a.correct && !p.b.correct).length;
  const targetOnly = pairs.filter((p) => !p.a.correct && p.b.correct).length;
  const both = pairs.filter((p) => p.a.correct && p.b.correct).length;
  expect([both, enOnly, targetOnly, behind.length - both - enOnly - targetOnly], what).toEqual([
    row.both_correct,
    row.en_only_correct,
    row.target_only_correct,
    row.both_wrong,
  ]);
  expect(share(enOnly + targetOnly, behind.length), what).toBeCloseTo(
    row.correctness_flip_rate as number,
    12,
  );
  // The test's unit is the item: its pairs' EN-only minus target-only counts, summed per item.
  const perItem = new Map<number, number>();
  behind.forEach((v, i) => {
    const p = pairs[i];
    const d = p.a.correct === p.b.correct ? 0 : p.a.correct ? 1 : -1;
    perItem.set(v.itemId, (perItem.get(v.itemId) ?? 0) + d);
  });
  expect(clusteredMcnemarExact([...perItem.values()]), what).toBeCloseTo(row.mcnemar_p as number, 12);
}

/** Tie-half: 1 correct, 0.5 a tie, 0 wrong (the verdict is the judge's raw A / B / tie). */
const tieHalf = (v: VerdictRow) => (v.correct ? 1 : v.verdict === 'tie' ? 0.5 : 0);

describe('Judge-LS pair tables', () => {
  it('open exactly the n pairs (or verdicts) behind each row, which give its numbers', async () => {
    const { id } = await sample.core.call('experiments.create', { config });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const { links } = await sample.core.call('experiments.verdictLinks', { experimentId: id });
    const listed: number[] = [];
    let flipped = 0;
    for (const excludeFlagged of [false, true]) {
      const results = await sample.core.call('experiments.results', { experimentId: id, excludeFlagged });
      const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id, excludeFlagged });
      listed.push(rows.length);
      for (const tableId of ['invariance', 'subset_flip', 'position', 'noise_floor', 'subset_quality']) {
        const link = links.find((l) => l.table === tableId)!;
        expect(link, tableId).toBeDefined();
        const table = results.tables.find((t: Table) => t.id === tableId)!;
        const counted = table.rows.filter((r) => typeof r.n === 'number' && r.n > 0);
        expect(counted.length, tableId).toBeGreaterThan(1);
        for (const row of counted) {
          const filter = rowFilter(link, row)!;
          const behind = matchVerdicts(rows, filter);
          const what = `${tableId} ${JSON.stringify(filter)}`;
          if (tableId === 'subset_quality') {
            expect(behind.length, what).toBe(row.n);
            const mean = behind.reduce((s, v) => s + tieHalf(v), 0) / behind.length;
            expect(mean, what).toBeCloseTo(row.accuracy_tie_half as number, 12);
          } else {
            checkPairs(table, row, behind, what);
            flipped += behind.filter((v) => sides(v).a.choice !== sides(v).b.choice).length;
          }
        }
      }
      // The tie-probe table (ZH only here: the rows of before issue 37) opens each judge's EN-ZH
      // probes, whose normalized choices give its win rates.
      const probeLink = links.find((l) => l.table === 'tie_probe')!;
      const probeTable = results.tables.find((t: Table) => t.id === 'tie_probe')!;
      expect(probeTable.rows.length).toBe(2);
      for (const row of probeTable.rows) {
        const behind = matchVerdicts(rows, rowFilter(probeLink, row)!);
        expect(behind.length).toBe(row.n);
        expect(new Set(behind.map((v) => `${v.fields.judge} ${v.fields.language}`))).toEqual(
          new Set([`${row.judge} EN-ZH`]),
        );
        const zh = behind.filter(
          (v) =>
            normalizeChoice(v.fields.order as 'en_zh' | 'zh_en', v.verdict as 'A' | 'B' | 'tie') === 'ZH',
        );
        expect(zh.length / behind.length).toBeCloseTo(row.zh_win_rate as number, 12);
      }
    }
    // The weak judge flips now and then, so the rates checked are not all zero.
    expect(flipped).toBeGreaterThan(0);
    // The audit flags some of the simulated translations, so the second pass checked fewer.
    expect(listed[1]).toBeLessThan(listed[0]);
  }, 240_000);
});
