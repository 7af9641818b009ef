// Which process runs which experiment. The desktop app, `judge-lab serve` and the CLI may
// open one store together; only the process that runs an experiment may touch its calls
// "in flight", and a crash must not leave an experiment looking busy forever.
//
// A lock file is never written in place: its whole content (pid and a random token) goes into
// a temp file first, which is then linked to the lock's name (link fails with EEXIST, atomically,
// when the name exists), so nobody ever reads a half-written lock. A lock left by a dead process
// is taken over by one process only: the taker first links a marker named after that stale
// lock's content (one name per stale lock, so one winner), checks that the lock still holds that
// content, and only then renames its own file over it.
import { randomBytes, createHash } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { processAlive } from './process-alive';
import { AppError } from '../base/errors';

const LOCK_NAME = /^experiment-(\d+)\.pid$/;

/** Locks this process holds, by lock file: its token and how many holders share it here. */
const heldHere = new Map<string, { token: string; count: number }>();
/** Tokens of every lock (and takeover marker) this process holds now. */
const liveTokens = new Set<string>();

interface Owner {
  pid: number;
  token: string | null;
}

/** `<pid> <token>`; files of releases before the token hold only the pid. */
function parseOwner(text: string): Owner | undefined {
  const [pidText, token] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  return Number.isInteger(pid) && pid > 0 ? { pid, token: token ?? null } : undefined;
}

/**
 * Whether the owner may still be using the lock. A lock naming this process's pid with a token
 * it does not hold was left by an earlier process that had the same pid (pids are reused, and in
 * a container every start may be pid 1).
 */
function ownerAlive(owner: Owner): boolean {
  if (owner.pid === process.pid) return owner.token !== null && liveTokens.has(owner.token);
  return processAlive(owner.pid);
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Sleeps a little without yielding to the event loop (acquire is synchronous). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A new file with the whole content, beside `file`, to be linked or renamed onto it. */
function stage(file: string, content: string): string {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, content, { flag: 'wx' });
  return tmp;
}

type Claim = { won: true } | { won: false; owner: Owner | undefined };

/**
 * Makes `file` hold `content` when it is free or its owner is dead; otherwise says who holds it.
 * `depth` bounds the takeover of takeover markers (a taker that died between two syscalls).
 */
function claim(file: string, content: string, depth = 0): Claim {
  for (let attempt = 0; attempt < 200; attempt++) {
    const tmp = stage(file, content);
    try {
      linkSync(tmp, file);
      return { won: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
    const seen = readText(file);
    if (seen === undefined) continue; // released while we looked: try again
    const owner = parseOwner(seen);
    if (owner && ownerAlive(owner)) return { won: false, owner };
    // Stale (or from a release that wrote the pid after creating the file, and still empty).
    if (depth >= 3) return { won: false, owner };
    const marker = `${file}.takeover-${createHash('sha256').update(seen).digest('hex').slice(0, 16)}`;
    const token = randomBytes(12).toString('hex');
    liveTokens.add(token);
    const markerContent = `${process.pid} ${token}\n`;
    try {
      if (claim(marker, markerContent, depth + 1).won) {
        try {
          // Only the holder of this marker may replace this stale content, so it is still there.
          if (readText(file) === seen) {
            const mine = stage(file, content);
            try {
              renameSync(mine, file);
            } catch (err) {
              rmSync(mine, { force: true });
              throw err;
            }
            return { won: true };
          }
        } finally {
          if (readText(marker) === markerContent) rmSync(marker, { force: true });
        }
      } else pause(1 + Math.random() * 4); // another process is taking it over: see what it did
    } finally {
      liveTokens.delete(token);
    }
  }
  throw new AppError('internal', `Could not take the lock ${file}: it kept changing. Try again.`);
}

export class RunLocks {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'locks');
    mkdirSync(this.dir, { recursive: true });
  }

  private file(experimentId: number): string {
    return join(this.dir, `experiment-${experimentId}.pid`);
  }

  /**
   * Takes the experiment for this process; refuses when another live process has it. Holds
   * nest within a process (a run, and the export after it): the lock goes when the last ends.
   */
  acquire(experimentId: number): void {
    const file = this.file(experimentId);
    const mine = heldHere.get(file);
    if (mine) {
      mine.count++;
      return;
    }
    const token = randomBytes(12).toString('hex');
    liveTokens.add(token);
    const result = claim(file, `${process.pid} ${token}\n`);
    if (result.won) {
      heldHere.set(file, { token, count: 1 });
      return;
    }
    liveTokens.delete(token);
    throw new AppError(
      'conflict',
      result.owner
        ? `This experiment is running in another process (pid ${result.owner.pid}). Wait for it, or stop it, then try again.`
        : `This experiment's lock ${file} is being taken by another process. Try again.`,
    );
  }

  release(experimentId: number): void {
    const file = this.file(experimentId);
    const mine = heldHere.get(file);
    if (!mine) return;
    if (--mine.count > 0) return;
    heldHere.delete(file);
    // Ours until we remove it: a takeover needs the owner dead.
    if (parseOwner(readText(file) ?? '')?.token === mine.token) rmSync(file, { force: true });
    liveTokens.delete(mine.token);
  }

  /** Whether this process holds the experiment's lock. */
  holds(experimentId: number): boolean {
    return heldHere.has(this.file(experimentId));
  }

  /**
   * Experiments that another live process is running now. Stale files are left for the next
   * acquire to take over: removing one here could remove a lock someone took meanwhile.
   */
  heldElsewhere(): number[] {
    const ids: number[] = [];
    for (const name of readdirSync(this.dir)) {
      const m = LOCK_NAME.exec(name);
      if (!m) continue;
      const owner = parseOwner(readText(join(this.dir, name)) ?? '');
      if (owner && owner.pid !== process.pid && ownerAlive(owner)) ids.push(Number(m[1]));
    }
    return ids;
  }
}

/**
 * Every experiment a live process (this one included) is running on a data folder, read from
 * its lock files without taking any: what a restore must not pull the store from under.
 */
export function liveRuns(dataDir: string): { experimentId: number; pid: number }[] {
  const dir = join(dataDir, 'locks');
  if (!existsSync(dir)) return [];
  const runs: { experimentId: number; pid: number }[] = [];
  for (const name of readdirSync(dir)) {
    const m = LOCK_NAME.exec(name);
    if (!m) continue;
    const owner = parseOwner(readText(join(dir, name)) ?? '');
    if (owner && ownerAlive(owner)) runs.push({ experimentId: Number(m[1]), pid: owner.pid });
  }
  return runs.sort((a, b) => a.experimentId - b.experimentId);
}
