// The store's maintenance commands: doctor (full integrity check), backup (SQLite's online
// backup API) and restore. They open the store file directly, without starting the core.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Command } from 'commander';
import { formatBytes } from './base/input-limits';
import { resolveDataDir } from './base/paths';
import {
  backupDatabase,
  backupFileName,
  backupsDir,
  integrityProblems,
  listBackups,
  restoreDatabase,
} from './store/backup';
import { DB_FILE_NAME, openDatabase } from './store/db';
import { corruptStore, explainStoreFault, StoreError } from './store/open-errors';

function storeFile(cmd: Command): string {
  const { dataDir } = cmd.optsWithGlobals<{ dataDir?: string }>();
  return join(resolveDataDir(dataDir), DB_FILE_NAME);
}

function requireStore(file: string): void {
  if (!existsSync(file)) throw new StoreError(file, `There is no data store at ${file} yet.`);
}

/** Runs the full check; problems (or a file SQLite cannot read at all) are returned, not thrown. */
function check(file: string): { problems: string[]; version?: number } {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(file, { fileMustExist: true });
    const problems = integrityProblems(db);
    const version = (
      db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number } | undefined
    )?.v;
    return { problems, version };
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

export function registerStoreCommands(program: Command, out: (s: string) => void): void {
  program
    .command('doctor')
    .description("check the data store with SQLite's full integrity check (exit 1 when it is damaged)")
    .action((_opts: unknown, cmd: Command) => {
      const file = storeFile(cmd);
      requireStore(file);
      if (statSync(file).isDirectory()) return void openDatabase(file);
      const { problems, version } = check(file);
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
      if (problems.length === 0) return out('Integrity check: ok\n');
      out(`Integrity check found ${problems.length} problem${problems.length > 1 ? 's' : ''}:\n`);
      for (const p of problems) out(`  ${p}\n`);
      throw corruptStore(file, problems[0]);
    });

  program
    .command('backup')
    .description("copy the data store with SQLite's online backup API (safe while the app runs)")
    .option('--to <file>', 'where to write the copy (default: backups/ in the data folder)')
    .action(async (opts: { to?: string }, cmd: Command) => {
      const file = storeFile(cmd);
      requireStore(file);
      const dest = opts.to ? resolve(opts.to) : join(backupsDir(file), backupFileName('manual'));
      const db = openDatabase(file);
      try {
        const { pages } = await backupDatabase(db, dest);
        out(
          `Backed up ${file} to ${dest} (${pages} pages, checked). Restore it with: judge-lab restore "${dest}"\n`,
        );
      } finally {
        db.close();
      }
    });

  program
    .command('restore')
    .description('replace the data store with a backup (the current store is kept in backups/)')
    .argument('<backup>', 'a backup file made by judge-lab backup (or by the app before a migration)')
    .action((from: string, _opts: unknown, cmd: Command) => {
      const file = storeFile(cmd);
      const { keptAs } = restoreDatabase(file, resolve(from));
      out(
        `Restored ${file} from ${resolve(from)}.` +
          (keptAs ? ` The store it replaced is kept as ${keptAs}.` : '') +
          '\n',
      );
    });
}
