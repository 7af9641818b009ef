import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { backupFileName, backupsDir, snapshotSync } from './backup';
import { migrate, newerSchemaProblem } from './migrations';
import { corruptStore, explainStoreFault, StoreError } from './open-errors';
import { nativeBinding } from './native-binding';

export type { Database };

export const DB_FILE_NAME = 'judge-lab.sqlite';

export interface OpenOptions {
  /** Run SQLite's quick_check before anything is written (default true). */
  check?: boolean;
  /**
   * Open without writing anything (no migrations): for reading a store this release may not
   * write, e.g. one a newer release made. Writes then fail.
   */
  readOnly?: boolean;
  /**
   * SQLite's page cache for this connection, in KiB (default: better-sqlite3's 16,000). Its
   * pages are the C library's memory, kept while the connection is open.
   */
  pageCacheKiB?: number;
}

/** A store made by a newer release: this one refuses to write to it (it may read it). */
export class NewerStoreError extends StoreError {
  constructor(
    file: string,
    /** "was made by Judge Lab 0.3.0 (schema 12; …)" */
    readonly madeBy: string,
  ) {
    super(
      file,
      `The data store ${file} ${madeBy}. This release will not write to it. Use that release (or a newer ` +
        'one), or read it with this one: `judge-lab list`, `export` and `compare` open such a store ' +
        'read-only by themselves (or pass --read-only); `run`, `import` and the app need the newer release.',
    );
  }
}

/**
 * Opens (creating if needed) the store file, with WAL and foreign keys, migrated to the current
 * schema. Faults (permissions, full disk, damaged file, a folder in its place) become a
 * StoreError that names the file and what to do; a damaged store is refused before any write.
 */
export function openDatabase(file: string, opts: OpenOptions = {}): Database {
  if (file === ':memory:')
    return prepare(new BetterSqlite3(file, { nativeBinding: nativeBinding() }), file, opts);
  try {
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(file) && statSync(file).isDirectory())
      throw new StoreError(
        file,
        `${file} is a folder, not a database file. Move it away, or use another data folder with --data-dir or JUDGE_LAB_HOME.`,
      );
    if (opts.readOnly)
      return prepareReadOnly(
        new BetterSqlite3(file, { nativeBinding: nativeBinding(), readonly: true, fileMustExist: true }),
        file,
        opts,
      );
    if (!existsSync(file)) createWhole(file, opts);
    return prepare(new BetterSqlite3(file, { nativeBinding: nativeBinding() }), file, opts);
  } catch (err) {
    throw explainStoreFault(err, file) ?? err;
  }
}

/**
 * A new store appears whole: it is made under a name of its own (WAL, every migration) and linked
 * into place. Two processes opening a new data folder at once then never both create its tables
 * in one file (one exited with "table … already exists", issue 40 item 11, even with each
 * migration in an IMMEDIATE transaction). link() fails with EEXIST for the one that comes second,
 * which then opens the first one's file; where a file system has no hard links, the store is
 * made in place as before.
 */
function createWhole(file: string, opts: OpenOptions): void {
  const tmp = `${file}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    prepare(new BetterSqlite3(tmp, { nativeBinding: nativeBinding() }), tmp, opts).close();
    try {
      linkSync(tmp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw err;
    }
  } finally {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  }
}

/**
 * Makes `db.transaction(fn)` begin IMMEDIATE. The app, `serve` and a CLI run may write to one
 * file: a deferred transaction that reads before it writes fails at once with "database is
 * locked" when another process committed in between (SQLite cannot upgrade a stale snapshot, and
 * the busy timeout does not apply), while an immediate one takes the write lock first and waits.
 * The `.deferred` variant stays available for read-only transactions that want no lock.
 */
function immediateTransactions(db: Database): void {
  const deferredByDefault = db.transaction.bind(db);
  db.transaction = ((fn: Parameters<Database['transaction']>[0]) =>
    deferredByDefault(fn).immediate) as Database['transaction'];
}

/**
 * Switches a file to WAL. On a new file that another process opens at the same instant, the
 * switch can meet the other's read lock: SQLite answers SQLITE_BUSY at once there (the busy
 * handler is not called, since two readers each waiting to escalate would deadlock), so it is
 * tried again for as long as the busy timeout would wait.
 */
function walMode(db: Database): void {
  for (let waited = 0; ; waited += 25) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || waited >= 20_000) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

function prepare(db: Database, file: string, opts: OpenOptions): Database {
  try {
    // The app and the CLI may share one file: wait for the other writer instead of failing.
    db.pragma('busy_timeout = 20000');
    walMode(db);
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    if (opts.pageCacheKiB !== undefined)
      db.pragma(`cache_size = -${Math.max(0, Math.round(opts.pageCacheKiB))}`);
    immediateTransactions(db);
    if (opts.check !== false) {
      const problems = quickCheckProblems(db);
      if (problems.length) throw corruptStore(file, problems.slice(0, 2).join('; '));
    }
    // Before the first write: a newer release's tables are not ours to change.
    const newer = newerSchemaProblem(db);
    if (newer) throw new NewerStoreError(file, newer);
    migrate(db, undefined, (done) => {
      // A file that ran migrations before holds the user's data: copy it before changing its schema.
      if (done.length > 0 && file !== ':memory:')
        snapshotSync(db, join(backupsDir(file), backupFileName(`before-migration-v${Math.max(...done)}`)));
    });
    // SQLite opens a read-only file read-only without a word; a write that changes nothing
    // says so now, with the reason, instead of at the first real write.
    db.prepare('DELETE FROM schema_migrations WHERE 0').run();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function prepareReadOnly(db: Database, file: string, opts: OpenOptions): Database {
  try {
    db.pragma('busy_timeout = 20000');
    if (opts.check !== false) {
      const problems = quickCheckProblems(db);
      if (problems.length) throw corruptStore(file, problems.slice(0, 2).join('; '));
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** What PRAGMA quick_check found, one line per problem (its "*** in database" headers dropped). */
function quickCheckProblems(db: Database): string[] {
  const rows = db.pragma('quick_check(10)') as { quick_check: string }[];
  return rows
    .flatMap((r) => r.quick_check.split('\n'))
    .filter((line) => line !== 'ok' && !line.startsWith('***'));
}
