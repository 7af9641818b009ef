// The store's maintenance commands: doctor (full integrity check), backup (SQLite's online
// backup API) and restore. They work on the store file without starting the core
// (facade/store-maintenance.ts), so a damaged store can still be checked and replaced.
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveDataDir } from '../base/paths';
import {
  backupFileName,
  backupsDir,
  backupStore,
  DB_FILE_NAME,
  doctorStore,
  restoreStore,
} from '../facade/store-maintenance';

function storeFile(cmd: Command): string {
  const { dataDir } = cmd.optsWithGlobals<{ dataDir?: string }>();
  return join(resolveDataDir(dataDir), DB_FILE_NAME);
}

export function registerStoreCommands(program: Command, out: (s: string) => void): void {
  program
    .command('doctor')
    .description("check the data store with SQLite's full integrity check (exit 1 when it is damaged)")
    .action((_opts: unknown, cmd: Command) => doctorStore(storeFile(cmd), out));

  program
    .command('backup')
    .description("copy the data store with SQLite's online backup API (safe while the app runs)")
    .option('--to <file>', 'where to write the copy (default: backups/ in the data folder)')
    .action(async (opts: { to?: string }, cmd: Command) => {
      const file = storeFile(cmd);
      const dest = opts.to ? resolve(opts.to) : join(backupsDir(file), backupFileName('manual'));
      const { pages } = await backupStore(file, dest);
      out(
        `Backed up ${file} to ${dest} (${pages} pages, checked). Restore it with: judge-lab restore "${dest}"\n`,
      );
    });

  program
    .command('restore')
    .description('replace the data store with a backup (the current store is kept in backups/)')
    .argument('<backup>', 'a backup file made by judge-lab backup (or by the app before a migration)')
    .action((from: string, _opts: unknown, cmd: Command) => {
      const file = storeFile(cmd);
      const { keptAs } = restoreStore(file, resolve(from));
      out(
        `Restored ${file} from ${resolve(from)}.` +
          (keptAs ? ` The store it replaced is kept as ${keptAs}.` : '') +
          '\n',
      );
    });
}
