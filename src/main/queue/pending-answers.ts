// Answers received while the store cannot be written (a full disk, an I/O error): they were
// paid for, so they are never dropped. The engine keeps them in memory and retries the commit;
// meanwhile it appends them to a side file beside the store, fsync'd, so that a process killed
// before the store recovers loses none of them: the next run replays the file into the ledger
// before it sends anything. The side file sits on the store's disk, which is the one that is
// full: so each run sets aside room for it when it starts (a reserve file), and answers that
// find the disk full are written into that room in place, which needs no new blocks.
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database } from '../store/db';
import { ADD_USAGE, NO_LEASE, usageArgs, type Completion } from '../store/ledger';

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

const safeOwner = (owner: string) => owner.replace(/[^A-Za-z0-9_-]/g, '_');

export function pendingFile(db: Database, owner: string): string | null {
  const dir = pendingDir(db);
  return dir && join(dir, `${safeOwner(owner)}.jsonl`);
}

/**
 * Room set aside on the store's disk for a run's side file (1 MiB: a few hundred answers, more
 * than a run has on the wire when its store fails). Written when the run starts, while the disk
 * still has room; answers are later written over it in place, which a full disk allows.
 */
export const SIDE_FILE_RESERVE_BYTES = 1024 * 1024;

/** A run's reserve: `<owner>.<pid>.reserve` until answers are written into it, then `<owner>.kept.jsonl`. */
export interface SideReserve {
  file: string;
  size: number;
  /** Bytes written into it from its start. */
  used: number;
}

/**
 * Sets aside the run's reserve. Best effort: on a disk already full there is none (and no part
 * of one is left), and the side file is appended to as before.
 */
export function reserveSideFile(
  db: Database,
  owner: string,
  bytes = SIDE_FILE_RESERVE_BYTES,
): SideReserve | null {
  const dir = pendingDir(db);
  if (!dir || bytes <= 0) return null;
  const file = join(dir, `${safeOwner(owner)}.${process.pid}.reserve`);
  try {
    mkdirSync(dir, { recursive: true });
    // Spaces: a line of them is blank, which a replay skips.
    writeWhole(file, Buffer.alloc(bytes, 0x20));
    return { file, size: bytes, used: 0 };
  } catch {
    rmSync(file, { force: true });
    return null;
  }
}

function writeWhole(file: string, data: Buffer): void {
  const fd = openSync(file, 'w');
  try {
    let at = 0;
    while (at < data.length) at += writeSync(fd, data, at, data.length - at);
  } finally {
    closeSync(fd);
  }
}

/** The run ended or stored everything: its reserve goes (the room is the disk's again). */
export function dropReserve(reserve: SideReserve | null): void {
  if (reserve?.file.endsWith('.reserve')) rmSync(reserve.file, { force: true });
}

/**
 * Appends `text` to `file` and fsyncs it. A write the disk refuses leaves the file as it was
 * (cut back to its old length; removed if it was new), so no partial line or empty file stays.
 */
function appendWhole(file: string, text: string): void {
  const fd = openSync(file, 'a');
  const before = fstatSync(fd).size;
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    try {
      if (before === 0) unlinkSync(file);
      else ftruncateSync(fd, before);
    } catch {
      // What is left is cut off mid-line: a replay skips such a line.
    }
    throw err;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` over the reserve's unused room and fsyncs it; the reserve is renamed to a side
 * file (`<owner>.kept.jsonl`) the first time, so a replay finds it. False when it does not fit.
 */
function writeIntoReserve(db: Database, owner: string, reserve: SideReserve, text: string): boolean {
  const bytes = Buffer.from(text, 'utf8');
  if (reserve.used + bytes.length > reserve.size) return false;
  try {
    const fd = openSync(reserve.file, 'r+');
    try {
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at, reserve.used + at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Gone (another process replayed and removed it) or unwritable: the answers stay in memory.
    return false;
  }
  reserve.used += bytes.length;
  if (reserve.file.endsWith('.reserve')) {
    const kept = join(pendingDir(db)!, `${safeOwner(owner)}.kept.jsonl`);
    renameSync(reserve.file, kept);
    reserve.file = kept;
  }
  return true;
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
 * Appends completions to the run's side file and fsyncs it; when the disk refuses, writes them
 * into the run's reserve instead. Throws when neither takes them (the caller keeps them in
 * memory). Each write starts on a new line, so a line cut off by an earlier failed write is
 * skipped on replay, not glued to the next one. Returns the file that holds them.
 */
export function spillAnswers(
  db: Database,
  owner: string,
  completions: readonly FinalCompletion[],
  reserve: SideReserve | null = null,
): string {
  const file = pendingFile(db, owner);
  if (!file) throw new Error('the store is in memory: there is no folder for a side file');
  const hashes = hashesOf(
    db,
    completions.map((c) => c.id),
  );
  const text = completions
    .map((c) => JSON.stringify({ v: 1, hash: hashes.get(c.id) ?? null, c } satisfies Spilled))
    .join('\n');
  // Once the reserve holds answers, the rest follow them there while it has room.
  if (reserve && !reserve.file.endsWith('.reserve') && writeIntoReserve(db, owner, reserve, `\n${text}\n`))
    return reserve.file;
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendWhole(file, `\n${text}\n`);
    return file;
  } catch (err) {
    if (reserve && writeIntoReserve(db, owner, reserve, `\n${text}\n`)) return reserve.file;
    throw err;
  }
}

/** The run stored everything it spilled: its side files go (the reserve is set aside again by the next run). */
export function dropSpilled(db: Database, owner: string, reserve: SideReserve | null = null): void {
  const file = pendingFile(db, owner);
  if (file) rmSync(file, { force: true });
  if (reserve && !reserve.file.endsWith('.reserve')) {
    rmSync(reserve.file, { force: true });
    reserve.size = 0;
  }
}

/** Reserves left by processes that are gone (killed): the room is given back. */
function dropStaleReserves(dir: string, files: readonly string[]): void {
  for (const f of files) {
    const pid = Number(/\.(\d+)\.reserve$/.exec(f)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(dir, f), { force: true });
    }
  }
}

// The row is still open: pending (its run's lease was recovered) or in flight under the run
// that spilled it. A row another live run has claimed since is left to that run.
const OPEN = `WHERE id = ? AND (? IS NULL OR hash = ?) AND (status = 'pending' OR (status = 'in_flight' AND lease_owner IS ?))`;

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
    const all = readdirSync(dir);
    dropStaleReserves(dir, all);
    files = all.filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const done = db.prepare(
    `UPDATE requests SET status = 'done', response_text = ?, response_json = ?, failure_reason = NULL, ${ADD_USAGE}, ${NO_LEASE} ${OPEN}`,
  );
  const failed = db.prepare(
    `UPDATE requests SET status = 'failed', failure_reason = ?, response_text = ?, response_json = NULL, ${ADD_USAGE}, ${NO_LEASE} ${OPEN}`,
  );
  const stored: number[] = [];
  for (const f of files) {
    const file = join(dir, f);
    // `<owner>.jsonl` or `<owner>.kept.jsonl` (answers written into the run's reserve).
    const owner = f.slice(0, f.indexOf('.'));
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
              ? done.run(c.text, JSON.stringify(c.json), ...usageArgs(c), ...where).changes
              : failed.run(c.reason, c.text, ...usageArgs(c), ...where).changes;
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
