import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/store/db';
import { migrate, migrations } from '../../src/main/store/migrations';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('opening a store that needs a migration', () => {
  it('copies the file into backups/ before migrating, with the data and the old schema', () => {
    const file = join(dir, 'judge-lab.sqlite');
    const old = new BetterSqlite3(file);
    migrate(old, migrations.slice(0, 1));
    old
      .prepare(
        "INSERT INTO datasets (name, source_file, format, content_hash) VALUES ('kept', 'k.jsonl', 'csv', 'h')",
      )
      .run();
    old.close();

    openDatabase(file).close();

    const backups = readdirSync(join(dir, 'backups'));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/before-migration-v1\.sqlite$/);
    const copy = new BetterSqlite3(join(dir, 'backups', backups[0]), { readonly: true });
    expect(copy.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: 1 });
    expect(copy.prepare('SELECT name FROM datasets').all()).toEqual([{ name: 'kept' }]);
    copy.close();
  });

  it('makes no backup for a new store or one that is already current', () => {
    const file = join(dir, 'judge-lab.sqlite');
    openDatabase(file).close();
    openDatabase(file).close();
    expect(existsSync(join(dir, 'backups'))).toBe(false);
  });
});
