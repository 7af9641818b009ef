// The store's maintenance (doctor, backup, restore) for the doors: these work on the store file
// itself, without starting the core, because a damaged store is exactly what they are for.
import { existsSync, statSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { formatBytes } from '../base/input-limits';
import { backupDatabase, backupsDir, integrityProblems, listBackups, restoreDatabase } from '../store/backup';
import { openDatabase } from '../store/db';
import { tamperedLocksInStore } from '../paper/prereg-locks';
import { corruptStore, explainStoreFault, StoreError } from '../store/open-errors';

export { backupFileName, backupsDir } from '../store/backup';
export { DB_FILE_NAME } from '../store/db';

function hasTable(db: BetterSqlite3.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function requireStore(file: string): void {
  if (!existsSync(file)) throw new StoreError(file, `There is no data store at ${file} yet.`);
}

/** Runs the full check; problems (or a file SQLite cannot read at all) are returned, not thrown. */
function check(file: string): { problems: string[]; tampered?: string[]; version?: number } {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(file, { fileMustExist: true });
    const problems = integrityProblems(db);
    // Only a file SQLite finds sound is read further: a lock changed after locking is no damage
    // SQLite can see, but the store no longer holds the preregistration it says it holds.
    const tampered =
      problems.length === 0 && hasTable(db, 'preregistrations') ? tamperedLocksInStore(db) : [];
    const version = (
      db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number } | undefined
    )?.v;
    return { problems, tampered, version };
  } catch (err) {
    const fault = explainStoreFault(err, file);
    // Damage that stops SQLite from even reading is the finding itself; other faults stay faults.
    const code = (err as { code?: string }).code ?? '';
    if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) return { problems: [(err as Error).message] };
    throw fault ?? err;
  } finally {
    db?.close();
  }
}

/**
 * The full integrity check, written line by line to `out`; throws the store's corruption error
 * (exit 1) after listing what it found.
 */
export function doctorStore(file: string, out: (s: string) => void): void {
  requireStore(file);
  if (statSync(file).isDirectory()) return void openDatabase(file);
  const { problems, tampered = [], version } = check(file);
  const backups = listBackups(file);
  out(
    `Data store: ${file} (${formatBytes(statSync(file).size)}${version ? `, schema version ${version}` : ''})\n`,
  );
  out(
    backups.length
      ? `Backups (newest first):\n${backups
          .slice(0, 5)
          .map((b) => `  ${b}\n`)
          .join('')}`
      : `No backups yet in ${backupsDir(file)} (make one with: judge-lab backup)\n`,
  );
  if (problems.length === 0) {
    out('Integrity check: ok\n');
    if (tampered.length === 0) return;
    out(
      `Preregistration locks: ${tampered.length} experiment${tampered.length > 1 ? 's' : ''} with a tampered lock:\n`,
    );
    for (const t of tampered) out(`  ${t}\n`);
    throw new StoreError(file, tampered[0]);
  }
  out(`Integrity check found ${problems.length} problem${problems.length > 1 ? 's' : ''}:\n`);
  for (const p of problems) out(`  ${p}\n`);
  throw corruptStore(file, problems[0]);
}

/** A checked copy of the store through SQLite's online backup API (safe while the app runs). */
export async function backupStore(file: string, dest: string): Promise<{ pages: number }> {
  requireStore(file);
  const db = openDatabase(file);
  try {
    return await backupDatabase(db, dest);
  } finally {
    db.close();
  }
}

/** Replaces the store with a backup; the store it replaced is kept beside the backups. */
export function restoreStore(file: string, from: string): { keptAs?: string } {
  return restoreDatabase(file, from);
}
