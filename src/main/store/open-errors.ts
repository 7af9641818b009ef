// Store faults (permissions, full disks, damaged files) in words a user can act on. SQLite only
// says "unable to open database file" or "disk I/O error"; the message here names the file and
// what to do. Code 'internal' keeps the CLI's exit code 1 (a runtime problem, not bad input).
import { dirname, join } from 'node:path';
import { AppError } from '../base/errors';

/** A fault of the store file or its folder, already explained. */
export class StoreError extends AppError {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super('internal', message);
    this.name = 'StoreError';
  }
}

const ELSEWHERE = 'or use another data folder with --data-dir or JUDGE_LAB_HOME';

function restoreHint(file: string): string {
  return (
    `Run "judge-lab doctor" for details. To go back to a backup: "judge-lab restore <backup file>" ` +
    `(backups are in ${join(dirname(file), 'backups')}); the damaged file is kept beside it.`
  );
}

/** Says the store is damaged, naming what SQLite found. */
export function corruptStore(file: string, detail: string): StoreError {
  return new StoreError(
    file,
    `The data store ${file} is damaged (${detail}). Judge Lab will not write into it. ${restoreHint(file)}`,
  );
}

function sqliteCode(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as Error & { code?: unknown }).code;
  // The engine's own stop after a store that stayed unwritable carries the store's code too.
  if (err.name !== 'SqliteError')
    return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
  return typeof code === 'string' ? code : 'SQLITE_ERROR';
}

/** A file-system error while preparing the data folder, explained; undefined for other errors. */
function fsFault(err: unknown, file: string): StoreError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const dir = dirname(file);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return new StoreError(
        file,
        `Cannot create the data folder ${dir}: permission denied. Make it writable ${ELSEWHERE}.`,
      );
    case 'EROFS':
      return new StoreError(
        file,
        `Cannot create the data folder ${dir}: the file system is read-only. Use a writable location (--data-dir or JUDGE_LAB_HOME).`,
      );
    case 'ENOTDIR':
    case 'EEXIST':
      return new StoreError(
        file,
        `The data folder ${dir} (or a folder above it) is a file, not a folder. Move that file away ${ELSEWHERE}.`,
      );
    case 'ENOSPC':
      return new StoreError(
        file,
        `The disk holding ${dir} is full. Free some space and run the command again.`,
      );
    default:
      return undefined;
  }
}

/**
 * Explains an error from opening or using the store at `file`; undefined when the error is not
 * a store fault (then the caller lets it through unchanged).
 */
export function explainStoreFault(err: unknown, file: string): StoreError | undefined {
  if (err instanceof StoreError) return err;
  const code = sqliteCode(err);
  if (code === undefined) return fsFault(err, file);
  const detail = err instanceof Error ? err.message : String(err);
  if (code.startsWith('SQLITE_READONLY'))
    return new StoreError(
      file,
      `The data store ${file} is read-only (${detail}). Judge Lab needs to write to the file and to its folder ` +
        `(for the -wal and -shm files beside it): make both writable (e.g. chmod u+w) ${ELSEWHERE}.`,
    );
  if (code.startsWith('SQLITE_CANTOPEN'))
    return new StoreError(
      file,
      `Cannot open the data store ${file} (${detail}). Check that its folder exists and that Judge Lab may read ` +
        `and write both the folder and the file, ${ELSEWHERE}.`,
    );
  // The engine's stop says where the answers it received are kept: said too.
  const kept = err instanceof Error && err.name !== 'SqliteError' ? ` (${detail})` : '';
  if (code === 'SQLITE_FULL')
    return new StoreError(
      file,
      `The disk holding ${file} is full${kept}. The last change was rolled back, so nothing is half-written: free some ` +
        'space and run the command again.',
    );
  if (code.startsWith('SQLITE_IOERR'))
    return new StoreError(
      file,
      `Reading or writing the data store ${file} failed (${code}: ${detail}): the disk may be full, failing ` +
        'or unplugged, or a file size limit was hit. The last change was rolled back; fix the disk and run the ' +
        'command again.',
    );
  if (code === 'SQLITE_NOTADB')
    return new StoreError(
      file,
      `${file} is not a Judge Lab data store (not an SQLite database). If it was one, it is damaged. ${restoreHint(file)} ` +
        `To start with an empty store, move the file away.`,
    );
  if (code.startsWith('SQLITE_CORRUPT')) return corruptStore(file, detail);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new StoreError(
      file,
      `The data store ${file} stayed locked by another program for too long (${detail}). Close other Judge Lab ` +
        'windows or commands using it and try again.',
    );
  return new StoreError(file, `The data store ${file} reported an error (${code}: ${detail}).`);
}
