// Writing a user's output files (issue 40 item 9): each is written beside its target under a
// temporary name and renamed when every one is whole, so a full disk leaves neither a half file
// nor a 0-byte one behind, and the error names the path that failed (often `--out`, on another
// disk than the data folder), not the data folder.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from './errors';

/** Error codes of a write that failed for want of room. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * The error for a failed write of `path`, naming it: a full disk says which disk is full;
 * other file-system errors keep their reason. Non-file-system errors pass through unchanged.
 */
export function writeFailure(path: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (err instanceof AppError || typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return err;
  const why = NO_ROOM.has(code)
    ? `the disk holding ${dirname(path)} is full (${code}). Nothing was left half-written there; free some space and run the command again.`
    : `${(err as Error).message}. Nothing was left half-written there.`;
  return new AppError('internal', `Writing ${path} failed: ${why}`, [{ file: path, message: code }]);
}

/** Writes every file whole or none of them (each through a temporary file beside it). */
export function writeFilesWhole(
  files: readonly (readonly [path: string, data: string | Uint8Array])[],
): void {
  const tmps: string[] = [];
  let current = '';
  try {
    for (const [path, data] of files) {
      current = path;
      const tmp = `${path}.${process.pid}.tmp`;
      tmps.push(tmp);
      writeFileSync(tmp, data);
    }
    for (const [i, [path]] of files.entries()) {
      current = path;
      renameSync(tmps[i], path);
    }
  } catch (err) {
    for (const tmp of tmps) rmSync(tmp, { force: true });
    throw writeFailure(current, err);
  }
}
