// Reference sensitivity's tables open the verdicts behind their cells (issue 26 item 4): for every
// row of `acceptance` (single verdicts), `calibration` (a question's C1 against its C2 verdict)
// and `flips` (an answer's verdicts in the two settings of a transition), with and without the
// flagged items, the rows the cell's filter selects are exactly n, and they give the row's
// numbers: the acceptance rate; C1 and C2 acceptance and their difference (CGP); the flip rate,
// the flips by direction and McNemar's p.
// With the noise floor on, every row of `noise_floor` opens its n answers: on NR-NR the NR verdict
// against its repeat, whose flips give the flip rate; on NR-RV and NR-RC the NR verdict, the
// setting's and the repeat's, which give both flip rates, the excess, the 2×2 counts and McNemar's
// p, each verdict with its reason.
// Simulated provider through the core, two generators (so generator "all" pools); the rows are
// matched as the browser matches them.
import { describe, expect, it } from 'vitest';
import type { Table } from '../../../src/shared/report/table';
import { clusteredMcnemarExact } from '../../../src/shared/stats';

/** Per question (dataset item): the sum of its pairs' +1 / −1; the McNemar tests' unit. */
function perItem(items: readonly number[], diffs: readonly number[]): number[] {
  const sums = new Map<number, number>();
  items.forEach((item, i) => sums.set(item, (sums.get(item) ?? 0) + diffs[i]));
  return [...sums.values()];
}
import { matchVerdicts, rowFilter } from '../../../src/shared/verdicts';
import { useSampleCore } from '../../helpers/sample-core';

const sample = useSampleCore('tydiqa');

const config = {
  name: 'refsens-verdicts',
  protocol: 'reference-sensitivity',
  dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
  limit: 18,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
  generators: [
    { label: 'Gen A', provider: 'sim', model: 'sim-generator' },
    { label: 'Gen B', provider: 'sim', model: 'sim-generator-weak' },
  ],
  judges: [
    { label: 'Sim judge', provider: 'sim', model: 'sim-judge' },
    { label: 'Weak judge', provider: 'sim', model: 'sim-judge-weak' },
  ],
};

const sides = (verdict: string) => verdict.split(' → ') as [string, string];
const accepted = (v: string) => v === 'CORRECT';

describe('reference sensitivity cells', () => {
  it('open exactly the verdicts or pairs behind each row, which give its numbers', async () => {
    const { id } = await sample.core.call('experiments.create', { config });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const { links } = await sample.core.call('experiments.verdictLinks', { experimentId: id });
    let flipped = 0;
    for (const excludeFlagged of [false, true]) {
      const results = await sample.core.call('experiments.results', { experimentId: id, excludeFlagged });
      const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id, excludeFlagged });
      for (const tableId of ['acceptance', 'calibration', 'flips']) {
        const link = links.find((l) => l.table === tableId)!;
        expect(link, tableId).toBeDefined();
        const table = results.tables.find((t: Table) => t.id === tableId)!;
        const counted = table.rows.filter((r) => typeof r.n === 'number' && r.n > 0);
        expect(counted.length, tableId).toBeGreaterThan(1);
        for (const row of counted) {
          const filter = rowFilter(link, row)!;
          const behind = matchVerdicts(rows, filter);
          const what = `${tableId} ${JSON.stringify(filter)}`;
          const n = behind.length;
          expect(n, what).toBe(row.n);
          expect(behind.every((v) => v.reason.length > 0)).toBe(true);
          if (tableId === 'acceptance') {
            expect(behind.filter((v) => accepted(v.verdict)).length / n, what).toBeCloseTo(
              row.accept_rate as number,
              12,
            );
            continue;
          }
          const pairs = behind.map((v) => sides(v.verdict));
          const first = pairs.filter(([a]) => accepted(a)).length / n;
          const second = pairs.filter(([, b]) => accepted(b)).length / n;
          if (tableId === 'calibration') {
            expect(first, what).toBeCloseTo(row.c1_accept as number, 12);
            expect(second, what).toBeCloseTo(row.c2_accept as number, 12);
            expect(first - second, what).toBeCloseTo(row.cgp as number, 12);
            // Each pair shows both answers the judge was shown.
            expect(behind.every((v) => /^C1: [^]*\nC2: /.test(v.shown ?? ''))).toBe(true);
            continue;
          }
          const c2i = pairs.filter(([a, b]) => accepted(a) && !accepted(b)).length;
          const i2c = pairs.filter(([a, b]) => !accepted(a) && accepted(b)).length;
          flipped += c2i + i2c;
          expect([c2i, i2c], what).toEqual([row.correct_to_incorrect, row.incorrect_to_correct]);
          expect((c2i + i2c) / n, what).toBeCloseTo(row.flip_rate as number, 12);
          const d = pairs.map(([a, b]) => (accepted(a) === accepted(b) ? 0 : accepted(a) ? 1 : -1));
          expect(
            clusteredMcnemarExact(
              perItem(
                behind.map((v) => v.itemId),
                d,
              ),
            ),
            what,
          ).toBeCloseTo(row.mcnemar_p as number, 12);
          expect(behind.every((v) => (v.shown ?? '').length > 0)).toBe(true);
        }
      }
    }
    // The weak judge's verdicts move with the reference, so the flip rates checked are not all zero.
    expect(flipped).toBeGreaterThan(0);
  }, 240_000);

  it('with the noise floor, open the repeats behind each noise-floor row, which give its numbers', async () => {
    const { id } = await sample.core.call('experiments.create', {
      config: {
        ...config,
        name: 'refsens-verdicts-nf',
        noiseFloor: true,
        parts: { calibration: false },
        judges: [
          { label: 'Sim flip', provider: 'sim', model: 'sim-judge-strong-flip30' },
          { label: 'Weak judge', provider: 'sim', model: 'sim-judge-weak' },
        ],
      },
    });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const { links } = await sample.core.call('experiments.verdictLinks', { experimentId: id });
    const link = links.find((l) => l.table === 'noise_floor')!;
    expect(link).toBeDefined();
    let repeatFlips = 0;
    for (const excludeFlagged of [false, true]) {
      const results = await sample.core.call('experiments.results', { experimentId: id, excludeFlagged });
      const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id, excludeFlagged });
      const table = results.tables.find((t: Table) => t.id === 'noise_floor')!;
      expect(table.rows.filter((r) => r.transition !== 'NR-NR (repeat)').length).toBeGreaterThan(1);
      for (const row of table.rows) {
        const filter = rowFilter(link, row)!;
        const behind = matchVerdicts(rows, filter);
        const what = JSON.stringify(filter);
        const n = behind.length;
        expect(n, what).toBe(row.n);
        expect(n, what).toBeGreaterThan(0);
        const lines = row.transition === 'NR-NR (repeat)' ? 2 : 3;
        expect(
          behind.every((v) => v.reason.split('\n').length === lines && !/: $/m.test(v.reason)),
          what,
        ).toBe(true);
        if (lines === 2) {
          const flips = behind.filter((v) => new Set(sides(v.verdict)).size === 2).length;
          repeatFlips += flips;
          expect(flips / n, what).toBeCloseTo(row.flip_rate as number, 12);
          continue;
        }
        // "NR → setting ↺ repeat"
        const triples = behind.map((v) => {
          const [nr, rest] = sides(v.verdict);
          const [to, again] = rest.split(' ↺ ');
          return { changed: to !== nr, repeated: again !== nr };
        });
        const count = (c: boolean, r: boolean) =>
          triples.filter((t) => t.changed === c && t.repeated === r).length;
        const [a, b, c] = [count(true, true), count(true, false), count(false, true)];
        expect([a, b, c], what).toEqual([row.both_flipped, row.change_only, row.repeat_only]);
        expect((a + b) / n, what).toBeCloseTo(row.flip_rate as number, 12);
        expect((a + c) / n, what).toBeCloseTo(row.repeat_flip_rate as number, 12);
        expect((b - c) / n, what).toBeCloseTo(row.excess_flip_rate as number, 12);
        const d = triples.map((t) => (t.changed === t.repeated ? 0 : t.changed ? 1 : -1));
        expect(
          clusteredMcnemarExact(
            perItem(
              behind.map((v) => v.itemId),
              d,
            ),
          ),
          what,
        ).toBeCloseTo(row.mcnemar_p as number, 12);
      }
    }
    // The planted repeat flips show, so the rates checked are not all zero.
    expect(repeatFlips).toBeGreaterThan(0);
  }, 240_000);
});
