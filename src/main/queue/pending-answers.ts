// Answers received while the store cannot be written (a full disk, an I/O error): they were
// paid for, so they are never dropped. The engine keeps them in memory and retries the commit;
// meanwhile it appends them to a side file beside the store, fsync'd, so that a process killed
// before the store recovers loses none of them: the next run replays the file into the ledger
// before it sends anything.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { Usage } from '../providers/types';
import type { Database } from '../store/db';
import type { Completion } from '../store/ledger';

export type FinalCompletion = Extract<Completion, { status: 'done' | 'failed' }>;

/** One line of a side file: the completion as the engine would have written it, and its request's hash. */
interface Spilled {
  v: 1;
  hash: string | null;
  c: FinalCompletion;
}

/** SQLite's own faults (SQLITE_FULL, SQLITE_IOERR_*, SQLITE_BUSY…): the store, not our logic, failed. */
export function isStoreFault(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_');
}

/** `<data dir>/pending-answers`, beside the store file; null for a store in memory. */
export function pendingDir(db: Database): string | null {
  return db.memory || !db.name ? null : join(dirname(db.name), 'pending-answers');
}

export function pendingFile(db: Database, owner: string): string | null {
  const dir = pendingDir(db);
  return dir && join(dir, `${owner.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`);
}

/** The hashes of the requests, read (a full disk still reads); null where they cannot be. */
function hashesOf(db: Database, ids: readonly number[]): Map<number, string> {
  const out = new Map<number, string>();
  try {
    const stmt = db.prepare('SELECT hash FROM requests WHERE id = ?').pluck();
    for (const id of ids) {
      const h = stmt.get(id) as string | undefined;
      if (h !== undefined) out.set(id, h);
    }
  } catch {
    // Unreadable too: the ids alone identify the rows (same store file).
  }
  return out;
}

/**
 * Appends completions to the run's side file and fsyncs it. Throws when the file system
 * refuses (the caller keeps them in memory). Each write starts on a new line, so a line cut
 * off by an earlier failed write is skipped on replay, not glued to the next one.
 */
export function spillAnswers(db: Database, owner: string, completions: readonly FinalCompletion[]): string {
  const file = pendingFile(db, owner);
  if (!file) throw new Error('the store is in memory: there is no folder for a side file');
  const hashes = hashesOf(
    db,
    completions.map((c) => c.id),
  );
  const text = completions
    .map((c) => JSON.stringify({ v: 1, hash: hashes.get(c.id) ?? null, c } satisfies Spilled))
    .join('\n');
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `\n${text}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return file;
}

/** The run stored everything it spilled: its side file goes. */
export function dropSpilled(db: Database, owner: string): void {
  const file = pendingFile(db, owner);
  if (file) rmSync(file, { force: true });
}

const ADD_USAGE = `input_tokens = COALESCE(input_tokens, 0) + ?, output_tokens = COALESCE(output_tokens, 0) + ?,
  cached_tokens = COALESCE(cached_tokens, 0) + ?, cache_write_tokens = COALESCE(cache_write_tokens, 0) + ?,
  cost_usd = COALESCE(cost_usd, 0) + ?, attempts = attempts + ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'),
  lease_owner = NULL, lease_pid = NULL, lease_host = NULL, lease_expires_at = NULL`;
// The row is still open: pending (its run's lease was recovered) or in flight under the run
// that spilled it. A row another live run has claimed since is left to that run.
const OPEN = `WHERE id = ? AND (? IS NULL OR hash = ?) AND (status = 'pending' OR (status = 'in_flight' AND lease_owner IS ?))`;

function usageArgs(u: Usage, c: FinalCompletion): number[] {
  return [
    u.inputTokens,
    u.outputTokens,
    u.cachedInputTokens,
    u.cacheWriteTokens ?? 0,
    c.costUsd,
    c.extraAttempts,
  ];
}

/**
 * Stores the answers of side files left by earlier runs (or by this store's other processes
 * that could not write it), then removes the files: in one transaction per file, so a file is
 * either replayed whole or kept. Returns the ids stored. A store that still cannot be written
 * leaves the files for the next start.
 */
export function replayPendingAnswers(db: Database, warn: (message: string) => void): number[] {
  const dir = pendingDir(db);
  if (!dir) return [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const done = db.prepare(
    `UPDATE requests SET status = 'done', response_text = ?, response_json = ?, failure_reason = NULL, ${ADD_USAGE} ${OPEN}`,
  );
  const failed = db.prepare(
    `UPDATE requests SET status = 'failed', failure_reason = ?, response_text = ?, response_json = NULL, ${ADD_USAGE} ${OPEN}`,
  );
  const stored: number[] = [];
  for (const f of files) {
    const file = join(dir, f);
    const owner = f.slice(0, -'.jsonl'.length);
    const records: Spilled[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as Spilled;
        if (r.v === 1 && r.c && typeof r.c.id === 'number') records.push(r);
      } catch {
        // A line cut off by a full disk: that answer never reached the file.
      }
    }
    try {
      const ids = db.transaction(() =>
        records.flatMap(({ hash, c }) => {
          const where = [c.id, hash, hash, owner];
          const changes =
            c.status === 'done'
              ? done.run(c.text, JSON.stringify(c.json), ...usageArgs(c.usage, c), ...where).changes
              : failed.run(c.reason, c.text, ...usageArgs(c.usage, c), ...where).changes;
          return changes === 1 ? [c.id] : [];
        }),
      )();
      stored.push(...ids);
      rmSync(file, { force: true });
      if (ids.length)
        warn(`stored ${ids.length} answers an earlier run received but could not write (${file})`);
    } catch (err) {
      if (!isStoreFault(err)) throw err;
      warn(`answers in ${file} not stored yet: ${err.message}; kept for the next start`);
    }
  }
  return stored;
}
