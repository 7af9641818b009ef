// Issue 22 item 2: a store that cannot be written mid-run (a full disk) must not make anyone
// pay for an answer twice. The engine stops sending at once, keeps the answers it received in
// memory (and in a side file), retries the commit with backoff and says so through progress;
// a process killed meanwhile leaves the side file, which the next start stores first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { RequestEngine } from '../../src/main/queue/engine';
import type { RunProgress } from '../../src/main/queue/progress';
import { openDatabase, type Database } from '../../src/main/store/db';
import { explainStoreFault, StoreError } from '../../src/main/store/open-errors';
import { ensureRequests } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { bundleEntry } from './bundle';
import { FAST_RETRY, fixedKeys, openaiMock, tempDb, verdictSpec } from './helpers';
import { faultState, faultyDatabase } from './store-faults';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider({ latencyMs: [10, 40] });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.log.length = 0;
  mock.bodies.length = 0;
  mock.setBehavior({ respond: (req) => ({ winner: 'A', confidence: 0.5, reason: `ok ${req.lastUser}` }) });
});

const quiet = {
  info: () => {},
  warn: (m: string) => {
    if (process.env.R5_DEBUG) console.log('WARN', m);
  },
};

function engineOn(db: Database, n: number, concurrency = 8) {
  const providers = { mock: openaiMock(mock.url, { concurrency }) };
  const ids = ensureRequests(
    db,
    Array.from({ length: n }, (_, i) => ({ endpointId: endpointId(providers.mock), spec: verdictSpec(i) })),
  );
  const engine = new RequestEngine({
    db,
    providers,
    keys: fixedKeys('sk-test'),
    retry: FAST_RETRY,
    progressIntervalMs: 20,
    storeRetry: { baseMs: 20, maxMs: 100 },
    logger: quiet,
  });
  const progress: RunProgress[] = [];
  engine.on('progress', (p) => progress.push(p));
  return { engine, ids, jobs: ids.map((id) => ({ requestId: id, group: 'g' })), progress };
}

/** Sends per request, from the mock's own log. */
function sendsPerItem(): Map<number, number> {
  const sends = new Map<number, number>();
  for (const e of mock.log) {
    const item = Number(/item (\d+)\./.exec(e.lastUser ?? '')?.[1]);
    sends.set(item, (sends.get(item) ?? 0) + 1);
  }
  return sends;
}

/** Free room and file sizes (KiB) on a mounted disk, for a give-up message. */
function diskState(dir: string): string {
  const f = statfsSync(dir);
  const kib = (n: number) => `${Math.round(n / 1024)} KiB`;
  const files = readdirSync(dir).map((n) => `${n} ${kib(statSync(join(dir, n)).size)}`);
  return `free ${kib(f.bavail * f.bsize)}, ${files.join(', ')}`;
}

/**
 * The store fails for good as the mock sends its `n`th answer (`arm`: by default, the in-process
 * store's transactions): that answer, on the wire when the fault begins, reaches the engine after
 * it, so it is kept whatever the load. Armed at a commit instead, a loaded machine could store
 * every answer on the wire in that commit and fail only the next claim, with nothing to keep.
 */
function failAtAnswer(n: number, arm: () => void): void {
  let answered = 0;
  mock.setBehavior({
    respond: (req) => {
      if (++answered === n) arm();
      return { winner: 'A', confidence: 0.5, reason: `ok ${req.lastUser}` };
    },
  });
}

function statuses(db: Database): Record<string, number> {
  const rows = db.prepare('SELECT status, COUNT(*) AS n FROM requests GROUP BY status').all() as {
    status: string;
    n: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

describe('a store that cannot be written mid-run', () => {
  it('stops sending, keeps the answers, retries the commit and pays for no answer twice', async () => {
    const t = tempDb();
    try {
      const state = faultState();
      const db = faultyDatabase(t.db, state);
      const { engine, jobs, progress } = engineOn(db, 40);
      let armed = false;
      let sentAtFault = 0;
      engine.on('committed', () => {
        // A few answers in, the next 6 transactions (commits and claims) fail.
        if (armed || state.passed < 8) return;
        armed = true;
        state.fail = 6;
        sentAtFault = mock.log.length;
      });
      const s = await engine.run(jobs);
      expect(s).toMatchObject({ outcome: 'finished', overall: { total: 40, done: 40, failed: 0 } });
      expect(state.failed).toBe(6);
      // Each of the 40 was paid once: nothing received was dropped and asked again.
      expect(mock.log.length).toBe(40);
      expect([...sendsPerItem().values()].every((n) => n === 1)).toBe(true);
      expect(statuses(t.db)).toEqual({ done: 40 });
      // Nothing new went out while the store failed: only the calls already on the wire came back.
      const stalled = progress.filter((p) => p.storeProblem);
      expect(stalled.length).toBeGreaterThan(0);
      expect(stalled[0].storeProblem).toBe('store write failed: database or disk is full; retrying');
      expect(sentAtFault).toBeGreaterThan(0);
      expect(progress.at(-1)?.storeProblem ?? null).toBeNull();
      // Stored, so the side file is gone.
      expect(
        existsSync(join(t.dir, 'pending-answers')) ? readdirSync(join(t.dir, 'pending-answers')) : [],
      ).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('on a store that stays unwritable, stops with the error and the next start stores the kept answers', async () => {
    const t = tempDb();
    try {
      const state = faultState();
      const db = faultyDatabase(t.db, state);
      const { jobs } = engineOn(db, 30);
      const engine = new RequestEngine({
        db,
        providers: { mock: openaiMock(mock.url, { concurrency: 8 }) },
        keys: fixedKeys('sk-test'),
        retry: FAST_RETRY,
        progressIntervalMs: 20,
        storeRetry: { baseMs: 20, maxMs: 50, giveUpMs: 300 },
        logger: quiet,
      });
      failAtAnswer(7, () => (state.after = 0));
      await expect(engine.run(jobs)).rejects.toThrow(
        /^store write failed: database or disk is full; \d+ answers kept in .*pending-answers.*, stored at the next start$/,
      );
      const paidFirst = mock.log.length;
      const spilled = readdirSync(join(t.dir, 'pending-answers'));
      expect(spilled).toHaveLength(1);

      // The disk has room again: a new engine (the next start) stores them before sending.
      state.after = Infinity;
      const next = new RequestEngine({
        db: t.db,
        providers: { mock: openaiMock(mock.url, { concurrency: 8 }) },
        keys: fixedKeys('sk-test'),
        retry: FAST_RETRY,
        logger: quiet,
      });
      const s = await next.run(jobs);
      expect(s).toMatchObject({ outcome: 'finished', overall: { done: 30 } });
      expect(statuses(t.db)).toEqual({ done: 30 });
      // Re-paid: none. Every request was sent once in all.
      expect(mock.log.length).toBe(30);
      expect(mock.log.length - paidFirst).toBe(30 - s.overall.cacheHits);
      expect([...sendsPerItem().values()].every((n) => n === 1)).toBe(true);
      expect(readdirSync(join(t.dir, 'pending-answers'))).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  // The store fails at a claim, between answers: nothing waits to be stored and no row is in
  // flight, so the retry has no answers to commit and must prove the store by a write of its
  // own. Renewing the run's leases wrote nothing then (no row to renew): the full store was
  // called "written again", the stall cleared, the next claim failed at once, and so on every
  // retry, so the stall never aged to giveUpMs and the run never ended.
  it('a store that fails at a claim, with nothing waiting, stays stalled and stops after giveUpMs', async () => {
    const t = tempDb();
    const state = faultState();
    const db = faultyDatabase(t.db, state);
    const warnings: string[] = [];
    let recovered: (m: string) => void = () => {};
    const falseRecovery = new Promise<string>((res) => (recovered = res));
    const providers = { mock: openaiMock(mock.url, { concurrency: 1 }) };
    const ids = ensureRequests(
      db,
      Array.from({ length: 10 }, (_, i) => ({
        endpointId: endpointId(providers.mock),
        spec: verdictSpec(i),
      })),
    );
    const engine = new RequestEngine({
      db,
      providers,
      keys: fixedKeys('sk-test'),
      retry: FAST_RETRY,
      progressIntervalMs: 20,
      storeRetry: { baseMs: 5, maxMs: 20, giveUpMs: 300 },
      logger: {
        info: () => {},
        warn: (m) => {
          warnings.push(m);
          if (m.startsWith('the store is written again') && state.after === 0) recovered(m);
        },
      },
    });
    const progress: RunProgress[] = [];
    engine.on('progress', (p) => progress.push(p));
    // One call at a time: the answer of the 3rd is stored, then the claim of the 4th fails, and
    // every transaction after it.
    engine.on('committed', () => {
      if (mock.log.length === 3) state.after = 0;
    });
    try {
      const ended = engine.run(ids.map((id) => ({ requestId: id, group: 'g' }))).then(
        () => 'finished',
        (e: Error) => e.message,
      );
      expect(await Promise.race([ended, falseRecovery])).toBe('store write failed: database or disk is full');
      expect(warnings.filter((w) => w.startsWith('store write failed'))).toHaveLength(1);
      // From its first report to the end the problem is shown, never cleared in between.
      const first = progress.findIndex((p) => p.storeProblem);
      expect(first).toBeGreaterThanOrEqual(0);
      expect(progress.slice(first).every((p) => p.storeProblem)).toBe(true);
      expect(state.failed).toBeGreaterThan(1);
      expect(mock.log.length).toBe(3);
      expect(statuses(t.db)).toEqual({ done: 3, pending: 7 });
    } finally {
      await engine.cancel();
      t.cleanup();
    }
  });

  // Issue 40 item 9: Ctrl+C (the engine cancelled) while the store fails ends in the store's
  // error that the doors word (no stack trace), and the next start stores what was received.
  it('Ctrl+C while the store fails: a worded store error, and the kept answers stored at the next start, none re-paid', async () => {
    const t = tempDb();
    try {
      const state = faultState();
      const db = faultyDatabase(t.db, state);
      const { engine, jobs, progress } = engineOn(db, 30);
      failAtAnswer(7, () => (state.after = 0));
      const run = engine.run(jobs).then(
        () => null,
        (e: unknown) => e,
      );
      await expect.poll(() => progress.some((p) => p.storeProblem), { timeout: 30_000 }).toBe(true);
      await expect
        .poll(() => mock.log.length > 0 && mock.log.every((e) => e.endedAt !== undefined), {
          timeout: 30_000,
        })
        .toBe(true);
      const paidFirst = mock.log.length;
      await engine.cancel();
      const err = await run;
      const worded = explainStoreFault(err, t.file);
      expect(worded).toBeInstanceOf(StoreError);
      expect(worded!.message).toMatch(
        /^The disk holding .*judge-lab\.sqlite is full \(store write failed: database or disk is full; \d+ answers kept in .*pending-answers.*, stored at the next start\)/,
      );
      expect(readdirSync(join(t.dir, 'pending-answers'))).toHaveLength(1);

      state.after = Infinity;
      const next = new RequestEngine({
        db: t.db,
        providers: { mock: openaiMock(mock.url, { concurrency: 8 }) },
        keys: fixedKeys('sk-test'),
        retry: FAST_RETRY,
        logger: quiet,
      });
      const s = await next.run(jobs);
      expect(s).toMatchObject({ outcome: 'finished', overall: { done: 30 } });
      expect(statuses(t.db)).toEqual({ done: 30 });
      // Everything paid before the Ctrl+C was stored from the side file: only the rest was sent.
      expect(mock.log.length).toBe(30);
      expect(paidFirst).toBeGreaterThan(0);
      expect([...sendsPerItem().values()].every((n) => n === 1)).toBe(true);
    } finally {
      t.cleanup();
    }
  });

  // The room freed must hold the rest of the run however its answers fall into group commits:
  // the WAL is not checkpointed below 1,000 pages and each commit appends every page it touched,
  // so the 40 answers (~12 KB each with their JSON) stored one per commit grow it to ~1.7 MB,
  // stored 2-3 per commit to ~1 MB (measured). On the 1,600 KiB disk this test had, a run whose
  // answers came one per turn (an idle machine: more, smaller commits) filled the disk a second
  // time, which nobody freed: the engine kept its answer and retried, as it should, until the
  // test timed out. 4 MiB holds the one-per-commit case twice over.
  it('on a real full disk (a 4 MiB tmpfs) pays for no answer twice', async (ctx) => {
    const t = tempDb();
    const mnt = join(t.dir, 'tmpfs');
    mkdirSync(mnt);
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt], { encoding: 'utf8' });
    if (m.status !== 0) {
      t.cleanup();
      console.warn(`skipped: cannot mount a tmpfs here (${(m.stderr || m.error?.message || '').trim()})`);
      ctx.skip();
    }
    const db = openDatabase(join(mnt, 'judge-lab.sqlite'));
    let engine: RequestEngine | undefined;
    try {
      // Answers of some 6 KB each: 40 of them (and the WAL's copies) do not fit in what is left.
      mock.setBehavior({
        respond: (req) => ({ winner: 'A', confidence: 0.5, reason: `${req.lastUser} `.repeat(200) }),
      });
      const on = engineOn(db, 40);
      engine = on.engine;
      const { jobs, progress } = on;
      const free = statfsSync(mnt);
      const filler = join(mnt, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, free.bavail * free.bsize - 120 * 1024)));
      const run = engine.run(jobs);
      let ended = false;
      void run.then(
        () => (ended = true),
        () => (ended = true),
      );
      // Once the store reports the fault, make room (the person frees the disk).
      await expect.poll(() => progress.some((p) => p.storeProblem), { timeout: 30_000 }).toBe(true);
      rmSync(filler);
      // A give-up point, not a measurement: a run still going says what the disk holds (and the
      // finally below still unmounts), instead of the file's timeout leaving the mount behind.
      await expect
        .poll(() => (ended ? 'ended' : `still running: ${diskState(mnt)}; ${progress.at(-1)?.storeProblem}`))
        .toBe('ended');
      const s = await run;
      expect(s).toMatchObject({ outcome: 'finished', overall: { done: 40, failed: 0 } });
      expect(statuses(db)).toEqual({ done: 40 });
      expect(mock.log.length).toBe(40);
    } finally {
      await engine?.cancel();
      if (db.open) db.close();
      if (spawnSync('umount', [mnt]).status === 0) t.cleanup();
    }
  });

  it('SIGKILL while the store fails: re-paid after the resume ≤ calls on the wire at the kill', async () => {
    const t = tempDb();
    const child = join(t.dir, 'crash-child.mjs');
    await bundleEntry(join(import.meta.dirname, 'crash-child.ts'), child);
    try {
      const N = 60;
      const ids = ensureRequests(
        t.db,
        Array.from({ length: N }, (_, i) => ({
          endpointId: endpointId(openaiMock(mock.url)),
          spec: verdictSpec(i),
        })),
      );
      t.db.close();
      const jobsFile = join(t.dir, 'jobs.json');
      writeFileSync(jobsFile, JSON.stringify(ids.map((id) => ({ requestId: id, group: 'g' }))));
      // The first process's store fails for good once this file exists: from the mock's 10th answer.
      const failFlag = join(t.dir, 'store-fails');
      failAtAnswer(10, () => writeFileSync(failFlag, ''));
      const first = spawn(process.execPath, [child, t.file, mock.url, jobsFile, failFlag], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise((r) => first.on('exit', r));
      // It stops sending: wait until every call it sent is back (answers kept), then kill it.
      await expect
        .poll(() => mock.log.length > 0 && mock.log.every((e) => e.endedAt !== undefined), {
          timeout: 30_000,
        })
        .toBe(true);
      // The side file itself (the folder is there from the start: it holds the run's reserve).
      const sideFiles = () =>
        existsSync(join(t.dir, 'pending-answers'))
          ? readdirSync(join(t.dir, 'pending-answers')).filter((f) => f.endsWith('.jsonl'))
          : [];
      await expect.poll(() => sideFiles().length, { timeout: 10_000 }).toBe(1);
      const sentBeforeKill = mock.log.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(mock.log.length).toBe(sentBeforeKill);
      const onWireAtKill = mock.log.filter((e) => e.endedAt === undefined).length;
      first.kill('SIGKILL');
      await exited;

      // Not spawnSync: the mock answering it runs in this process.
      const second = spawn(process.execPath, [child, t.file, mock.url, jobsFile], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      second.stdout.on('data', (d: Buffer) => (out += d.toString()));
      second.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise((r) => second.on('exit', r));
      expect(code, err).toBe(0);
      expect(err).toMatch(/stored \d+ answers an earlier run received but could not write/);
      expect(JSON.parse(out)).toMatchObject({ outcome: 'finished', done: N });
      const db = openDatabase(t.file);
      expect(statuses(db)).toEqual({ done: N });
      db.close();
      const resent = [...sendsPerItem().values()].filter((n) => n > 1).length;
      expect(resent).toBeLessThanOrEqual(onWireAtKill);
      expect(mock.log.length).toBe(N + resent);
    } finally {
      t.cleanup();
    }
  });
});
