import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { migrate } from './migrations';
import { nativeBinding } from './native-binding';

export type { Database };

export const DB_FILE_NAME = 'judge-lab.sqlite';

/** Opens (creating if needed) the store file, with WAL and foreign keys, migrated to the current schema. */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file, { nativeBinding: nativeBinding() });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // The app and the CLI may share one file: wait for the other writer instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}
