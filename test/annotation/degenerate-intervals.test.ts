// Issue 20 items 3, 4 and 10: intervals that do not exist say "undefined" and why (never a
// zero-width interval), the decision does not rest silently on ρ = ±1, and nothing prints "-0.000".
import { describe, expect, it } from 'vitest';
import { computeAgreement, decide } from '../../src/shared/annotation/agreement';
import { agreementTables, num } from '../../src/shared/annotation/report';
import type { JudgeRating } from '../../src/shared/annotation/types';
import { formatCell } from '../../src/shared/report/table';
import { fixedIntervalText, fixedText, formatPct, formatUsd } from '../../src/shared/report/format';
import { spearmanInterval } from '../../src/shared/stats';

const scale = { kind: 'score' as const, min: 1, max: 5 };
const keys = Array.from({ length: 28 }, (_, i) => `u${i}`);

function report(judgeValue: (i: number) => number, human: (i: number) => number) {
  const judges: JudgeRating[] = keys.map((itemKey, i) => ({
    itemKey,
    itemId: i,
    judge: 'J',
    kind: 'score',
    value: judgeValue(i),
  }));
  return computeAgreement({
    scale,
    items: keys.map((itemKey) => ({ itemKey, category: null })),
    human: keys.flatMap((itemKey, i) => [
      { itemKey, annotator: 'a', value: human(i) },
      { itemKey, annotator: 'b', value: human(i) },
    ]),
    judges,
    seed: 'set',
  });
}

describe('Spearman ρ at its edges', () => {
  it('gives no Fisher-z interval at ρ = ±1 (it was the zero-width [1, 1])', () => {
    const s = spearmanInterval([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]);
    expect(s.rho).toBe(1);
    expect(s.ci).toBeNull();
    expect(s.ci_undefined_reason).toBe('ρ = ±1');
    expect(spearmanInterval([1, 1, 1, 1], [1, 2, 3, 4]).ci_undefined_reason).toBe('one side constant');
    expect(spearmanInterval([1, 2, 3], [1, 3, 2]).ci_undefined_reason).toBe('fewer than 4 items');
  });

  it('decides at ρ = 1 only with a warning', () => {
    expect(decide(1, null, 28, 0.8)).toEqual({
      decision: 'replace',
      more_items: null,
      decision_warning: 'ρ = ±1, no interval',
    });
    const r = report(
      (i) => 1 + (i % 5),
      (i) => 1 + (i % 5),
    ).judge_human[0];
    expect(r.spearman_rho).toBeCloseTo(1, 12);
    expect(r.spearman_rho_ci).toBeNull();
    expect(r.decision_warning).toBe('ρ = ±1, no interval');
  });
});

describe('a constant judge', () => {
  const rep = report(
    () => 3,
    (i) => 1 + (i % 5),
  );
  const row = rep.judge_human[0];

  it('has an undefined decision that names the constant side, not "undecided" with no count', () => {
    expect(row.spearman_rho).toBeNull();
    expect(row.spearman_rho_ci_undefined_reason).toBe('one side constant');
    expect(row.decision).toBe('undefined');
    expect(row.decision_reason).toBe('judge constant');
  });

  it('has no κ interval and the tables say so', () => {
    expect(row.kappa).toBeCloseTo(0, 12);
    expect(row.kappa_ci).toBeNull();
    expect(row.kappa_ci_undefined_reason).toBe('one side constant');
    const table = agreementTables(rep).find((t) => t.id === 'judge_human')!;
    const text = (key: string) =>
      formatCell(
        table.columns.find((c) => c.key === key)!,
        table.rows[0][key],
      );
    expect(text('kappa_ci')).toBe('undefined (one side constant)');
    expect(text('rho_ci')).toBe('undefined (one side constant)');
    expect(text('decision')).toBe('undefined (judge constant)');
    expect(text('kappa')).toBe('0.000');
  });
});

describe('a value that rounds to zero has no sign', () => {
  it('in every number format', () => {
    expect(num(-0.0001)).toBe('0.000');
    expect(num(-1e-17)).toBe('0.000');
    expect(num(-0.0006)).toBe('-0.001');
    expect(formatPct(-0.00001)).toBe('0.0');
    expect(fixedText(-0.001, 2)).toBe('0.00');
    expect(fixedIntervalText([-0.0001, 0.0001], 3)).toBe('[0.000, 0.000]');
    expect(fixedIntervalText(null, 3, 'one side constant')).toBe('undefined (one side constant)');
    expect(formatUsd(-0.00001)).toBe('0.0000');
  });
});
