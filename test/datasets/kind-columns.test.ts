// Issue 26 item 1: the item list of a dataset carries the columns its kind declares
// (src/shared/dataset-kinds.ts), read from the stored items through the real core and SQLite:
// QA items their language and gold answers, pointwise items their response and human score;
// pairwise rows stay as they were.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { DATASET_KINDS, kindColumns } from '../../src/shared/dataset-kinds';
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
