import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../src/main/report/csv';
import { JUDGMENTS_COLUMNS, judgmentsCsv } from '../../src/main/protocols/judge-ls/judgments-csv';
import type { JudgmentRecord } from '../../src/shared/protocols/judge-ls/types';
import { makeJudgments } from './fixture';

const HEADER =
  'judge,item_id,subset,kind,language,order,winner,choice,gold,correct,status,attempts,input_tokens,output_tokens,reason';

const tokens = makeJudgments().map((_, i) =>
  i === 3 ? null : { inputTokens: 900 + i, outputTokens: 40 + i },
);

function rows(csv: string): Record<string, string>[] {
  return parse(csv, { bom: true, columns: true });
}

describe('judgments.csv', () => {
  const csv = judgmentsCsv(makeJudgments(), tokens);

  it('starts with a UTF-8 BOM and the exact section-8 header', () => {
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1, csv.indexOf('\r\n'))).toBe(HEADER);
    expect(JUDGMENTS_COLUMNS.join(',')).toBe(HEADER);
  });

  it('round-trips Chinese text, commas, quotes and newlines through csv-parse', () => {
    const parsed = rows(csv);
    expect(parsed).toHaveLength(6);
    expect(parsed[1].reason).toBe('输出 (b) 更好，因为它遵循了指令。');
    expect(parsed[2].reason).toBe('Both "fine", really,\nsame');
    expect(parsed[3].reason).toBe('HTTP 529: overloaded, gave up');
    expect(csv).toContain('"Both ""fine"", really,\nsame"');
  });

  it('normalizes choices and scores correctness for quality verdicts only', () => {
    const parsed = rows(csv);
    const pick = (r: Record<string, string>) => [r.order, r.winner, r.choice, r.gold, r.correct];
    expect(pick(parsed[0])).toEqual(['orig', 'A', '1', '1', '1']);
    expect(pick(parsed[1])).toEqual(['swap', 'A', '2', '1', '0']);
    expect(pick(parsed[2])).toEqual(['swap', 'tie', 'tie', '1', '0']);
    expect(pick(parsed[4])).toEqual(['en_zh', 'B', 'ZH', '1', '']);
    expect(pick(parsed[5])).toEqual(['zh_en', 'B', 'EN', '1', '']);
    expect(parsed[4].kind).toBe('tie_probe');
    expect(parsed[4].language).toBe('EN-ZH');
  });

  it('writes a failed call with winner invalid, no choice, no correctness and its failure reason', () => {
    const failed = rows(csv)[3];
    expect(failed).toMatchObject({
      status: 'failed',
      winner: 'invalid',
      choice: '',
      correct: '',
      subset: '',
      gold: '2',
      attempts: '5',
      input_tokens: '',
      output_tokens: '',
    });
  });

  it('takes token counts from the parallel array', () => {
    const first = rows(csv)[0];
    expect([first.input_tokens, first.output_tokens]).toEqual(['900', '40']);
    expect(() => judgmentsCsv(makeJudgments(), tokens.slice(1))).toThrow(
      /tokens has 5 entries but there are 6/,
    );
  });

  it('rejects a record with an impossible field, naming its index and field', () => {
    const bad = makeJudgments();
    bad[2] = { ...bad[2], order: 'en_zh' } as JudgmentRecord;
    expect(() => judgmentsCsv(bad)).toThrow('judgments[2]: field "order" is "en_zh", expected orig | swap');
  });

  it('writes verdicts in any target language (issue 37: ar, LS:hi) and still refuses an unknown one', () => {
    const other = makeJudgments().map((r, i) =>
      r.kind === 'quality' && r.language !== 'EN' ? { ...r, language: i % 2 ? 'ar' : 'LS:hi' } : r,
    );
    const languages = rows(judgmentsCsv(other)).map((r) => r.language);
    expect(languages).toEqual(other.map((r) => r.language));
    expect(languages.some((l) => l === 'ar' || l === 'LS:hi')).toBe(true);
    const bad = makeJudgments().map((r) => (r.kind === 'quality' ? { ...r, language: 'xx' } : r));
    expect(() => judgmentsCsv(bad)).toThrow(
      /field "language" is "xx", expected EN \| ZH \| LS \| a target language code/,
    );
  });

  it('quotes only fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\r\nbreak')).toBe('"line\r\nbreak"');
  });
});
