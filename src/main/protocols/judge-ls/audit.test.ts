import { describe, expect, it } from 'vitest';
import type { Item } from '../../../shared/domain';
import { auditChecks, auditVariant, auditVariants, charLength, countNumberTokens } from './audit';
import { DEFAULT_AUDIT_THRESHOLDS, parseJudgeLsOptions } from './config';
import type { Variant, VariantText } from './model';

const T = parseJudgeLsOptions({}).audit;

/** English and variant differ only in output_1; the other two fields are identical, clean text. */
function one(en: string, variant: string): [VariantText, VariantText] {
  const same = 'Same text here.';
  return [
    { instruction: same, output1: en, output2: same },
    { instruction: same, output1: variant, output2: same },
  ];
}

const a = (n: number) => 'a'.repeat(n);
const zh = (n: number) => '字'.repeat(n);

describe('audit rules at their thresholds', () => {
  it('uses the published defaults', () => {
    expect(T).toEqual({ minNumbersForMissing: 2, numberCountDiff: 3, minLengthRatio: { ZH: 0.1, LS: 0.35 } });
    expect(DEFAULT_AUDIT_THRESHOLDS.minLengthRatio).toEqual({ ZH: 0.1, LS: 0.35 });
  });

  it('empty: a blank variant field is flagged when the English one is not', () => {
    expect(auditVariant(...one('Hello there', ''), 'ZH', T)).toEqual(['ZH.output_1: empty']);
    expect(auditVariant(...one('Hello there', ' \n '), 'LS', T)).toEqual(['LS.output_1: empty']);
    expect(auditVariant(...one('', ''), 'ZH', T)).toEqual([]);
    expect(auditVariant(...one('x', '字'), 'ZH', T)).toEqual([]);
  });

  it('numbers_missing: fires from 2 English number tokens when the variant has none', () => {
    // 2 tokens in English, 0 in the variant: fires (the count difference 2 stays below 3).
    expect(auditVariant(...one('Add 3 and 4.5 please', '请把三和四点五相加吧'), 'ZH', T)).toEqual([
      'ZH.output_1: numbers_missing (EN 2, ZH 0)',
    ]);
    // 1 token only: below the threshold.
    expect(auditVariant(...one('Add 3 and four please', '请把三和四相加吧好'), 'ZH', T)).toEqual([]);
    // The variant keeps one of the two: not "missing".
    expect(auditVariant(...one('Add 3 and 4.5 please', '请把3和四点五相加吧'), 'ZH', T)).toEqual([]);
  });

  it('number_count_diff: fires when the counts differ by 3 or more, in either direction', () => {
    const en = 'Values 1, 2, 3, 4 and 5 here';
    expect(auditVariant(...one(en, '数值1、2以及三四五在这里'), 'ZH', T)).toEqual([
      'ZH.output_1: number_count_diff (EN 5, ZH 2)',
    ]);
    expect(auditVariant(...one(en, '数值1、2、3以及四五在这里'), 'ZH', T)).toEqual([]);
    expect(auditVariant(...one('No numbers at all here', '这里有 1 2 3 个数字呢'), 'ZH', T)).toEqual([
      'ZH.output_1: number_count_diff (EN 0, ZH 3)',
    ]);
    expect(auditVariant(...one('No numbers at all here', '这里有 1 2 个数字呢呢'), 'ZH', T)).toEqual([]);
  });

  it('both number rules fire together when all of 3+ numbers are lost', () => {
    expect(auditVariant(...one('Sum 10 20 30 now', '请求和十二十三十'), 'ZH', T)).toEqual([
      'ZH.output_1: numbers_missing (EN 3, ZH 0)',
      'ZH.output_1: number_count_diff (EN 3, ZH 0)',
    ]);
  });

  it('length_ratio ZH: a ratio of exactly 0.10 passes, below it is flagged', () => {
    expect(auditVariant(...one(a(100), zh(10)), 'ZH', T)).toEqual([]);
    expect(auditVariant(...one(a(100), zh(9)), 'ZH', T)).toEqual([
      'ZH.output_1: length_ratio (0.09 < 0.1; EN 100, ZH 9 chars)',
    ]);
  });

  it('length_ratio LS: a ratio of exactly 0.35 passes, below it is flagged', () => {
    expect(auditVariant(...one(a(100), zh(35)), 'LS', T)).toEqual([]);
    expect(auditVariant(...one(a(100), zh(34)), 'LS', T)).toEqual([
      'LS.output_1: length_ratio (0.34 < 0.35; EN 100, LS 34 chars)',
    ]);
    // The ZH threshold does not apply to LS and vice versa.
    expect(auditVariant(...one(a(100), zh(34)), 'ZH', T)).toEqual([]);
  });

  it('length_ratio counts characters as code points and is skipped for an empty English field', () => {
    // 8 CJK + 1 emoji = 9 code points (10 UTF-16 units): 0.09 < 0.10.
    expect(charLength(zh(8) + '😀')).toBe(9);
    expect(auditVariant(...one(a(100), zh(8) + '😀'), 'ZH', T)).toEqual([
      'ZH.output_1: length_ratio (0.09 < 0.1; EN 100, ZH 9 chars)',
    ]);
    expect(auditVariant(...one('', '多出来的文字'), 'ZH', T)).toEqual([]);
  });

  it('follows configured thresholds', () => {
    const strict = parseJudgeLsOptions({
      audit: { minNumbersForMissing: 1, numberCountDiff: 1, minLengthRatio: { ZH: 0.5 } },
    }).audit;
    expect(
      auditVariant(...one('Add 3 and four please', '请把三和四相加起来吧，谢谢你'), 'ZH', strict),
    ).toEqual(['ZH.output_1: numbers_missing (EN 1, ZH 0)', 'ZH.output_1: number_count_diff (EN 1, ZH 0)']);
    expect(auditVariant(...one(a(100), zh(49)), 'ZH', strict)).toEqual([
      'ZH.output_1: length_ratio (0.49 < 0.5; EN 100, ZH 49 chars)',
    ]);
    expect(strict.minLengthRatio.LS).toBe(0.35);
  });

  it('counts number tokens as \\d+(\\.\\d+)?', () => {
    // v1.2.3 → "1.2", "3"; 3.14 → one; 1,000 → "1", "000"; full-width digits are not ASCII digits.
    expect(countNumberTokens('v1.2.3 costs 3.14 and 1,000 or ３')).toBe(5);
  });
});

describe('auditVariants', () => {
  const item = (id: number, sourceId: string, texts: VariantText): Item => ({
    id,
    datasetId: 1,
    sourceId,
    position: id,
    subset: 'Natural',
    label: 1,
    ...texts,
  });
  const en = { instruction: 'Give 2 numbers like 7 and 8', output1: 'Here: 7 and 8', output2: 'No.' };
  const items = [item(1, 'N-001', en), item(2, 'N-002', en), item(3, 'N-003', en)];
  const good = { instruction: '给出 2 个数字，比如 7 和 8', output1: '这里：7 和 8', output2: '不。' };
  const variant = (itemId: number, language: 'ZH' | 'LS', t: VariantText): Variant => ({
    itemId,
    language,
    manual: false,
    ...t,
  });

  it('flags items with any reason, by source id, in item order, with ZH before LS', () => {
    const result = auditVariants(
      items,
      [
        variant(2, 'LS', { ...good, output2: '' }),
        variant(2, 'ZH', { ...good, output1: '这里：七和八' }),
        variant(1, 'ZH', good),
        variant(1, 'LS', good),
        variant(99, 'ZH', good), // not an item in play: ignored
      ],
      T,
    );
    expect(result.flagged).toEqual([
      { item_id: 'N-002', reasons: ['ZH.output_1: numbers_missing (EN 2, ZH 0)', 'LS.output_2: empty'] },
    ]);
    expect(result.variants).toEqual([
      { itemId: 1, sourceId: 'N-001', language: 'ZH', reasons: [] },
      { itemId: 1, sourceId: 'N-001', language: 'LS', reasons: [] },
      {
        itemId: 2,
        sourceId: 'N-002',
        language: 'ZH',
        reasons: ['ZH.output_1: numbers_missing (EN 2, ZH 0)'],
      },
      { itemId: 2, sourceId: 'N-002', language: 'LS', reasons: ['LS.output_2: empty'] },
    ]);
    expect(result.checks).toEqual(auditChecks(T));
  });

  it('describes the checks with their thresholds', () => {
    const checks = auditChecks(parseJudgeLsOptions({ audit: { numberCountDiff: 4 } }).audit);
    expect(checks.map((c) => [c.rule, c.threshold])).toEqual([
      ['empty', undefined],
      ['numbers_missing', 2],
      ['number_count_diff', 4],
      ['length_ratio.ZH', 0.1],
      ['length_ratio.LS', 0.35],
    ]);
    expect(checks[2].description).toContain('differ by 4 or more');
  });
});
