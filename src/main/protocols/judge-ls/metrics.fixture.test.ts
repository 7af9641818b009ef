// Hand-made judgments for 12 items and 2 judges, with every expected metric worked out by
// hand below. Cells hold the judge's NORMALIZED choice (1 | 2 | 'tie'); the fixture turns
// it into the raw winner letter with its own inverse mapping (orig: 1→A, 2→B; swap:
// 1→B, 2→A), so a wrong normalization in the code under test shows up as wrong metrics.
// Failure cells: 'x' = failed "invalid answer", 't' = failed "timeout", 'n' = failed with no
// reason stored, 'h' = failed "HTTP 400: bad request"; a missing language is simply absent.
import { describe, expect, it } from 'vitest';
import type { JudgmentRecord, UsageRow } from '../../../shared/protocols/judge-ls/types';
import {
  binomialTestTwoSided,
  clusterBootstrapRatio,
  holmAdjust,
  mcnemarExact,
  newcombePairedInterval,
  wilsonInterval,
} from '../../../shared/stats';
import { computeJudgeLsMetrics } from './metrics';

type Fail = 'x' | 't' | 'n' | 'h';
type Cell = 1 | 2 | 'tie' | Fail;
type ProbeCell = 'EN' | 'ZH' | 'tie' | Fail;
interface Row {
  EN: [Cell, Cell];
  ZH?: [Cell, Cell];
  LS?: [Cell, Cell];
  probe?: [ProbeCell, ProbeCell];
}

// item: [subset, gold]. I3 and I8 are flagged by the audit; I11 has no LS variant; I12 has no subset.
const ITEMS: Record<string, [string | null, 1 | 2]> = {
  I1: ['Natural', 1],
  I2: ['Natural', 2],
  I3: ['Natural', 1],
  I4: ['Natural', 2],
  I5: ['Natural', 1],
  I6: ['Natural', 2],
  I7: ['Adv', 1],
  I8: ['Adv', 2],
  I9: ['Adv', 1],
  I10: ['Adv', 2],
  I11: ['Adv', 1],
  I12: [null, 2],
};

//            EN [orig, swap]   ZH [orig, swap]    LS [orig, swap]     probe [en_zh, zh_en]
const J1: Record<string, Row> = {
  I1: { EN: [1, 1], ZH: [1, 1], LS: [1, 2], probe: ['EN', 'EN'] },
  I2: { EN: [2, 2], ZH: [2, 'tie'], LS: [2, 2], probe: ['tie', 'tie'] },
  I3: { EN: [1, 1], ZH: [2, 2], LS: [1, 1], probe: ['EN', 'ZH'] },
  I4: { EN: [1, 2], ZH: ['tie', 2], LS: [2, 2], probe: ['ZH', 'EN'] },
  I5: { EN: ['tie', 1], ZH: ['tie', 'tie'], LS: [1, 1], probe: ['tie', 'ZH'] },
  I6: { EN: [2, 2], ZH: [2, 'n'], LS: ['x', 'x'], probe: ['t', 'tie'] },
  I7: { EN: [1, 1], ZH: [1, 1], LS: [2, 1], probe: ['EN', 'EN'] },
  I8: { EN: [2, 1], ZH: [1, 1], LS: [2, 2], probe: ['tie', 'tie'] },
  I9: { EN: [2, 2], ZH: [1, 1], LS: [2, 2], probe: ['ZH', 'ZH'] },
  I10: { EN: [2, 2], ZH: [2, 2], LS: [2, 2], probe: ['tie', 'EN'] },
  I11: { EN: [1, 't'], ZH: [1, 1], probe: ['EN', 'tie'] },
  I12: { EN: [2, 2], ZH: [1, 2], LS: [2, 'tie'], probe: ['tie', 'tie'] },
};

// J2 judged only I1–I4: every LS verdict and every tie probe failed.
const J2: Record<string, Row> = {
  I1: { EN: [1, 1], ZH: [2, 1], LS: ['x', 'x'], probe: ['h', 'h'] },
  I2: { EN: [2, 1], ZH: [2, 2], LS: ['x', 'x'], probe: ['h', 'h'] },
  I3: { EN: ['tie', 'tie'], ZH: [1, 't'], LS: ['t', 'x'], probe: ['h', 'h'] },
  I4: { EN: [2, 2], ZH: [2, 2], LS: ['x', 'x'], probe: ['h', 'h'] },
};

const FAIL_REASONS: Record<Fail, string | null> = {
  x: 'invalid answer',
  t: 'timeout',
  n: null,
  h: 'HTTP 400: bad request',
};

function isFail(c: Cell | ProbeCell): c is Fail {
  return c === 'x' || c === 't' || c === 'n' || c === 'h';
}

function qualityWinner(order: 'orig' | 'swap', c: 1 | 2 | 'tie'): 'A' | 'B' | 'tie' {
  if (c === 'tie') return 'tie';
  return (order === 'orig') === (c === 1) ? 'A' : 'B';
}

function probeWinner(order: 'en_zh' | 'zh_en', c: 'EN' | 'ZH' | 'tie'): 'A' | 'B' | 'tie' {
  if (c === 'tie') return 'tie';
  return (order === 'en_zh') === (c === 'EN') ? 'A' : 'B';
}

function records(judge: string, table: Record<string, Row>): JudgmentRecord[] {
  const out: JudgmentRecord[] = [];
  for (const [itemId, row] of Object.entries(table)) {
    const [subset, gold] = ITEMS[itemId];
    const base = { judge, itemId, subset, gold };
    for (const language of ['EN', 'ZH', 'LS'] as const) {
      const cells = row[language];
      if (!cells) continue;
      (['orig', 'swap'] as const).forEach((order, i) => {
        const c = cells[i];
        out.push(
          isFail(c)
            ? {
                ...base,
                kind: 'quality',
                language,
                order,
                status: 'failed',
                winner: null,
                failureReason: FAIL_REASONS[c],
              }
            : { ...base, kind: 'quality', language, order, status: 'ok', winner: qualityWinner(order, c) },
        );
      });
    }
    if (row.probe) {
      (['en_zh', 'zh_en'] as const).forEach((order, i) => {
        const c = row.probe![i];
        out.push(
          isFail(c)
            ? {
                ...base,
                kind: 'tie_probe',
                language: 'EN-ZH',
                order,
                status: 'failed',
                winner: null,
                failureReason: FAIL_REASONS[c],
              }
            : {
                ...base,
                kind: 'tie_probe',
                language: 'EN-ZH',
                order,
                status: 'ok',
                winner: probeWinner(order, c),
              },
        );
      });
    }
  }
  return out;
}

const RECORDS = [...records('J1', J1), ...records('J2', J2)];
const FLAGGED = [
  { item_id: 'I3', reasons: ['ZH.output_1: numbers_missing (EN 4, ZH 0)'] },
  { item_id: 'I8', reasons: ['LS.output_2: length_ratio (0.2 < 0.35; EN 100, LS 20 chars)'] },
];
const CHECKS = [{ rule: 'empty', description: 'A variant field is blank while the English field is not.' }];
const USAGE: UsageRow[] = [
  {
    role: 'J1',
    judge: 'J1',
    model: 'm1',
    calls: 90,
    cache_hits: 2,
    input_tokens: 1000,
    output_tokens: 200,
    cached_input_tokens: 10,
    cache_write_tokens: 0,
    cost_usd: 0.5,
  },
  {
    role: 'transformer',
    judge: 'transformer',
    model: 'mt',
    calls: 24,
    cache_hits: 0,
    input_tokens: 5000,
    output_tokens: 6000,
    cached_input_tokens: 0,
    cache_write_tokens: 0,
    cost_usd: 1.25,
  },
];
const TRANSFORM_FAILURES = [{ itemId: 'I11', language: 'LS' as const, reason: 'invalid answer' }];

const metrics = computeJudgeLsMetrics(RECORDS, {
  flagged: FLAGGED,
  checks: CHECKS,
  usage: USAGE,
  transformFailures: TRANSFORM_FAILURES,
});

/** A quality row from hand counts: k correct, t ties, a raw "A" winners out of n. */
/** No flagged items, no audit checks and no usage: the metrics of the judgments alone. */
const NOTHING_ELSE = { flagged: [], checks: [], usage: [] };

/** One stored EN quality verdict of judge J on item a (gold 1, original order, answer A); `over` changes it. */
function oneRecord(over: Partial<JudgmentRecord> = {}): JudgmentRecord {
  return {
    judge: 'J',
    itemId: 'a',
    subset: null,
    gold: 1,
    kind: 'quality',
    language: 'EN',
    order: 'orig',
    status: 'ok',
    winner: 'A',
    ...over,
  };
}

function qualityRow(judge: string, language: string, n: number, k: number, t: number, a: number) {
  return {
    judge,
    language,
    n,
    accuracy_strict: k / n,
    accuracy_strict_ci: wilsonInterval(k, n),
    // Checked on its own below (it needs the per-item split, not just the counts).
    accuracy_strict_ci_boot: expect.any(Array),
    accuracy_tie_half: (k + 0.5 * t) / n,
    // Wilson score interval on the tie-half mean (k = the scores' sum, n = verdicts).
    accuracy_tie_half_ci: wilsonInterval(k + 0.5 * t, n),
    position_a_rate: a / n,
    tie_rate: t / n,
  };
}

function invarianceRow(
  judge: string,
  comparison: string,
  n: number,
  flips: number,
  c: { both: number; en: number; target: number; wrong: number },
) {
  expect(c.both + c.en + c.target + c.wrong).toBe(n); // the hand counts partition the pairs
  return {
    judge,
    comparison,
    n,
    flip_rate: flips / n,
    flip_rate_ci: wilsonInterval(flips, n),
    flip_rate_ci_boot: expect.any(Array),
    correctness_flip_rate: (c.en + c.target) / n,
    correctness_flip_rate_ci: wilsonInterval(c.en + c.target, n),
    correctness_flip_rate_ci_boot: expect.any(Array),
    both_correct: c.both,
    en_only_correct: c.en,
    target_only_correct: c.target,
    both_wrong: c.wrong,
    // Item-clustered: worked by hand per row below.
    mcnemar_p: expect.any(Number),
    mcnemar_p_holm: expect.any(Number),
    accuracy_change: (c.target - c.en) / n,
    accuracy_change_ci: newcombePairedInterval(c.both, c.target, c.en, c.wrong),
  };
}

describe('Judge-LS metrics on a hand-worked fixture', () => {
  it('adjusts the McNemar p-values of the invariance table together (Holm)', () => {
    const rows = metrics.language_invariance;
    expect(rows.map((r) => r.mcnemar_p_holm)).toEqual(holmAdjust(rows.map((r) => r.mcnemar_p)));
    expect(rows.length).toBeGreaterThan(1);
    // The sensitivity table is its own family.
    const kept = metrics.sensitivity.language_invariance;
    expect(kept.map((r) => r.mcnemar_p_holm)).toEqual(holmAdjust(kept.map((r) => r.mcnemar_p)));
  });

  it('resamples whole items for the bootstrap interval of strict accuracy', () => {
    // J1 LS, correct verdicts per item (both orders; I6 failed, I11 has no LS), items by id:
    // I1 1, I10 2, I12 1, I2 2, I3 2, I4 2, I5 2, I7 1, I8 2, I9 0 → 15/20.
    const clusters = [1, 2, 1, 2, 2, 2, 2, 1, 2, 0].map((num) => ({ num, den: 2 }));
    const ls = metrics.quality.find((r) => r.judge === 'J1' && r.language === 'LS')!;
    expect(ls.accuracy_strict_ci_boot).toEqual(clusterBootstrapRatio(clusters, { B: 2000, seed: 1 }));
    const [lo, hi] = ls.accuracy_strict_ci_boot!;
    expect(lo).toBeLessThan(0.75);
    expect(hi).toBeGreaterThan(0.75);
    expect(metrics.statistics).toEqual({
      ci: 'wilson',
      bootstrap_b: 2000,
      bootstrap_seed: 1,
      resampling_unit: 'item',
    });
  });

  it('takes the bootstrap seed and replicates from the options, and gives the same interval again', () => {
    const input = { flagged: FLAGGED, checks: CHECKS, usage: USAGE };
    const a = computeJudgeLsMetrics(RECORDS, { ...input, statistics: { bootstrapB: 500, seed: 42 } });
    const b = computeJudgeLsMetrics(RECORDS, { ...input, statistics: { bootstrapB: 500, seed: 42 } });
    expect(a.quality.map((r) => r.accuracy_strict_ci_boot)).toEqual(
      b.quality.map((r) => r.accuracy_strict_ci_boot),
    );
    expect(a.quality[0].accuracy_strict_ci_boot).not.toEqual(metrics.quality[0].accuracy_strict_ci_boot);
    expect(a.statistics).toMatchObject({ bootstrap_b: 500, bootstrap_seed: 42 });
  });

  it('quality per judge and language', () => {
    expect(metrics.quality).toEqual([
      // J1 EN: 23 valid (I11 swap failed). Correct per item (orig+swap): I1 2, I2 2, I3 2, I4 1 (orig 1≠gold 2),
      // I5 1 (orig tie), I6 2, I7 2, I8 1 (swap 1≠2), I9 0, I10 2, I11 1, I12 2 = 18; ties 1 (I5 orig);
      // wrong 4. strict 18/23; tie-half (18 + 0.5)/23. Raw A: orig choice 1 = I1 I3 I4 I7 I11 (5);
      // swap choice 2 = I2 I4 I6 I9 I10 I12 (6) → 11/23. tie 1/23.
      qualityRow('J1', 'EN', 23, 18, 1, 11),
      // J1 ZH: 23 valid (I6 swap failed). Correct: I1 2, I2 1 (swap tie), I3 0, I4 1 (orig tie), I5 0 (tie, tie),
      // I6 1, I7 2, I8 0, I9 2, I10 2, I11 2, I12 1 = 14; ties I2s I4o I5o I5s = 4; wrong 5.
      // strict 14/23; tie-half (14 + 2)/23. Raw A: orig choice 1 = I1 I7 I8 I9 I11 I12 (6);
      // swap choice 2 = I3 I4 I10 I12 (4) → 10/23. tie 4/23.
      qualityRow('J1', 'ZH', 23, 14, 4, 10),
      // J1 LS: I11 has no LS, I6 both failed → 20 valid. Correct: I1 1, I2 2, I3 2, I4 2, I5 2, I7 1, I8 2,
      // I9 0, I10 2, I12 1 = 15; ties 1 (I12 swap); wrong 4. strict 15/20 = 0.75, Wilson 95%:
      // p=0.75, z²=3.84146, centre (0.75 + 3.84146/40)/(1 + 3.84146/20) = 0.70972, half-width
      // 1.95996/1.19207 · √(0.75·0.25/20 + 3.84146/1600) = 0.17842 → [0.53130, 0.88814].
      // tie-half 15.5/20 = 0.775; Wilson score on the mean, k = 15.5, n = 20: centre
      // (15.5 + 3.84146/2)/23.84146 = 0.73069, half-width 1.95996/23.84146 · √(15.5·4.5/20 + 3.84146/4)
      // = 0.17338 → [0.55731, 0.90407] (the normal approximation gave [0.59409, 0.95591]).
      // Raw A: orig choice 1 = I1 I3 I5 (3); swap choice 2 = I1 I2 I4 I8 I9 I10 (6) → 9/20. tie 1/20.
      qualityRow('J1', 'LS', 20, 15, 1, 9),
      // J2 EN: 8 valid. I1 (1,1) ✓✓, I2 (2,1) ✓✗, I3 (tie,tie), I4 (2,2) ✓✓ → correct 5, ties 2, wrong 1.
      // strict 5/8, tie-half 6/8. Raw A: orig I1 (choice 1); swap I4 (choice 2) → 2/8. tie 2/8.
      qualityRow('J2', 'EN', 8, 5, 2, 2),
      // J2 ZH: 7 valid (I3 swap failed). I1 (2,1) ✗✓, I2 (2,2) ✓✓, I3 (1) ✓, I4 (2,2) ✓✓ → correct 6, wrong 1.
      // Raw A: orig I3 (choice 1); swap I2, I4 (choice 2) → 3/7. No ties.
      qualityRow('J2', 'ZH', 7, 6, 0, 3),
      // J2 LS: every verdict failed → n = 0 → no row (the failures say why).
    ]);
    const ls = metrics.quality[2];
    expect(ls.accuracy_strict_ci![0]).toBeCloseTo(0.5313, 4);
    expect(ls.accuracy_strict_ci![1]).toBeCloseTo(0.88814, 4);
    expect(ls.accuracy_tie_half).toBe(0.775);
    expect(ls.accuracy_tie_half_ci[0]).toBeCloseTo(0.55731, 4);
    expect(ls.accuracy_tie_half_ci[1]).toBeCloseTo(0.90407, 4);
  });

  it('language invariance per judge and comparison', () => {
    expect(metrics.language_invariance).toEqual([
      // J1 EN-ZH: (item, order) valid in both = 24 − I11 swap (EN failed) − I6 swap (ZH failed) = 22.
      // EN vs ZH: I1o 1/1 ✓✓, I1s 1/1 ✓✓, I2o 2/2 ✓✓, I2s 2/tie flip ✓✗, I3o 1/2 flip ✓✗, I3s 1/2 flip ✓✗,
      // I4o 1/tie flip ✗✗ (a flip that changes no correctness), I4s 2/2 ✓✓, I5o tie/tie ✗✗,
      // I5s 1/tie flip ✓✗, I6o 2/2 ✓✓, I7o ✓✓, I7s ✓✓, I8o 2/1 flip ✓✗, I8s 1/1 ✗✗, I9o 2/1 flip ✗✓,
      // I9s 2/1 flip ✗✓, I10o ✓✓, I10s ✓✓, I11o ✓✓, I12o 2/1 flip ✓✗, I12s 2/2 ✓✓.
      // flips 9; both ✓ 11, EN only 6, ZH only 2, both ✗ 3; correctness flips 8;
      // McNemar over pairs (6 vs 2) would be 2·(C(8,0)+C(8,1)+C(8,2))/2⁸ = 0.2890625, but I3 (✓✗ in
      // both orders) and I9 (✗✓ in both) are one item each: item-clustered, below.
      invarianceRow('J1', 'EN-ZH', 22, 9, { both: 11, en: 6, target: 2, wrong: 3 }),
      // J1 EN-LS: LS valid for I1–I5, I7–I10, I12 in both orders = 20 pairs (EN valid for all of them).
      // I1s 1/2 flip ✓✗, I4o 1/2 flip ✗✓, I5o tie/1 flip ✗✓, I7o 1/2 flip ✓✗, I8s 1/2 flip ✗✓,
      // I12s 2/tie flip ✓✗, I9o and I9s 2/2 ✗✗, the other 12 pairs ✓✓.
      // flips 6 (0.3); both ✓ 12, EN only 3, LS only 3, both ✗ 2; McNemar (3 vs 3) = 1.
      invarianceRow('J1', 'EN-LS', 20, 6, { both: 12, en: 3, target: 3, wrong: 2 }),
      // J2 EN-ZH: pairs I1o I1s I2o I2s I3o I4o I4s = 7 (I3 swap failed in ZH).
      // I1o 1/2 flip ✓✗, I1s ✓✓, I2o ✓✓, I2s 1/2 flip ✗✓, I3o tie/1 flip ✗✓, I4o ✓✓, I4s ✓✓.
      // flips 3; both ✓ 4, EN only 1, ZH only 2, both ✗ 0; McNemar (1 vs 2): 2·(1+3)/8 > 1 → 1.
      invarianceRow('J2', 'EN-ZH', 7, 3, { both: 4, en: 1, target: 2, wrong: 0 }),
      // J2 EN-LS: no valid LS verdict → no pair → no row.
    ]);
    // J1 EN-ZH per item (EN-only − ZH-only pairs): I2 +1, I3 +2, I5 +1, I8 +1, I9 −2, I12 +1; sum 4.
    // Sign flips: A = ±1 over four items (2X − 4, X ~ Bin(4, ½)), B = ±2 over two (2(2Y − 2)).
    // P(|A + B| ≥ 4) = (11 + 4 + 11)/64: B = −4 with A ≤ 0 (1 + 4 + 6 of 16), B = 0 with A = ±4
    // (2 of 16, weight 2), B = +4 mirrored.
    expect(metrics.language_invariance[0].mcnemar_p).toBeCloseTo(26 / 64, 12);
    expect(mcnemarExact(6, 2)).toBeCloseTo(0.2890625, 12); // what the pairs alone would say
    expect(metrics.language_invariance[0].flip_rate_ci![0]).toBeCloseTo(0.23256, 4); // Wilson(9, 22)
    expect(metrics.language_invariance[0].flip_rate_ci![1]).toBeCloseTo(0.61265, 4);
    // J1 EN-LS: six items with one discordant pair each (3 vs 3); J2 EN-ZH: three (1 vs 2).
    expect(metrics.language_invariance[1].mcnemar_p).toBeCloseTo(mcnemarExact(3, 3), 12);
    expect(metrics.language_invariance[1].mcnemar_p).toBeCloseTo(1, 12);
    expect(metrics.language_invariance[2].mcnemar_p).toBeCloseTo(1, 12);
    // J1 EN-ZH: ZH − EN = (2 − 6)/22; Newcombe paired CI checked against the hand-worked table.
    expect(metrics.language_invariance[0].accuracy_change).toBeCloseTo(-4 / 22, 12);
    const [lo, hi] = metrics.language_invariance[0].accuracy_change_ci;
    expect(lo).toBeLessThan(-4 / 22);
    expect(hi).toBeGreaterThan(-4 / 22);
    expect(lo).toBeGreaterThanOrEqual(-1);
  });

  it('position consistency per judge and language', () => {
    // The paired lean columns from the hand-counted classes of items (orig choice, swap choice):
    // (1,2) shows the first answer both times, (2,1) the second; (1,1) and (2,2) keep the answer.
    // Every lean p is 1 (at most one discordant item), so Holm leaves them at 1.
    const lean = (bf: number, bs: number, tied: number, kept1: number, kept2: number) => {
      const decided = bf + bs + kept1 + kept2;
      const [lo, hi] = newcombePairedInterval(kept1, bf, bs, kept2);
      return {
        both_first: bf,
        both_second: bs,
        tied,
        lean: bf > bs ? 'first' : bs > bf ? 'second' : 'none',
        lean_p: mcnemarExact(bf, bs),
        lean_p_holm: 1,
        first_rate: 0.5 + (bf - bs) / (2 * decided),
        first_rate_ci: [0.5 + lo / 2, 0.5 + hi / 2],
      };
    };
    expect(metrics.position).toEqual([
      // J1 EN: items valid in both orders = all but I11 → 11; orig ≠ swap: I4 (1,2), I5 (tie,1), I8 (2,1) → 3/11.
      {
        judge: 'J1',
        language: 'EN',
        n: 11,
        inconsistency_rate: 3 / 11,
        inconsistency_rate_ci: wilsonInterval(3, 11),
        // Both first: I4 (1,2); both second: I8 (2,1); I5 tied; kept (1,1): I1 I3 I7, kept (2,2): 5.
        ...lean(1, 1, 1, 3, 5),
      },
      // J1 ZH: all but I6 → 11; I2 (2,tie), I4 (tie,2), I12 (1,2) → 3/11 (I5 tie/tie is consistent).
      {
        judge: 'J1',
        language: 'ZH',
        n: 11,
        inconsistency_rate: 3 / 11,
        inconsistency_rate_ci: wilsonInterval(3, 11),
        // Both first: I12 (1,2); tied: I2, I4, I5; kept (1,1): I1 I7 I8 I9 I11, kept (2,2): I3 I10.
        ...lean(1, 0, 3, 5, 2),
      },
      // J1 LS: I1–I5, I7–I10, I12 → 10; I1 (1,2), I7 (2,1), I12 (2,tie) → 3/10.
      {
        judge: 'J1',
        language: 'LS',
        n: 10,
        inconsistency_rate: 0.3,
        inconsistency_rate_ci: wilsonInterval(3, 10),
        // Both first: I1 (1,2); both second: I7 (2,1); I12 tied; kept (1,1): I3 I5, kept (2,2): 5.
        ...lean(1, 1, 1, 2, 5),
      },
      // J2 EN: 4 items; I2 (2,1) → 1/4 (I3 tie/tie consistent).
      {
        judge: 'J2',
        language: 'EN',
        n: 4,
        inconsistency_rate: 0.25,
        inconsistency_rate_ci: wilsonInterval(1, 4),
        // Both second: I2 (2,1); I3 tied; kept (1,1): I1, kept (2,2): I4.
        ...lean(0, 1, 1, 1, 1),
      },
      // J2 ZH: I3 has one order only → I1, I2, I4; I1 (2,1) → 1/3. J2 LS: none → no row.
      {
        judge: 'J2',
        language: 'ZH',
        n: 3,
        inconsistency_rate: 1 / 3,
        inconsistency_rate_ci: wilsonInterval(1, 3),
        // Both second: I1 (2,1); kept (2,2): I2, I4.
        ...lean(0, 1, 0, 0, 2),
      },
    ]);
  });

  it('tie probes per judge', () => {
    // J1: 24 probes, I6 en_zh failed → 23. EN: I1×2, I3, I4, I7×2, I10, I11 = 8; ZH: I3, I4, I5, I9×2 = 5;
    // ties: I2×2, I5, I6, I8×2, I10, I11, I12×2 = 10. EN share of non-ties 8/13.
    // Over probes as independent draws (8 of 13, p = ½) it would be 2·(C(13,0..5) = 2380)/2¹³ = 4760/8192.
    // J2: all 8 probes failed → no row.
    expect(metrics.tie_probe).toEqual([
      {
        judge: 'J1',
        n: 23,
        en_wins: 8,
        zh_wins: 5,
        ties: 10,
        en_win_rate: 8 / 23,
        en_win_rate_ci: wilsonInterval(8, 23),
        zh_win_rate: 5 / 23,
        zh_win_rate_ci: wilsonInterval(5, 23),
        tie_rate: 10 / 23,
        tie_rate_ci: wilsonInterval(10, 23),
        en_share_non_tie: 8 / 13,
        // Item-clustered: each item's EN wins minus ZH wins over its two orders: I1 +2, I5 −1,
        // I7 +2, I9 −2, I10 +1, I11 +1 (the rest 0); sum 3. Sign flips: A = ±1 over three items
        // (2X − 3), B = ±2 over three (2(2Y − 3)); P(|A + B| ≥ 3) = (8 + 12 + 12 + 8)/64: B = ±6
        // with any A (8 of 8 each), B = ±2 with A on its side (4 of 8, weight 3).
        binomial_p: expect.closeTo(40 / 64, 12),
        // One judge with probes: Holm over a family of one leaves p as it is.
        binomial_p_holm: expect.closeTo(40 / 64, 12),
      },
    ]);
    expect(binomialTestTwoSided(8, 13)).toBeCloseTo(4760 / 8192, 12);
  });

  it('tie-half accuracy per subset (items without a subset are left out)', () => {
    const row = (judge: string, subset: string, language: string, scores: number[]) => ({
      judge,
      subset,
      language,
      n: scores.length,
      accuracy_tie_half: scores.reduce((a, b) => a + b, 0) / scores.length,
      accuracy_tie_half_ci: wilsonInterval(
        scores.reduce((a, b) => a + b, 0),
        scores.length,
      ),
    });
    expect(metrics.subset_quality).toEqual([
      // Natural = I1–I6, Adv = I7–I11 (first-seen order); I12 has no subset.
      // J1 Natural EN: I1 1 1, I2 1 1, I3 1 1, I4 0 1, I5 ½ 1, I6 1 1 → 10.5/12.
      row('J1', 'Natural', 'EN', [1, 1, 1, 1, 1, 1, 0, 1, 0.5, 1, 1, 1]),
      // J1 Natural ZH: I1 1 1, I2 1 ½, I3 0 0, I4 ½ 1, I5 ½ ½, I6 1 → 7/11.
      row('J1', 'Natural', 'ZH', [1, 1, 1, 0.5, 0, 0, 0.5, 1, 0.5, 0.5, 1]),
      // J1 Natural LS: I1 1 0, I2–I5 all 1, I6 failed → 9/10.
      row('J1', 'Natural', 'LS', [1, 0, 1, 1, 1, 1, 1, 1, 1, 1]),
      // J1 Adv EN: I7 1 1, I8 1 0, I9 0 0, I10 1 1, I11 1 → 6/9.
      row('J1', 'Adv', 'EN', [1, 1, 1, 0, 0, 0, 1, 1, 1]),
      // J1 Adv ZH: I7 1 1, I8 0 0, I9 1 1, I10 1 1, I11 1 1 → 8/10.
      row('J1', 'Adv', 'ZH', [1, 1, 0, 0, 1, 1, 1, 1, 1, 1]),
      // J1 Adv LS: I7 0 1, I8 1 1, I9 0 0, I10 1 1 → 5/8.
      // (Check against the totals: EN 10.5 + 6 + I12 2 = 18.5; ZH 7 + 8 + I12 1 = 16; LS 9 + 5 + I12 1.5 = 15.5.)
      row('J1', 'Adv', 'LS', [0, 1, 1, 1, 0, 0, 1, 1]),
      // J2 Natural EN: 1 1, 1 0, ½ ½, 1 1 → 6/8; ZH: 0 1, 1 1, 1, 1 1 → 6/7; LS none.
      row('J2', 'Natural', 'EN', [1, 1, 1, 0, 0.5, 0.5, 1, 1]),
      row('J2', 'Natural', 'ZH', [0, 1, 1, 1, 1, 1, 1]),
    ]);
    expect(metrics.subset_quality[0].accuracy_tie_half).toBe(10.5 / 12);
  });

  it('flip rate per subset', () => {
    const row = (judge: string, subset: string, comparison: string, n: number, flips: number) => ({
      judge,
      subset,
      comparison,
      n,
      flip_rate: flips / n,
      flip_rate_ci: wilsonInterval(flips, n),
    });
    expect(metrics.subset_flip).toEqual([
      // J1 Natural EN-ZH: pairs I1–I5 both orders + I6 orig = 11; flips I2s I3o I3s I4o I5s = 5.
      row('J1', 'Natural', 'EN-ZH', 11, 5),
      // J1 Natural EN-LS: I1–I5 both orders = 10; flips I1s I4o I5o = 3.
      row('J1', 'Natural', 'EN-LS', 10, 3),
      // J1 Adv EN-ZH: I7–I10 both orders + I11 orig = 9; flips I8o I9o I9s = 3 (+ I12o outside subsets = 9 ✓).
      row('J1', 'Adv', 'EN-ZH', 9, 3),
      // J1 Adv EN-LS: I7–I10 both orders = 8; flips I7o I8s = 2 (+ I12s = 6 ✓).
      row('J1', 'Adv', 'EN-LS', 8, 2),
      // J2 Natural EN-ZH: 7 pairs, 3 flips; no LS pairs.
      row('J2', 'Natural', 'EN-ZH', 7, 3),
    ]);
  });

  it('sensitivity recomputes quality and invariance without the flagged items I3 and I8', () => {
    expect(metrics.sensitivity.excluded_item_ids).toEqual(['I3', 'I8']);
    expect(metrics.sensitivity.quality).toEqual([
      // J1 EN: 23 − 4 = 19; correct 18 − 2 (I3) − 1 (I8) = 15; tie 1; raw A 11 − I3o = 10.
      qualityRow('J1', 'EN', 19, 15, 1, 10),
      // J1 ZH: 19; correct 14 (I3, I8 were wrong in both orders); ties 4; raw A 10 − I3s − I8o = 8.
      qualityRow('J1', 'ZH', 19, 14, 4, 8),
      // J1 LS: 20 − 4 = 16; correct 15 − 2 − 2 = 11; tie 1; raw A 9 − I3o − I8s = 7.
      qualityRow('J1', 'LS', 16, 11, 1, 7),
      // J2 EN: without I3 (tie, tie): 6, correct 5, no tie, raw A 2.
      qualityRow('J2', 'EN', 6, 5, 0, 2),
      // J2 ZH: without I3 orig (1 = correct, raw A): 6, correct 5, raw A 2.
      qualityRow('J2', 'ZH', 6, 5, 0, 2),
    ]);
    expect(metrics.sensitivity.language_invariance).toEqual([
      // J1 EN-ZH: 22 − 4 = 18; flips 9 − I3o − I3s − I8o = 6; EN only 6 − 3 = 3; both ✗ 3 − I8s = 2.
      invarianceRow('J1', 'EN-ZH', 18, 6, { both: 11, en: 3, target: 2, wrong: 2 }),
      // J1 EN-LS: 20 − 4 = 16; flips 6 − I8s = 5; both ✓ 12 − I3o − I3s − I8o = 9; LS only 3 − I8s = 2.
      invarianceRow('J1', 'EN-LS', 16, 5, { both: 9, en: 3, target: 2, wrong: 2 }),
      // J2 EN-ZH: 7 − I3o = 6; flips I1o I2s = 2; EN only 1, ZH only 1; McNemar (1 vs 1) = 1.
      invarianceRow('J2', 'EN-ZH', 6, 2, { both: 4, en: 1, target: 1, wrong: 0 }),
    ]);
  });

  it('passes audit and usage through', () => {
    expect(metrics.audit).toEqual({ checks: CHECKS, flagged: FLAGGED });
    expect(metrics.usage).toEqual(USAGE);
  });

  it('reports every failed call, grouped by judge, kind and reason', () => {
    expect(metrics.failures).toEqual([
      // Per language, so a language whose verdicts all failed can be named.
      // J1 quality: EN I11 swap "timeout"; ZH I6 swap without a reason; LS I6 ×2 "invalid answer".
      { judge: 'J1', kind: 'quality', language: 'EN', reason: 'timeout', count: 1 },
      { judge: 'J1', kind: 'quality', language: 'ZH', reason: '(no reason recorded)', count: 1 },
      { judge: 'J1', kind: 'quality', language: 'LS', reason: 'invalid answer', count: 2 },
      // J1 tie probe I6 en_zh.
      { judge: 'J1', kind: 'tie_probe', language: 'EN-ZH', reason: 'timeout', count: 1 },
      // J2 quality: ZH I3 swap "timeout"; LS I1 ×2, I2 ×2, I3 swap, I4 ×2 = 7 "invalid answer", LS I3 orig "timeout".
      { judge: 'J2', kind: 'quality', language: 'ZH', reason: 'timeout', count: 1 },
      { judge: 'J2', kind: 'quality', language: 'LS', reason: 'invalid answer', count: 7 },
      { judge: 'J2', kind: 'quality', language: 'LS', reason: 'timeout', count: 1 },
      { judge: 'J2', kind: 'tie_probe', language: 'EN-ZH', reason: 'HTTP 400: bad request', count: 8 },
      // The I11 LS transform (why I11 has no LS verdicts: missing, not failed).
      { judge: 'transformer', kind: 'transform', language: 'LS', reason: 'invalid answer', count: 1 },
    ]);
    const failedRecords = RECORDS.filter((r) => r.status === 'failed').length;
    const reported = metrics.failures.filter((f) => f.kind !== 'transform').reduce((n, f) => n + f.count, 0);
    expect(reported).toBe(failedRecords);
  });
});

describe('Judge-LS metrics: ordering and bad input', () => {
  it('orders judges by first appearance and is independent of record order otherwise', () => {
    const reversed = computeJudgeLsMetrics([...RECORDS].reverse(), {
      flagged: FLAGGED,
      checks: CHECKS,
      usage: USAGE,
      transformFailures: TRANSFORM_FAILURES,
    });
    // J2 now comes first, and within a judge rows keep the EN, ZH, LS order.
    expect(reversed.quality.map((r) => `${r.judge} ${r.language}`)).toEqual([
      'J2 EN',
      'J2 ZH',
      'J1 EN',
      'J1 ZH',
      'J1 LS',
    ]);
    const byKey = <T extends { judge: string }>(rows: T[]) =>
      [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(byKey(reversed.quality)).toEqual(byKey(metrics.quality));
    expect(byKey(reversed.language_invariance)).toEqual(byKey(metrics.language_invariance));
    expect(byKey(reversed.tie_probe)).toEqual(byKey(metrics.tie_probe));
  });

  it('counts a verdict stored as ok but without a winner as a failure, not as a verdict', () => {
    const recs = [oneRecord(), oneRecord({ order: 'swap', winner: null })];
    const m = computeJudgeLsMetrics(recs, NOTHING_ELSE);
    // One item at 100%: every bootstrap resample is 100%, so that interval does not exist.
    expect(m.quality).toEqual([
      {
        ...qualityRow('J', 'EN', 1, 1, 0, 1),
        accuracy_strict_ci_boot: null,
        accuracy_strict_ci_boot_undefined_reason: 'every resample gives the same value',
      },
    ]);
    expect(m.position).toEqual([]);
    expect(m.failures).toEqual([
      { judge: 'J', kind: 'quality', language: 'EN', reason: 'stored as ok without a winner', count: 1 },
    ]);
  });

  it('rejects duplicate and impossible records', () => {
    const rec = oneRecord();
    const input = NOTHING_ELSE;
    expect(() => computeJudgeLsMetrics([rec, { ...rec }], input)).toThrow(
      /recorded twice: J \/ a \/ quality \/ EN \/ orig/,
    );
    expect(() => computeJudgeLsMetrics([{ ...rec, order: 'en_zh' }], input)).toThrow(/impossible/);
    expect(() => computeJudgeLsMetrics([{ ...rec, kind: 'tie_probe' }], input)).toThrow(/impossible/);
  });

  it('gives empty tables for no judgments', () => {
    const m = computeJudgeLsMetrics([], NOTHING_ELSE);
    expect(m.quality).toEqual([]);
    expect(m.language_invariance).toEqual([]);
    expect(m.tie_probe).toEqual([]);
    expect(m.failures).toEqual([]);
  });
});
