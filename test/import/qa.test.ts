// QA datasets (id, question, answers, language, optional context/category) through the same
// importer as pairwise data: JSONL, JSON and CSV; every problem located by line/row and field,
// nothing written when a file is rejected.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/main/datasets/service';
import { AppError } from '../../src/main/base/errors';
import { parseDatasetFile } from '../../src/main/import';
import { allItems } from '../../src/main/store/datasets';
import { REPO_ROOT, storeCounts, tempDatabase } from './helpers';

const enc = (s: string) => new TextEncoder().encode(s);
let close: () => void = () => {};
afterEach(() => close());

function issuesOf(fileName: string, text: string) {
  try {
    parseDatasetFile(fileName, enc(text));
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).issues ?? [];
  }
  throw new Error('expected the file to be rejected');
}

const GOOD_JSONL = [
  { id: 'q1', question: 'Capital of France?', answers: ['Paris'], language: 'en', category: 'geo' },
  { id: 'q2', question: 'ما عاصمة مصر؟', answers: ['القاهرة', 'مدينة القاهرة'], language: 'ar' },
  { id: 7, question: 'భారత రాజధాని?', answers: ['న్యూఢిల్లీ'], language: 'TE', context: 'ctx' },
]
  .map((r) => JSON.stringify(r))
  .join('\n');

describe('QA datasets', () => {
  it('reads JSONL into QA items: question as instruction, the rest in extra, language canonical', () => {
    const parsed = parseDatasetFile('qa.jsonl', enc(GOOD_JSONL));
    expect(parsed.kind).toBe('qa');
    expect(parsed.items).toEqual([
      {
        sourceId: 'q1',
        subset: 'geo',
        instruction: 'Capital of France?',
        output1: null,
        output2: null,
        label: null,
        extra: { answers: ['Paris'], language: 'en', category: 'geo' },
      },
      {
        sourceId: 'q2',
        subset: null,
        instruction: 'ما عاصمة مصر؟',
        output1: null,
        output2: null,
        label: null,
        extra: { answers: ['القاهرة', 'مدينة القاهرة'], language: 'ar' },
      },
      {
        sourceId: '7',
        subset: null,
        instruction: 'భారత రాజధాని?',
        output1: null,
        output2: null,
        label: null,
        extra: { answers: ['న్యూఢిల్లీ'], language: 'te', context: 'ctx' },
      },
    ]);
  });

  it('reads a JSON array the same way', () => {
    const json = `[${GOOD_JSONL.split('\n').join(',\n')}]`;
    const parsed = parseDatasetFile('qa.json', enc(json));
    expect(parsed.kind).toBe('qa');
    expect(parsed.items.map((i) => i.extra)).toEqual(
      parseDatasetFile('qa.jsonl', enc(GOOD_JSONL)).items.map((i) => i.extra),
    );
  });

  it('reads CSV answers given as a JSON array or "|"-separated, and finds CSV without an extension', () => {
    const csv =
      'id,question,answers,language\n' +
      'a,Who wrote Hamlet?,"[""Shakespeare"", ""William Shakespeare""]",en\n' +
      'b,Largest planet?,Jupiter | the planet Jupiter,en\n';
    for (const name of ['qa.csv', 'qa']) {
      const parsed = parseDatasetFile(name, enc(csv));
      expect(parsed.kind).toBe('qa');
      expect(parsed.items.map((i) => i.extra)).toEqual([
        { answers: ['Shakespeare', 'William Shakespeare'], language: 'en' },
        { answers: ['Jupiter', 'the planet Jupiter'], language: 'en' },
      ]);
    }
  });

  it('names the line and field of a missing answers key, an empty array and unknown language codes', () => {
    const text = [
      { id: 'a', question: 'Q?', language: 'en' },
      { id: 'b', question: 'Q?', answers: [], language: 'en' },
      { id: 'c', question: 'Q?', answers: ['x'], language: 'xx' },
      { id: 'd', question: 'Q?', answers: ['x'], language: 'english' },
      { id: 'e', question: 'Q?', answers: ['x', ''], language: 'en' },
      { id: 'f', question: 'Q?', answers: 'x', language: 'en' },
      { question: 'Q?', answers: ['x'], language: 'en' },
      { id: 'a', question: '', answers: ['x'] },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const issues = issuesOf('bad.jsonl', text);
    const brief = issues.map((i) => `${i.line}:${i.field}:${i.message}`);
    expect(brief).toEqual([
      '1:answers:is missing',
      '2:answers:is an empty array: give at least one gold answer',
      '3:language:unknown language code "xx" (use a BCP-47 tag such as en, ar, te)',
      '4:language:unknown language code "english" (use a BCP-47 tag such as en, ar, te)',
      '5:answers:answer 2 is empty',
      '6:answers:must be an array of strings (in CSV a JSON array or "|"-separated), got a string',
      '7:id:is missing (every QA item needs an id)',
      '8:question:is empty',
      '8:language:is missing',
      '8:id:duplicate id "a": also used on line 1',
    ]);
  });

  it('names the CSV row, line and field of empty answers and a malformed language tag', () => {
    const csv = 'id,question,answers,language\na,Q?,,en\nb,Q?,"[]",en\nc,Q?,x,e\n';
    const issues = issuesOf('bad.csv', csv);
    expect(issues.map((i) => [i.line, i.row, i.field])).toEqual([
      [2, 1, 'answers'],
      [3, 2, 'answers'],
      [4, 3, 'language'],
    ]);
    expect(issues[2].message).toMatch(/"e" is not a BCP-47 language tag/);
  });

  it('says which required CSV columns a QA header lacks', () => {
    const issues = issuesOf('bad.csv', 'id,question,answers\na,Q?,x\n');
    expect(issues[0]).toMatchObject({
      line: 1,
      message: expect.stringMatching(/missing required column "language"/),
    });
  });

  it('leaves the store unchanged when a QA file is rejected', () => {
    const t = tempDatabase();
    close = t.close;
    importDataset(t.db, { fileName: 'good.jsonl', bytes: enc(GOOD_JSONL) });
    const before = storeCounts(t.db);
    expect(() =>
      importDataset(t.db, {
        fileName: 'bad.jsonl',
        bytes: enc(
          GOOD_JSONL + '\n' + JSON.stringify({ id: 'z', question: 'Q', answers: [], language: 'en' }),
        ),
      }),
    ).toThrow(/answers/);
    expect(storeCounts(t.db)).toEqual(before);
  });

  it('stores the bundled TyDi QA sample as a QA dataset: 150 items in each of en, ar, te', () => {
    const t = tempDatabase();
    close = t.close;
    const file = join(REPO_ROOT, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl');
    const { dataset } = importDataset(t.db, { fileName: file, bytes: readFileSync(file) });
    expect(dataset.kind).toBe('qa');
    expect(dataset.itemCount).toBe(450);
    const items = allItems(t.db, dataset.id);
    const byLang = new Map<string, number>();
    for (const it of items) {
      const l = it.extra!.language as string;
      byLang.set(l, (byLang.get(l) ?? 0) + 1);
    }
    expect([...byLang]).toEqual([
      ['en', 150],
      ['ar', 150],
      ['te', 150],
    ]);
    expect(items[0]).toMatchObject({
      sourceId: 'english-5888115353945373749-2',
      label: null,
      extra: { answers: ['Amos and Wilfrid Ayre'], language: 'en' },
    });
  });
});
