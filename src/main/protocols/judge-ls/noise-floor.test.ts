// The noise floor's statistics on planted 2×2 tables: McNemar and Holm against statsmodels
// (test/fixtures/stats/noise-floor.json, scripts/gen-noise-floor-fixtures.py), the excess and
// its interval against Newcombe's method 10 (itself checked against published examples in
// test/stats/conformance/paired-difference.test.ts), and repeats kept out of every other metric.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JudgmentRecord, Winner } from '../../../shared/protocols/judge-ls/types';
import { newcombePairedInterval } from '../../../shared/stats';
import { computeJudgeLsMetrics } from './metrics';
import { buildTables } from '../../../shared/protocols/judge-ls/report/tables';
import { buildFigureSpecs } from '../../../shared/protocols/judge-ls/report/figures';

const fixture = JSON.parse(
  readFileSync(new URL('../../../../test/fixtures/stats/noise-floor.json', import.meta.url), 'utf8'),
) as { rows: { table: [number, number, number, number]; mcnemar_p: number; holm_p: number }[] };

/**
 * One judge's EN, EN repeat and ZH verdicts realizing the table: every pair is (item, orig), gold 1,
 * EN says A; the ZH verdict says B when the pair flips under translation, the repeat when it flips
 * under repetition.
 */
function recordsFor(judge: string, [a, b, c, d]: number[]): JudgmentRecord[] {
  const out: JudgmentRecord[] = [];
  const cells: [boolean, boolean, number][] = [
    [true, true, a],
    [true, false, b],
    [false, true, c],
    [false, false, d],
  ];
  let i = 0;
  const rec = (itemId: string, language: 'EN' | 'ZH', winner: Winner, sample?: number): JudgmentRecord => ({
    judge,
    itemId,
    subset: null,
    gold: 1,
    kind: 'quality',
    language,
    order: 'orig',
    status: 'ok',
    winner,
    ...(sample ? { sample } : {}),
  });
  for (const [language, repeat, k] of cells) {
    for (let j = 0; j < k; j++, i++) {
      const item = `item-${i}`;
      out.push(
        rec(item, 'EN', 'A'),
        rec(item, 'ZH', language ? 'B' : 'A'),
        rec(item, 'EN', repeat ? 'B' : 'A', 1),
      );
    }
  }
  return out;
}

const base = { flagged: [], checks: [], usage: [] };

describe('Judge-LS noise floor', () => {
  const records = fixture.rows.flatMap((r, i) => recordsFor(`judge ${i}`, r.table));
  const m = computeJudgeLsMetrics(records, { ...base, noiseFloor: true });

  it('matches statsmodels: exact McNemar on the discordant pairs, Holm across the rows', () => {
    const excess = m.noise_floor!.excess;
    expect(excess).toHaveLength(fixture.rows.length);
    fixture.rows.forEach((f, i) => {
      const [a, b, c, d] = f.table;
      const n = a + b + c + d;
      const row = excess[i];
      expect(row).toMatchObject({ judge: `judge ${i}`, comparison: 'EN-ZH', n });
      expect([row.both_flipped, row.language_only, row.repeat_only, row.neither]).toEqual(f.table);
      expect(row.flip_rate).toBeCloseTo((a + b) / n, 12);
      expect(row.repeat_flip_rate).toBeCloseTo((a + c) / n, 12);
      expect(row.excess_flip_rate).toBeCloseTo((b - c) / n, 12);
      expect(row.excess_flip_rate_ci).toEqual(newcombePairedInterval(a, b, c, d));
      expect(row.mcnemar_p).toBeCloseTo(f.mcnemar_p, 12);
      expect(row.mcnemar_p_holm).toBeCloseTo(f.holm_p, 12);
    });
  });

  it('reports EN against its repeat on every pair valid twice', () => {
    fixture.rows.forEach((f, i) => {
      const [a, b, c, d] = f.table;
      const r = m.noise_floor!.repeat[i];
      expect(r).toMatchObject({ judge: `judge ${i}`, n: a + b + c + d, flips: a + c });
      expect(r.flip_rate).toBeCloseTo((a + c) / (a + b + c + d), 12);
    });
  });

  it('keeps repeats out of every other metric, and adds no key without the option', () => {
    const firsts = records.filter((r) => !r.sample);
    const without = computeJudgeLsMetrics(firsts, base);
    expect('noise_floor' in without).toBe(false);
    const { noise_floor, ...rest } = m;
    expect(noise_floor).toBeDefined();
    expect(rest).toEqual(without);
    // The option on but no repeat stored yet: empty rows, not an error.
    expect(computeJudgeLsMetrics(firsts, { ...base, noiseFloor: true }).noise_floor).toEqual({
      repeat: [],
      excess: [],
    });
  });

  it('counts a failed repeat under its own kind and leaves its pair out', () => {
    const recs = recordsFor('j', [1, 1, 1, 1]);
    const repeat = recs.find((r) => r.sample === 1 && r.itemId === 'item-0')!;
    Object.assign(repeat, { status: 'failed', winner: null, failureReason: 'unparseable' });
    const mm = computeJudgeLsMetrics(recs, { ...base, noiseFloor: true });
    expect(mm.failures).toEqual([
      { judge: 'j', kind: 'repeat', language: 'EN', reason: 'unparseable', count: 1 },
    ]);
    expect(mm.noise_floor!.repeat[0].n).toBe(3);
    expect(mm.noise_floor!.excess[0].n).toBe(3);
  });

  it('shows the noise floor in a table and beside the flips on the same axis', () => {
    const tables = buildTables(m);
    const nf = tables.find((t) => t.id === 'noise_floor')!;
    expect(nf.caption).toContain('Newcombe (1998) method 10');
    expect(nf.caption).toContain('McNemar');
    expect(nf.rows[0]).toMatchObject({ judge: 'judge 0', comparison: 'EN-EN (repeat)', n: 50 });
    expect(nf.rows[1]).toMatchObject({ judge: 'judge 0', comparison: 'EN-ZH' });
    const flips = buildFigureSpecs(m).find((f) => f.id === 'flip_rates')!;
    const names = (flips.option.series as { name?: string }[]).map((s) => s.name);
    expect(names).toContain('Repeat flip EN-EN (noise floor)');
    const off = computeJudgeLsMetrics(
      records.filter((r) => !r.sample),
      base,
    );
    expect(buildTables(off).some((t) => t.id === 'noise_floor')).toBe(false);
    const offNames = (
      buildFigureSpecs(off).find((f) => f.id === 'flip_rates')!.option.series as { name?: string }[]
    ).map((s) => s.name);
    expect(offNames).not.toContain('Repeat flip EN-EN (noise floor)');
  });

  it('refuses a repeat no plan makes', () => {
    const bad: JudgmentRecord = { ...recordsFor('j', [0, 0, 0, 1])[1], sample: 1 };
    expect(() => computeJudgeLsMetrics([bad], base)).toThrow(/impossible/);
  });
});
