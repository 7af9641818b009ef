// The label template is a file people open in a spreadsheet and send back: its text must come
// through the CSV intact (quotes, commas, line breaks, Chinese, a leading "="), its columns must
// follow the set's scale, and once filled it must read back as the importer's rows.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { labelTemplateCsv, scaleHint } from '../../src/main/annotation/label-template';
import { readLabelFile } from '../../src/main/annotation/label-files';

const units = [
  {
    unitUid: 'a1b2c3d4e5f60708',
    view: { prompt: 'Say "hi", twice\nplease', context: '参考答案：你好', responses: ['hi, hi', '=1+1'] },
  },
  {
    unitUid: '0000000000000001',
    view: { prompt: '写一首诗', context: null, responses: ['床前明月光', 'no'] },
  },
];

const rowsOf = (csv: string) => {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return parse(csv.slice(1), { columns: true }) as Record<string, string>[];
};

describe('label template', () => {
  it('keeps every text intact and names the value column after the scale', () => {
    const rows = rowsOf(labelTemplateCsv({ kind: 'preference' }, units, 'Chen'));
    expect(Object.keys(rows[0])).toEqual([
      'item_id',
      'annotator',
      'preference',
      'comment',
      'prompt',
      'context',
      'response_a',
      'response_b',
    ]);
    expect(rows[0]).toMatchObject({
      item_id: 'a1b2c3d4e5f60708',
      annotator: 'Chen',
      preference: '',
      prompt: 'Say "hi", twice\nplease',
      context: '参考答案：你好',
      response_a: 'hi, hi',
      // A spreadsheet would run it as a formula: defused with a leading quote, as in every export.
      response_b: "'=1+1",
    });
    expect(rows[1]).toMatchObject({ item_id: '0000000000000001', context: '', response_a: '床前明月光' });
  });

  it('has one response column and no context column when no unit needs them', () => {
    const single = units.map((u) => ({
      ...u,
      view: { prompt: u.view.prompt, responses: [u.view.responses[0]] },
    }));
    const rows = rowsOf(labelTemplateCsv({ kind: 'score', min: 1, max: 5 }, single, null));
    expect(Object.keys(rows[0])).toEqual(['item_id', 'annotator', 'score', 'comment', 'prompt', 'response']);
    expect(rows.every((r) => r.annotator === '')).toBe(true);
  });

  it('reads back, once filled, as the rows the importer takes', () => {
    const csv = labelTemplateCsv({ kind: 'label', labels: ['CORRECT', 'INCORRECT'] }, units, 'Chen');
    const filled = csv.replace(/^(\uFEFF?[0-9a-f]{16},Chen,)/gm, '$1CORRECT');
    const rows = readLabelFile('filled.csv', Buffer.from(filled, 'utf8'));
    expect(rows.map((r) => [r.itemId, r.annotator, r.field, r.value])).toEqual([
      ['a1b2c3d4e5f60708', 'Chen', 'label', 'CORRECT'],
      ['0000000000000001', 'Chen', 'label', 'CORRECT'],
    ]);
    expect(scaleHint({ kind: 'label', labels: ['CORRECT', 'INCORRECT'] })).toBe('one of CORRECT, INCORRECT');
  });

  it('names the empty value column a row has (issue 26 item 8: a preference was reported as "score")', () => {
    const csv = labelTemplateCsv({ kind: 'preference' }, units, 'Chen');
    let message = '';
    try {
      readLabelFile('prefs.csv', Buffer.from(csv, 'utf8'));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^prefs\.csv:\d+: field "preference": give one of score, preference or label/);
    const jsonl = '{"item_id":"u1","annotator":"Chen","label":""}\n';
    expect(() => readLabelFile('labels.jsonl', Buffer.from(jsonl))).toThrow(/labels\.jsonl:1: field "label"/);
  });
});
