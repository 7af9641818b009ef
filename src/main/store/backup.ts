// Backups of the store file and the way back to one. `judge-lab backup` uses SQLite's online
// backup API (consistent while other processes write); the copy before a migration is made
// while the store is being opened, which is synchronous, so it uses VACUUM INTO (equally
// consistent, and compact).
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { AppError } from '../base/errors';
import { liveRuns } from './run-locks';
import { corruptStore, explainStoreFault, StoreError } from './open-errors';

export function backupsDir(storeFile: string): string {
  return join(dirname(storeFile), 'backups');
}

/** `judge-lab-2026-11-30T20-31-01.123Z-<label>.sqlite`: sorts by time, safe on every file system. */
export function backupFileName(label: string, now = new Date()): string {
  return `judge-lab-${now.toISOString().replace(/:/g, '-')}-${label}.sqlite`;
}

/** Backups beside a store, newest first. */
export function listBackups(storeFile: string): string[] {
  const dir = backupsDir(storeFile);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite'))
    .sort()
    .reverse()
    .map((f) => join(dir, f));
}

/** `ok`, or what SQLite's full integrity check (and the foreign-key check) found. */
export function integrityProblems(db: Database, limit = 20): string[] {
  const rows = db.pragma(`integrity_check(${limit})`, { simple: false }) as { integrity_check: string }[];
  const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  const fk = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
  for (const r of fk.slice(0, limit))
    problems.push(`row ${r.rowid} of ${r.table} points at a missing row of ${r.parent}`);
  return problems;
}

/** Copies the open store to a new file, synchronously (for the copy before a migration). */
export function snapshotSync(db: Database, dest: string): string {
  mkdirSync(dirname(dest), { recursive: true });
  db.prepare('VACUUM INTO ?').run(dest);
  return dest;
}

/** Copies the open store with SQLite's online backup API, then checks the copy. */
export async function backupDatabase(db: Database, dest: string): Promise<{ file: string; pages: number }> {
  if (existsSync(dest)) throw new StoreError(dest, `${dest} already exists; choose a new file name.`);
  mkdirSync(dirname(dest), { recursive: true });
  let pages: number;
  try {
    const result = await db.backup(dest);
    pages = result.totalPages;
    const copy = new BetterSqlite3(dest, { fileMustExist: true });
    try {
      const problems = integrityProblems(copy);
      if (problems.length) throw corruptStore(dest, problems.slice(0, 3).join('; '));
    } finally {
      copy.close();
    }
  } catch (err) {
    rmSync(dest, { force: true });
    throw explainStoreFault(err, dest) ?? err;
  }
  return { file: dest, pages };
}

const SIDE_FILES = ['', '-wal', '-shm'];

/**
 * Puts a backup in place of the store: the backup is copied and checked first (the user's file
 * is never opened for writing), then the current store (with its -wal and -shm, so nothing
 * committed is lost) is moved into backups/ and the checked copy renamed into place.
 */
export function restoreDatabase(storeFile: string, from: string): { replacedBy: string; keptAs?: string } {
  refuseWhileRunning(storeFile);
  let st;
  try {
    st = statSync(from);
  } catch {
    throw new StoreError(from, `Cannot restore: ${from} does not exist.`);
  }
  if (!st.isFile()) throw new StoreError(from, `Cannot restore: ${from} is not a regular file.`);
  mkdirSync(dirname(storeFile), { recursive: true });
  const staging = `${storeFile}.restoring`;
  for (const s of SIDE_FILES) rmSync(staging + s, { force: true });
  try {
    copyFileSync(from, staging);
    let copy: Database | undefined;
    try {
      copy = new BetterSqlite3(staging, { fileMustExist: true });
      const problems = integrityProblems(copy);
      if (problems.length) throw corruptStore(from, problems.slice(0, 3).join('; '));
      const known = copy
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
        .get();
      if (!known)
        throw new StoreError(from, `Cannot restore: ${from} is an SQLite file but not a Judge Lab store.`);
      // A backup in WAL mode gets a -wal beside the staging copy; fold it in before renaming.
      copy.pragma('wal_checkpoint(TRUNCATE)');
    } catch (err) {
      throw explainStoreFault(err, from) ?? err;
    } finally {
      copy?.close();
    }
  } catch (err) {
    for (const s of SIDE_FILES) rmSync(staging + s, { force: true });
    throw err;
  }
  // Checked again after the (possibly long) copy and check: a run may have started meanwhile.
  try {
    refuseWhileRunning(storeFile);
  } catch (err) {
    for (const s of SIDE_FILES) rmSync(staging + s, { force: true });
    throw err;
  }
  let keptAs: string | undefined;
  if (existsSync(storeFile)) {
    keptAs = join(backupsDir(storeFile), backupFileName('replaced-by-restore'));
    mkdirSync(dirname(keptAs), { recursive: true });
    for (const s of SIDE_FILES) if (existsSync(storeFile + s)) renameSync(storeFile + s, keptAs + s);
  }
  for (const s of SIDE_FILES.slice(1)) rmSync(staging + s, { force: true });
  renameSync(staging, storeFile);
  return { replacedBy: basename(from), keptAs };
}

/**
 * A run (in this process or another on the same data folder) keeps writing verdicts into the
 * store it opened: restored under it, those writes would land in the file moved to backups/
 * and the run would carry on against a store that no longer matches its plan. So a restore
 * waits until no run is live. A run paused in a live process may resume at any moment, so it
 * counts as live; one whose process ended (a CLI run stopped with Ctrl-C) does not.
 */
function refuseWhileRunning(storeFile: string): void {
  const runs = liveRuns(dirname(storeFile));
  if (!runs.length) return;
  const names = experimentNames(storeFile);
  const list = runs
    .map(({ experimentId, pid }) => {
      const name = names.get(experimentId);
      const who = pid === process.pid ? 'this process' : `process ${pid}`;
      return `${name ? `"${name}"` : `experiment ${experimentId}`} (in ${who})`;
    })
    .join(', ');
  throw new AppError(
    'conflict',
    `Cannot restore while ${runs.length === 1 ? 'a run is' : `${runs.length} runs are`} going on this data folder: ${list}. ` +
      'Stop it first (Cancel in the app, Ctrl-C for `judge-lab run`; stored answers are kept) or let it finish, then restore again. Nothing was changed.',
  );
}

/** Experiment names by id, for the message only: an unreadable store just yields none. */
function experimentNames(storeFile: string): Map<number, string> {
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(storeFile, { readonly: true, fileMustExist: true });
    const rows = db.prepare('SELECT id, name FROM experiments').all() as { id: number; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  } catch {
    return new Map();
  } finally {
    db?.close();
  }
}
