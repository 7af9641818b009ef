import { llmbarPath } from '../helpers/shared-data';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/main/datasets/service';
import { parseDatasetFile } from '../../src/main/import';
import { allItems } from '../../src/main/store/datasets';
import { FIXTURES, tempDatabase } from './helpers';

function parseFixture(name: string, asName = name) {
  return parseDatasetFile(asName, readFileSync(join(FIXTURES, name)));
}

describe('JSON arrays', () => {
  it('reads the upstream LLMBar dataset.json shape (input, no id or subset) and ignores extra keys', () => {
    const { format, items } = parseFixture('upstream-dataset.json');
    expect(format).toBe('llmbar-json');
    expect(items).toEqual([
      {
        sourceId: 'item-001',
        subset: null,
        instruction: 'Translate to French: "good morning" ',
        output1: 'Bonjour',
        output2: 'Bonsoir',
        label: 1,
      },
      {
        sourceId: 'item-002',
        subset: null,
        instruction: 'Name a fruit that is yellow.',
        output1: 'An apple.',
        output2: 'A banana \u2014 ripe ones are yellow.\n',
        label: 2,
      },
      {
        sourceId: 'item-003',
        subset: null,
        instruction: 'What is 2 + 3?',
        output1: '5',
        output2: '6',
        label: 1,
      },
    ]);
  });

  it('reads the normalized shape: numeric ids become strings, missing ids count within their subset', () => {
    const { items } = parseFixture('normalized.json');
    expect(items.map((it) => [it.sourceId, it.subset, it.label])).toEqual([
      ['7', 'Natural', 1],
      ['Natural-002', 'Natural', 2],
      ['Neighbor-001', 'Neighbor', 1],
      ['item-001', null, 2],
    ]);
    expect(items[2]).toMatchObject({ instruction: '写一句问候。', output1: '你好！', output2: '再见。' });
  });
});

describe('CSV', () => {
  it('accepts a UTF-8 BOM, CRLF rows and quoted multi-line fields, keeping texts exactly', () => {
    const { format, items } = parseFixture('bom-multiline.csv');
    expect(format).toBe('csv');
    expect(items).toEqual([
      {
        sourceId: 'c-1',
        subset: 'Natural',
        instruction: 'Write a haiku\r\nabout rain, please.',
        output1: 'Soft rain on the roof\r\nwhispers "stay" to the sleepy town\r\npuddles hold the sky',
        output2: ' Rain.  ',
        label: 2,
      },
      {
        sourceId: 'c-2',
        subset: 'Manual',
        instruction: 'Plain question?',
        output1: 'Yes.',
        output2: 'No.',
        label: 1,
      },
    ]);
  });

  it('without id and subset columns generates item-NNN ids, reads "input", and skips blank rows', () => {
    const { items } = parseFixture('no-id.csv');
    expect(items).toEqual([
      {
        sourceId: 'item-001',
        subset: null,
        instruction: 'First task',
        output1: 'answer A',
        output2: 'answer B',
        label: 1,
      },
      {
        sourceId: 'item-002',
        subset: null,
        instruction: 'Second, with a comma',
        output1: 'multi\nline',
        output2: 'short',
        label: 2,
      },
      { sourceId: 'item-003', subset: null, instruction: 'Third task', output1: 'x', output2: 'y', label: 2 },
    ]);
  });
});

describe('format detection', () => {
  it('goes by extension, case-insensitively, and .ndjson is JSON Lines', () => {
    const line = '{"instruction":"a","output_1":"b","output_2":"c","label":1}\n';
    expect(parseDatasetFile('X.NDJSON', Buffer.from(line)).format).toBe('llmbar-jsonl');
    expect(parseDatasetFile('x.JSON', Buffer.from(`[${line}]`)).format).toBe('llmbar-json');
  });

  it('sniffs the content when the extension says nothing', () => {
    expect(parseFixture('upstream-dataset.json', 'download').format).toBe('llmbar-json');
    expect(parseFixture('no-id.csv', 'export.txt').format).toBe('csv');
    const jsonl = readFileSync(llmbarPath());
    const sniffed = parseDatasetFile('llmbar.data', jsonl);
    expect(sniffed.format).toBe('llmbar-jsonl');
    expect(sniffed.items).toHaveLength(419);
  });
});

describe('importing JSON and CSV through the core', () => {
  const store = tempDatabase();
  afterAll(() => store.close());

  it('stores CSV multi-line texts and generated ids as parsed', () => {
    const file = join(FIXTURES, 'bom-multiline.csv');
    const { dataset } = importDataset(store.db, { fileName: file, bytes: readFileSync(file) });
    expect(dataset).toMatchObject({ format: 'csv', itemCount: 2, name: 'bom-multiline' });
    expect(allItems(store.db, dataset.id)[0].output2).toBe(' Rain.  ');

    const upstream = join(FIXTURES, 'upstream-dataset.json');
    const second = importDataset(store.db, { fileName: upstream, bytes: readFileSync(upstream) });
    expect(second.dataset.subsets).toEqual([{ subset: '', count: 3 }]);
    expect(allItems(store.db, second.dataset.id).map((it) => it.sourceId)).toEqual([
      'item-001',
      'item-002',
      'item-003',
    ]);
  });
});
