import { createHash } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';

/** A digest of every table's rows, to show a refused input changed nothing in the store. */
export function storeDigest(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const hash = createHash('sha256');
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[];
    for (const { name } of tables) {
      hash.update(`\0${name}\0`);
      for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).iterate())
        hash.update(JSON.stringify(row));
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}
