// Issue 26 item 1: the item list of a dataset carries the columns its kind declares
// (src/shared/dataset-kinds.ts), read from the stored items through the real core and SQLite:
// QA items their language and gold answers, pointwise items their response and human score;
// pairwise rows stay as they were.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { DATASET_KINDS, kindColumns } from '../../src/shared/dataset-kinds';
import { registerProtocol, unregisterProtocol } from '../../src/main/protocols';
import type { AnyProtocol } from '../../src/main/protocols/plugin';
import type { DatasetKindSpec, NewItem } from '../../src/main/protocols/host';
import { repeatsPlugin } from '../protocols/test-repeats/plugin';
import { tempDir } from '../helpers/tmp';

let done: (() => Promise<void>) | undefined;
afterEach(async () => {
  await done?.();
  done = undefined;
});

async function start() {
  const t = tempDir();
  const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  done = async () => {
    await core.shutdown();
    t.cleanup();
  };
  return core;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('item rows by dataset kind', () => {
  it('gives QA rows their language and answers, and names the kind on the summary', async () => {
    const core = await start();
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
    expect(dataset.kind).toBe('qa');
    expect(dataset.format).toBe('llmbar-jsonl');
    const rows = await core.call('items.list', { datasetId: dataset.id });
    const first = rows[0];
    expect(first.sourceId).toBe('english-5888115353945373749-2');
    expect(first.fields).toEqual({ language: 'en', answers: 'Amos and Wilfrid Ayre' });
    expect(rows.some((r) => r.fields?.language === 'ar')).toBe(true);
    expect(kindColumns('qa').map((c) => c.key)).toEqual([
      'id',
      'language',
      'question',
      'answers',
      'category',
    ]);
  });

  it('gives pointwise rows their response and human score; several answers are joined', async () => {
    const core = await start();
    const pointwise = [
      { id: 'p1', instruction: 'Say hi', response: 'Hello there, friend.', human_score: 4, category: 'chat' },
      { id: 'p2', instruction: 'Count', response: 'one two', category: 'math' },
    ];
    const { dataset } = await core.call('datasets.import', {
      fileName: 'scores.jsonl',
      contentBase64: b64(pointwise.map((r) => JSON.stringify(r)).join('\n')),
    });
    expect(dataset.kind).toBe('pointwise');
    const rows = await core.call('items.list', { datasetId: dataset.id });
    expect(rows.map((r) => r.fields)).toEqual([
      { response: 'Hello there, friend.', human_score: '4' },
      { response: 'one two' },
    ]);
    const qa = [{ id: 'q1', question: 'Capital?', answers: ['Cairo', 'القاهرة'], language: 'ar' }];
    const { dataset: qaSet } = await core.call('datasets.import', {
      fileName: 'qa.jsonl',
      contentBase64: b64(qa.map((r) => JSON.stringify(r)).join('\n')),
    });
    const [row] = await core.call('items.list', { datasetId: qaSet.id });
    expect(row.fields).toEqual({ language: 'ar', answers: 'Cairo | القاهرة' });
  });

  it('leaves pairwise rows without extra fields', async () => {
    const core = await start();
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const rows = await core.call('items.list', { datasetId: dataset.id });
    expect(rows[0].fields).toBeUndefined();
    expect(rows[0].label === 1 || rows[0].label === 2).toBe(true);
    expect(Object.keys(DATASET_KINDS)).toEqual(['pairwise', 'qa', 'pointwise']);
  });
});

/** A data shape no built-in kind reads: an instruction with a rubric to grade it by. */
const RUBRIC_KIND: DatasetKindSpec = {
  kind: 'rubric',
  distinctive: ['rubric'],
  columns: ['id', 'instruction', 'rubric'],
  fields: [
    { field: 'id', required: true },
    { field: 'instruction', required: true },
    { field: 'rubric', required: true },
  ],
  listColumns: [
    { key: 'id', source: { base: 'sourceId' }, width: '1fr' },
    { key: 'instruction', source: { base: 'instruction' }, width: '3fr', text: true },
    { key: 'rubric', source: { extra: 'rubric', shape: 'text' }, width: '3fr', text: true },
  ],
  missingColumns: (present) => ({
    missing: ['id', 'instruction', 'rubric'].filter((f) => !present.has(f)),
    note: '',
  }),
  validate(file, records) {
    const items: NewItem[] = [];
    const issues: { file: string; line?: number; field?: string; message: string }[] = [];
    for (const r of records) {
      const v = r.value as Record<string, unknown>;
      if (typeof v.rubric !== 'string')
        issues.push({ file, line: r.line, field: 'rubric', message: 'must be text' });
      else
        items.push({
          sourceId: String(v.id),
          subset: null,
          instruction: String(v.instruction),
          output1: null,
          output2: null,
          label: null,
          extra: { rubric: v.rubric },
        });
    }
    return { items, issues };
  },
};

describe('a dataset kind a study declares', () => {
  it('is read by the importer and listed with its columns while the study is registered, and not after', async () => {
    const core = await start();
    const file = {
      fileName: 'rubrics.jsonl',
      contentBase64: b64(
        JSON.stringify({ id: 'r1', instruction: 'Write a haiku', rubric: '5-7-5 syllables' }),
      ),
    };
    const study: AnyProtocol = { ...repeatsPlugin, id: 'test-rubric', datasetKinds: [RUBRIC_KIND] };
    registerProtocol(study);
    try {
      const { dataset } = await core.call('datasets.import', file);
      expect(dataset.kind).toBe('rubric');
      const [row] = await core.call('items.list', { datasetId: dataset.id });
      expect(row.fields).toEqual({ rubric: '5-7-5 syllables' });
      expect(kindColumns('rubric').map((c) => c.key)).toEqual(['id', 'instruction', 'rubric']);
    } finally {
      unregisterProtocol('test-rubric');
    }
    // Unregistered, the importer knows no rubric: such a file is read as pairwise and refused.
    const other = JSON.stringify({ id: 'r2', instruction: 'Write a limerick', rubric: 'AABBA' });
    await expect(
      core.call('datasets.import', { fileName: 'rubrics2.jsonl', contentBase64: b64(other) }),
    ).rejects.toThrow(/output_1/);
    expect(kindColumns('rubric').map((c) => c.key)).toEqual(['id', 'subset', 'instruction']);
  });
});
