// Issue 15 item 12: a CSV/JSON file whose columns are named differently imports once the person
// says which column is which field; the choice is remembered for files with the same columns.
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/core/key-store';
import { tempDir } from '../helpers/tmp';

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
});
