// Statements prepared once per connection and SQL text. Preparing costs tens of microseconds, which
// adds up where one statement runs per answer or per label given. A statement keeps the mode it was
// last given (`pluck`, `raw`, `expand`), so every use of one SQL text must ask for the same mode.
import type { Statement } from 'better-sqlite3';
import type { Database } from './db';

const statements = new WeakMap<Database, Map<string, Statement>>();

export function prepared(db: Database, sql: string): Statement {
  let perDb = statements.get(db);
  if (!perDb) statements.set(db, (perDb = new Map()));
  let stmt = perDb.get(sql);
  if (!stmt) perDb.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
