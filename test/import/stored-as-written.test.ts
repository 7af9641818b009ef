// Issue 22 item 6: inputs stored silently wrong or past the stated limits. Each case was accepted
// before (a value changed, dropped or stored past a limit); each must now be refused naming the
// file, its line (or row) and the field, or be stored exactly as the file says.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/main/base/errors';
import { INPUT_LIMITS } from '../../src/main/base/input-limits';
import { parseDatasetFile } from '../../src/main/import';
import { readLabelFile } from '../../src/main/annotation/label-files';
import { normalizeValue } from '../../src/main/annotation/values';
import { parseImportedAnswers } from '../../src/main/protocols/reference-sensitivity/imported-answers';

const enc = (s: string) => new TextEncoder().encode(s);
const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function refusal(run: () => unknown) {
  let err: unknown;
  try {
    run();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a refusal').toBeInstanceOf(AppError);
  const e = err as AppError;
  expect(e.code).toBe('invalid_input');
  return e;
}

const PAIR = { instruction: 'Say hi.', output_1: 'hi', output_2: 'bye', label: 1 };
const QA = { id: 'q1', question: 'Capital of France?', answers: ['Paris'], language: 'en' };

describe('values are stored as written, or refused with file, line and field', () => {
  it('reads a pointwise human_score only as a decimal number (0x10 was stored as 16)', () => {
    const csv = 'id,instruction,response,human_score\r\np1,Q,A,0x10\r\np2,Q,A,7.5\r\n';
    const e = refusal(() => parseDatasetFile('scores.csv', enc(csv)));
    expect(e.message).toContain('scores.csv');
    expect(e.issues).toEqual([expect.objectContaining({ line: 2, row: 1, field: 'human_score' })]);
    for (const bad of ['0b11', 'Infinity', '1_000', '0o7'])
      refusal(() => parseDatasetFile('s.csv', enc(`id,instruction,response,human_score\np1,Q,A,${bad}\n`)));
    const ok = parseDatasetFile('s.csv', enc('id,instruction,response,human_score\np1,Q,A,7.5\np2,Q,A,  \n'));
    expect(ok.items.map((i) => i.extra?.human_score)).toEqual([7.5, undefined]);
  });

  it('refuses a CSV column named __proto__ (its values were dropped)', () => {
    const csv = 'instruction,output_1,output_2,label,__proto__\r\nQ,a,b,1,x\r\n';
    const e = refusal(() => parseDatasetFile('proto.csv', enc(csv)));
    expect(e.issues[0]).toMatchObject({ line: 1, field: '__proto__' });
  });

  it('refuses __proto__ keys in answers files and label files, naming the line', () => {
    const answers = jsonl(
      { item_id: 'q1', generator: 'g', answer: 'Paris' },
      JSON.parse('{"item_id":"q1","generator":"h","answer":"Lyon","__proto__":{"x":1}}'),
    ).replace('"answer":"Lyon"}', '"answer":"Lyon","__proto__":{"x":1}}');
    let e = refusal(() => parseImportedAnswers('answers.jsonl', answers));
    expect(e.issues[0]).toMatchObject({ line: 2, field: '__proto__' });
    const labels =
      '{"item_id":"u1","annotator":"ann","score":3}\n{"item_id":"u2","annotator":"ann","__proto__":{"score":4},"score":2}\n';
    e = refusal(() => readLabelFile('labels.jsonl', Buffer.from(labels)));
    expect(e.issues[0]).toMatchObject({ line: 2, field: '__proto__' });
    e = refusal(() =>
      readLabelFile('labels.csv', Buffer.from('item_id,annotator,__proto__,score\nu1,ann,x,3\n')),
    );
    expect(e.issues[0]).toMatchObject({ line: 1, field: '__proto__' });
  });

  it('holds QA answers and imported answers to the text and list limits', () => {
    const long = 'a'.repeat(INPUT_LIMITS.datasetTextChars + 1);
    let e = refusal(() => parseDatasetFile('qa.jsonl', enc(jsonl({ ...QA, answers: ['Paris', long] }))));
    expect(e.issues[0]).toMatchObject({ line: 1, field: 'answers' });
    expect(e.issues[0].message).toContain('answer 2 is 1,000,001 characters');
    const many = Array.from({ length: 200_000 }, (_, i) => `a${i}`);
    e = refusal(() => parseDatasetFile('qa.jsonl', enc(jsonl(QA, { ...QA, id: 'q2', answers: many }))));
    expect(e.issues[0]).toMatchObject({ line: 2, field: 'answers' });
    expect(e.issues[0].message).toContain('above the limit of 10,000');
    e = refusal(() =>
      parseImportedAnswers('a.jsonl', jsonl({ item_id: 'q1', generator: 'g', answer: long })),
    );
    expect(e.issues[0]).toMatchObject({ line: 1, field: 'answer' });
  });

  it('refuses a record carrying both pairwise and QA fields as ambiguous', () => {
    const e = refusal(() => parseDatasetFile('mixed.jsonl', enc(jsonl({ ...PAIR, ...QA }))));
    expect(e.issues[0]).toMatchObject({ line: 1, field: 'question' });
    expect(e.issues[0].message).toContain('two dataset kinds');
    const csv = 'instruction,output_1,output_2,label,response\nQ,a,b,1,r\n';
    expect(refusal(() => parseDatasetFile('mixed.csv', enc(csv))).issues[0]).toMatchObject({
      line: 1,
      field: 'response',
    });
  });

  it('refuses id null or "" in JSON; a missing id (or an empty CSV cell) is generated as documented', () => {
    for (const id of [null, '']) {
      const e = refusal(() =>
        parseDatasetFile('ids.jsonl', enc(jsonl({ ...PAIR, id: 'a' }, { ...PAIR, id }))),
      );
      expect(e.issues[0]).toMatchObject({ line: 2, field: 'id' });
      expect(refusal(() => parseDatasetFile('qa.jsonl', enc(jsonl({ ...QA, id })))).issues[0]).toMatchObject({
        line: 1,
        field: 'id',
      });
    }
    expect(parseDatasetFile('ids.jsonl', enc(jsonl(PAIR))).items[0].sourceId).toBe('item-001');
    const csv = 'id,instruction,output_1,output_2,label\n,Q,a,b,1\n';
    expect(parseDatasetFile('ids.csv', enc(csv)).items[0].sourceId).toBe('item-001');
  });

  it('reads a label file score only as a decimal number', () => {
    const scale = { kind: 'score' as const, min: 1, max: 10 };
    expect(normalizeValue(scale, '0x5')).toBeNull();
    expect(normalizeValue(scale, ' 5 ')).toBe(5);
    expect(normalizeValue(scale, '')).toBeNull();
  });

  it('refuses control characters in ids, subsets, categories, generators and annotators', () => {
    const cases: [string, () => unknown, string][] = [
      ['ds.jsonl', () => parseDatasetFile('ds.jsonl', enc(jsonl({ ...PAIR, id: 'a\x07' }))), 'id'],
      [
        'qa.jsonl',
        () => parseDatasetFile('qa.jsonl', enc(jsonl({ ...QA, category: 'geo\x1b[0m' }))),
        'category',
      ],
      [
        'a.jsonl',
        () => parseImportedAnswers('a.jsonl', jsonl({ item_id: 'q1', generator: 'g\u009b', answer: 'x' })),
        'generator',
      ],
      [
        'l.jsonl',
        () => readLabelFile('l.jsonl', Buffer.from('{"item_id":"u1","annotator":"a\\u001b","score":3}\n')),
        'annotator',
      ],
    ];
    for (const [file, run, field] of cases) {
      const e = refusal(run);
      expect(e.message).toContain(file);
      expect(e.issues[0]).toMatchObject({ line: 1, field });
    }
    // Texts a judge reads keep what the file says (exports show the controls as \x1B).
    const kept = parseDatasetFile('t.jsonl', enc(jsonl({ ...PAIR, output_1: 'ls\x1b[0m' })));
    expect(kept.items[0].output1).toBe('ls\x1b[0m');
  });
});
