// The dose–response metrics (issue 37) on hand-made verdicts: pairs, levels, the trend, Holm across
// the table, and what is undefined and why.
import { describe, expect, it } from 'vitest';
import type { JudgmentRecord } from '../../../shared/protocols/judge-ls/types';
import { TREND_REASONS, clusteredLinearTrend, holmAdjust } from '../../../shared/stats';
import { doseResponse, mixedTargets } from './dose-response';

const BOOT = { B: 200, seed: 1 };

function verdict(
  judge: string,
  item: string,
  language: string,
  order: 'orig' | 'swap',
  winner: 'A' | 'B',
): JudgmentRecord {
  return {
    judge,
    itemId: item,
    subset: null,
    gold: 1,
    kind: 'quality',
    language,
    order,
    status: 'ok',
    winner,
  };
}

/** Every item picks output 1 in EN; at a level it flips where `flips(item, level)` says. */
function study(judge: string, items: number, levels: number[], flips: (i: number, level: number) => boolean) {
  const records: JudgmentRecord[] = [];
  const mixing = new Map<string, { words: number; target_words: number }>();
  for (let i = 0; i < items; i++)
    for (const order of ['orig', 'swap'] as const) {
      const keep = order === 'orig' ? 'A' : 'B';
      const other = keep === 'A' ? 'B' : 'A';
      records.push(verdict(judge, `i${i}`, 'EN', order, keep));
      for (const level of levels) {
        const target = `LS:hi@${level}`;
        records.push(verdict(judge, `i${i}`, target, order, flips(i, level) ? other : keep));
        // Measured 2 points above the ask on odd items.
        mixing.set(`${judge}\u0000i${i}\u0000${target}`, { words: 100, target_words: level + (i % 2) * 2 });
      }
    }
  return { records, mixing };
}

describe('dose–response metrics', () => {
  it('only mixed targets make a series, in canonical order', () => {
    expect(mixedTargets(['ZH', 'LS:hi@50', 'LS', 'LS:hi', 'LS:hi@0', 'ar'])).toEqual(['LS:hi@50', 'LS:hi@0']);
  });

  it('counts flips per level on the measured ratio and fits the trend over all levels', () => {
    const levels = [0, 50, 100];
    const a = study('A', 10, levels, (i, l) => (l === 50 && i < 3) || (l === 100 && i < 6));
    const b = study('B', 10, levels, (i, l) => l === 100 && i === 0);
    const d = doseResponse(
      [...a.records, ...b.records],
      ['A', 'B'],
      levels.map((l) => `LS:hi@${l}`),
      new Map([...a.mixing, ...b.mixing]),
      BOOT,
    );
    const la = d.levels.filter((l) => l.judge === 'A');
    expect(la.map((l) => [l.target, l.n, l.flips])).toEqual([
      ['LS:hi@0', 20, 0],
      ['LS:hi@50', 20, 6],
      ['LS:hi@100', 20, 12],
    ]);
    expect(la[1].measured_ratio).toBeCloseTo(0.51, 12);
    expect([la[1].measured_min, la[1].measured_max]).toEqual([0.5, 0.52]);
    const [ta, tb] = d.trend;
    // The same fit as the statistic on the observations the levels hold.
    const obs = levels.flatMap((l) =>
      Array.from({ length: 10 }, (_, i) => i).flatMap((i) =>
        Array.from({ length: 2 }, () => ({
          cluster: `i${i}`,
          x: (l + (i % 2) * 2) / 100,
          y: (l === 50 && i < 3) || (l === 100 && i < 6) ? 1 : 0,
        })),
      ),
    );
    const ref = clusteredLinearTrend(obs);
    expect(ta).toMatchObject({ judge: 'A', series: 'LS:hi', n: 60, items: 10, levels: 3 });
    expect(ta.slope).toBeCloseTo(ref.slope!, 12);
    expect(ta.slope_ci![0]).toBeCloseTo(ref.ci![0], 12);
    expect(ta.slope_p).toBeCloseTo(ref.p!, 12);
    // Holm across the table's rows (both judges).
    expect([ta.slope_p_holm, tb.slope_p_holm]).toEqual(holmAdjust([ta.slope_p!, tb.slope_p!]));
    expect(ta.slope_ci_boot).not.toBeNull();
  });

  it('says why a trend has no slope, no test or no interval', () => {
    const none = study('A', 5, [25, 75], () => false);
    const [flat] = doseResponse(none.records, ['A'], ['LS:hi@25', 'LS:hi@75'], none.mixing, BOOT).trend;
    expect(flat).toMatchObject({
      slope: 0,
      slope_ci: null,
      slope_ci_undefined_reason: TREND_REASONS.zeroSe,
      slope_p: null,
      slope_p_undefined_reason: TREND_REASONS.zeroSe,
      slope_p_holm: null,
    });
    const one = study('A', 4, [50], (i) => i === 0);
    // One level, and every item measured alike: the ratios do not vary.
    for (const k of one.mixing.keys()) one.mixing.set(k, { words: 10, target_words: 5 });
    const [single] = doseResponse(one.records, ['A'], ['LS:hi@50'], one.mixing, BOOT).trend;
    expect(single).toMatchObject({
      slope: null,
      slope_undefined_reason: TREND_REASONS.noSpread,
      slope_ci: null,
      slope_ci_boot: null,
      slope_ci_boot_undefined_reason: TREND_REASONS.noSpread,
    });
  });

  it('leaves out pairs whose text has no content words, and targets without verdicts', () => {
    const s = study('A', 3, [0, 100], () => false);
    s.mixing.set('A\u0000i0\u0000LS:hi@100', { words: 0, target_words: 0 });
    const d = doseResponse(s.records, ['A'], ['LS:hi@0', 'LS:hi@100', 'LS:ar@50'], s.mixing, BOOT);
    expect(d.levels.map((l) => [l.target, l.n])).toEqual([
      ['LS:hi@0', 6],
      ['LS:hi@100', 4],
    ]);
    expect(d.trend.map((t) => t.series)).toEqual(['LS:hi']);
  });
});
