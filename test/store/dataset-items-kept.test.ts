// A dataset's items are kept per connection (store/datasets.ts `allItems`): every load of an
// experiment read and rebuilt its whole dataset. Kept items must never be stale or shared for
// writing: a dataset deleted and another imported under its id is read again, another connection's
// import is seen, and a caller cannot change what the next caller gets. On a store file on disk.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/main/store/db';
import { allItems, deleteDataset, insertDataset, type NewDataset } from '../../src/main/store/datasets';
import { tempDir } from '../helpers/tmp';

let t: ReturnType<typeof tempDir>;
let db: Database;
beforeAll(() => {
  t = tempDir();
  db = openDatabase(join(t.dir, 'store.sqlite'));
});
afterAll(() => {
  db.close();
  t.cleanup();
});

const dataset = (tag: string, n: number): NewDataset => ({
  name: tag,
  sourceFile: `${tag}.jsonl`,
  format: 'llmbar-jsonl',
  contentHash: `hash-${tag}`,
  items: Array.from({ length: n }, (_, i) => ({
    sourceId: `${tag}-${i}`,
    subset: null,
    instruction: `${tag} instruction ${i}`,
    output1: 'a',
    output2: 'b',
    label: 1 as const,
    extra: { answers: [`${tag}`, 'x'] },
  })),
});

describe("a dataset's kept items", () => {
  it('are equal on every read, in a new array each time, and frozen to the bottom', () => {
    const { id } = insertDataset(db, dataset('one', 5));
    const a = allItems(db, id);
    const b = allItems(db, id);
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
    a.pop();
    expect(allItems(db, id)).toHaveLength(5);
    expect(() => {
      (b[0] as { instruction: string }).instruction = 'changed';
    }).toThrow(TypeError);
    expect(() => (b[0].extra!.answers as string[]).push('more')).toThrow(TypeError);
    expect(allItems(db, id)[0].instruction).toBe('one instruction 0');
  });

  it('are read again when the dataset under that id is another one', () => {
    const { id } = insertDataset(db, dataset('two', 3));
    expect(allItems(db, id)[0].instruction).toBe('two instruction 0');
    deleteDataset(db, id);
    expect(allItems(db, id)).toEqual([]);
    // The highest id is handed out again by SQLite after its row is deleted.
    const again = insertDataset(db, dataset('three', 4));
    expect(again.id).toBe(id);
    expect(allItems(db, id).map((i) => i.instruction)).toEqual(
      [0, 1, 2, 3].map((i) => `three instruction ${i}`),
    );
  });

  it("see another connection's delete and import under the same id", () => {
    const { id } = insertDataset(db, dataset('four', 2));
    expect(allItems(db, id)).toHaveLength(2);
    const other = openDatabase(join(t.dir, 'store.sqlite'));
    try {
      deleteDataset(other, id);
      expect(insertDataset(other, dataset('five', 6)).id).toBe(id);
    } finally {
      other.close();
    }
    expect(allItems(db, id).map((i) => i.sourceId)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `five-${i}`));
  });
});
