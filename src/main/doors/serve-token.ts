// The web door's access token, kept across restarts: a tab opened before a restart (to set an
// API key, say) keeps working. Stored in the data folder (or a file the user names) readable
// by its owner only; a file others can read, or one too short to be a secret, is refused.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../base/errors';

/** The token's file in the data folder when no --token-file is given. */
export const TOKEN_FILE_NAME = 'serve-token';
const MIN_LENGTH = 32;

export function defaultTokenFile(dataDir: string): string {
  return join(dataDir, TOKEN_FILE_NAME);
}

function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Writes a fresh token (owner read/write only), replacing any old one when `replace`. */
function writeToken(file: string, replace: boolean): string {
  const token = newToken();
  const fd = openSync(file, replace ? 'w' : 'wx', 0o600);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return token;
}

/**
 * The token in `file`, created on first use. `fresh` replaces it (every open page then needs
 * the new URL). Other users must not be able to read it: group/other bits are an error.
 */
export function loadServeToken(file: string, fresh = false): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return writeToken(file, false);
    throw new AppError('invalid_input', `${file}: cannot read the token file (${(err as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new AppError('invalid_input', `${file}: the token file is not a regular file`);
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      throw new AppError(
        'invalid_input',
        `${file}: the token file can be read by other users (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 ${file}`,
      );
    }
    if (fresh) return writeToken(file, true);
    const token = readFileSync(fd, 'utf8').trim();
    if (token.length < MIN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) {
      throw new AppError(
        'invalid_input',
        `${file}: line 1: a token is at least ${MIN_LENGTH} characters of A–Z, a–z, 0–9, _ or - (delete the file to get a new one)`,
      );
    }
    return token;
  } finally {
    closeSync(fd);
  }
}
