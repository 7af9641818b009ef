// Issue 15 item 12: a CSV/JSON file whose columns are named differently imports once the person
// says which column is which field; the choice is remembered for files with the same columns.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';
import { AppError } from '../../src/main/base/errors';
import type { ApiErrorPayload } from '../../src/shared/domain';

let done: (() => Promise<void>) | undefined;
afterEach(async () => {
  await done?.();
  done = undefined;
});

function startIn(dir: string) {
  return new Core({ dataDir: dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const csv = (rows: string[]) => ['prompt,response_a,response_b,winner', ...rows].join('\n') + '\n';
const MAPPING = { instruction: 'prompt', output_1: 'response_a', output_2: 'response_b', label: 'winner' };

describe('column mapping on import', () => {
  it('imports with a mapping, remembers it for the same columns (across restarts), and says what is wrong', async () => {
    const t = tempDir();
    let core = startIn(t.dir);
    done = async () => {
      await core.shutdown();
      t.cleanup();
    };
    const first = csv(['Say hi,hi,bye,1', 'Add 2+2,4,5,1']);
    // Without a mapping: the usual located error about missing fields.
    await expect(
      core.call('datasets.import', { fileName: 'a.csv', contentBase64: b64(first) }),
    ).rejects.toThrow(/instruction/);
    // A mapping that names a column the file does not have: named, with the columns it has.
    await expect(
      core.call('datasets.import', {
        fileName: 'a.csv',
        contentBase64: b64(first),
        columns: { ...MAPPING, label: 'choice' },
      }),
    ).rejects.toMatchObject({
      issues: [
        expect.objectContaining({
          field: 'columns.label',
          message: expect.stringContaining('no column "choice"'),
        }),
      ],
    });
    const a = await core.call('datasets.import', {
      fileName: 'a.csv',
      contentBase64: b64(first),
      columns: MAPPING,
    });
    expect(a.dataset.itemCount).toBe(2);
    const item = await core.call('items.get', {
      itemId: (await core.call('items.list', { datasetId: a.dataset.id }))[1].id,
    });
    expect(item).toMatchObject({ instruction: 'Add 2+2', output1: '4', output2: '5', label: 1 });

    // Same columns (in another order), another file, after a restart: no mapping needed.
    await core.shutdown();
    core = startIn(t.dir);
    const second = ['winner,response_b,response_a,prompt', '2,no,yes,Agree?'].join('\n') + '\n';
    const b = await core.call('datasets.import', { fileName: 'b.csv', contentBase64: b64(second) });
    expect(b.dataset.itemCount).toBe(1);
    const [row] = await core.call('items.list', { datasetId: b.dataset.id });
    expect(await core.call('items.get', { itemId: row.id })).toMatchObject({
      instruction: 'Agree?',
      output1: 'yes',
      output2: 'no',
      label: 2,
    });
    // Other columns are not touched by it.
    const other = 'question,answer\nq,a\n';
    await expect(
      core.call('datasets.import', { fileName: 'c.csv', contentBase64: b64(other) }),
    ).rejects.toThrow();
  });

  it('a failed import of differently named columns carries the file columns, the needed fields and a sample as data', async () => {
    const t = tempDir();
    const core = startIn(t.dir);
    done = async () => {
      await core.shutdown();
      t.cleanup();
    };
    const err = await core
      .call('datasets.import', {
        fileName: 'a.csv',
        contentBase64: b64(csv(['Say hi,hi,bye,1', 'Add,4,5,2'])),
      })
      .catch((e: AppError) => e);
    expect(err).toBeInstanceOf(AppError);
    // The payload is what crosses every door (IPC and HTTP send it as JSON).
    const payload = JSON.parse(JSON.stringify((err as AppError).toPayload())) as ApiErrorPayload;
    expect(payload.code).toBe('invalid_input');
    const choice = payload.columnChoice!;
    expect(choice.columns).toEqual(['prompt', 'response_a', 'response_b', 'winner']);
    expect(choice.kind).toBe('pairwise');
    const pairwise = choice.kinds.find((k) => k.kind === 'pairwise')!;
    expect(pairwise.fields.filter((f) => f.required).map((f) => f.field)).toEqual([
      'instruction',
      'output_1',
      'output_2',
      'label',
    ]);
    expect(choice.kinds.map((k) => k.kind)).toEqual(['pairwise', 'qa', 'pointwise']);
    expect(choice.sample).toEqual([
      { prompt: 'Say hi', response_a: 'hi', response_b: 'bye', winner: '1' },
      { prompt: 'Add', response_a: '4', response_b: '5', winner: '2' },
    ]);
    expect(choice.mapping).toBeUndefined();

    // JSON Lines: the keys of the first record, values as text.
    const jsonl = [
      JSON.stringify({ q: 'Capital of France?', golds: ['Paris'], lang: 'en', qid: 'a1' }),
      JSON.stringify({ q: 'Two?', golds: ['2'], lang: 'en', qid: 'a2' }),
    ].join('\n');
    const jerr = (await core
      .call('datasets.import', { fileName: 'q.jsonl', contentBase64: b64(jsonl) })
      .catch((e: AppError) => e)) as AppError;
    expect(jerr.columnChoice?.columns).toEqual(['q', 'golds', 'lang', 'qid']);
    expect(jerr.columnChoice?.sample[0]).toEqual({
      q: 'Capital of France?',
      golds: '["Paris"]',
      lang: 'en',
      qid: 'a1',
    });
    // Mapped as QA, it imports.
    const qa = await core.call('datasets.import', {
      fileName: 'q.jsonl',
      contentBase64: b64(jsonl),
      columns: { id: 'qid', question: 'q', answers: 'golds', language: 'lang' },
    });
    expect(qa.dataset).toMatchObject({ kind: 'qa', itemCount: 2 });
    expect(qa).toMatchObject({ mappingRemembered: false });

    // A mapping that misses a needed field keeps the choice, starting from the mapping tried.
    const partial = (await core
      .call('datasets.import', {
        fileName: 'b.csv',
        contentBase64: b64(csv(['x,y,z,1'])),
        columns: { instruction: 'prompt', output_1: 'response_a', output_2: 'response_b' },
      })
      .catch((e: AppError) => e)) as AppError;
    expect(partial.columnChoice?.mapping).toEqual({
      instruction: 'prompt',
      output_1: 'response_a',
      output_2: 'response_b',
    });
    // A mapping whose label column holds something else: the located issue, and the choice again.
    const wrongLabel = (await core
      .call('datasets.import', {
        fileName: 'e.csv',
        contentBase64: b64(csv(['x,y,z,model_a'])),
        columns: MAPPING,
      })
      .catch((e: AppError) => e)) as AppError;
    expect(wrongLabel.issues[0]).toMatchObject({ field: 'label', row: 1 });
    expect(wrongLabel.columnChoice?.mapping).toEqual(MAPPING);
    expect(wrongLabel.columnChoice?.sample).toEqual([
      { prompt: 'x', response_a: 'y', response_b: 'z', winner: 'model_a' },
    ]);
    // Valid columns with a bad value: located issues, no column choice.
    const badLabel = (await core
      .call('datasets.import', {
        fileName: 'c.csv',
        contentBase64: b64('instruction,output_1,output_2,label\na,b,c,7\n'),
      })
      .catch((e: AppError) => e)) as AppError;
    expect(badLabel.issues[0].field).toBe('label');
    expect(badLabel.columnChoice).toBeUndefined();
    // One column (a file with another delimiter) is nothing to map.
    const semi = (await core
      .call('datasets.import', { fileName: 'd.csv', contentBase64: b64('prompt;a;b;winner\nx;y;z;1\n') })
      .catch((e: AppError) => e)) as AppError;
    expect(semi.columnChoice).toBeUndefined();
  });

  it('says when the mapping applied was remembered for the file shape', async () => {
    const t = tempDir();
    const core = startIn(t.dir);
    done = async () => {
      await core.shutdown();
      t.cleanup();
    };
    const a = await core.call('datasets.import', {
      fileName: 'a.csv',
      contentBase64: b64(csv(['Say hi,hi,bye,1'])),
      columns: MAPPING,
    });
    expect(a).toMatchObject({ mapping: MAPPING, mappingRemembered: false });
    const b = await core.call('datasets.import', {
      fileName: 'b.csv',
      contentBase64: b64(csv(['Other,x,y,2'])),
    });
    expect(b).toMatchObject({ mapping: MAPPING, mappingRemembered: true });
  });
});
