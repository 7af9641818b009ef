// A real store file migrated only up to `version`, as an older release left it: what a migration
// test fills with that release's rows before it runs the newer migrations.
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { migrate, migrations } from '../../src/main/store/migrations';
import { tempDir } from './tmp';

export function storeAtVersion(version: number): { db: BetterSqlite3.Database; cleanup: () => void } {
  const t = tempDir();
  const db = new BetterSqlite3(join(t.dir, 'store.sqlite'));
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    migrations.filter((m) => m.version <= version),
  );
  return {
    db,
    cleanup: () => {
      if (db.open) db.close();
      t.cleanup();
    },
  };
}
