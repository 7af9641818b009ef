import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/main/store/db';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'import');
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** A fresh store file in its own temp folder; `close` removes both. */
export function tempDatabase(): { db: Database; dir: string; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'judge-lab-import-'));
  const db = openDatabase(join(dir, 'store.sqlite'));
  return {
    db,
    dir,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function storeCounts(db: Database): { datasets: number; items: number } {
  const datasets = (db.prepare('SELECT COUNT(*) AS n FROM datasets').get() as { n: number }).n;
  const items = (db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n;
  return { datasets, items };
}
