// Two processes must never run one experiment (issue 22 item 3). Many processes start at the
// same instant and race for the same locks, fresh and left stale by a dead process: for every
// experiment exactly one wins, and its lock file names it.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveRuns, RunLocks } from '../../src/main/store/run-locks';
import { bundleEntry } from '../queue/bundle';
import { tempDir } from '../helpers/tmp';

const CHILDREN = 8;
const EXPERIMENTS = 150;

let root: string;
let cleanup: () => void;
let childFile: string;
beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir());
  childFile = join(root, 'run-locks-child.mjs');
  await bundleEntry(join(import.meta.dirname, 'run-locks-child.ts'), childFile);
});
afterAll(() => cleanup());

interface Report {
  pid: number;
  won: number[];
  refused: string[];
}

/** Starts the children, waits until each is ready, then lets them all go at once. */
async function race(dataDir: string): Promise<{ reports: Report[]; stop: () => Promise<void> }> {
  const go = join(dataDir, 'go');
  const stop = join(dataDir, 'stop');
  const children = Array.from({ length: CHILDREN }, () =>
    spawn(process.execPath, [childFile, dataDir, go, stop, '1', String(EXPERIMENTS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const lines = children.map((c) => {
    let out = '';
    const ready = new Promise<void>((r) =>
      c.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready\n')) r();
      }),
    );
    const report = new Promise<Report>((resolve, reject) => {
      c.on('exit', (code) => (code === 0 ? null : reject(new Error(`child exited ${code}`))));
      c.stdout.on('data', () => {
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as Report);
      });
    });
    const exited = new Promise<void>((r) => c.on('exit', () => r()));
    return { ready, report, exited };
  });
  await Promise.all(lines.map((l) => l.ready));
  writeFileSync(go, '');
  const reports = await Promise.all(lines.map((l) => l.report));
  return {
    reports,
    stop: async () => {
      writeFileSync(stop, '');
      await Promise.all(lines.map((l) => l.exited));
    },
  };
}

function expectOneWinnerEach(dataDir: string, reports: Report[]): void {
  for (let id = 1; id <= EXPERIMENTS; id++) {
    const winners = reports.filter((r) => r.won.includes(id)).map((r) => r.pid);
    expect(winners, `experiment ${id}`).toHaveLength(1);
    const owner = readFileSync(join(dataDir, 'locks', `experiment-${id}.pid`), 'utf8').split(/\s/)[0];
    expect(Number(owner), `experiment ${id}'s lock file`).toBe(winners[0]);
  }
  for (const r of reports)
    for (const m of r.refused) expect(m).toMatch(/running in another process \(pid \d+\)/);
}

describe('run locks across processes', () => {
  it(`${CHILDREN} processes starting at once: exactly one takes each experiment`, async () => {
    const dataDir = join(root, 'fresh');
    mkdirSync(dataDir);
    const { reports, stop } = await race(dataDir);
    try {
      expectOneWinnerEach(dataDir, reports);
      expect(liveRuns(dataDir)).toHaveLength(EXPERIMENTS);
    } finally {
      await stop();
    }
    // Their owners are gone: the locks are stale, and this process takes them over.
    expect(liveRuns(dataDir)).toEqual([]);
    const locks = new RunLocks(dataDir);
    locks.acquire(1);
    expect(liveRuns(dataDir)).toEqual([{ experimentId: 1, pid: process.pid }]);
    locks.release(1);
    expect(liveRuns(dataDir)).toEqual([]);
  });

  it(`${CHILDREN} processes taking over locks a dead process left: exactly one takes each`, async () => {
    const dataDir = join(root, 'stale');
    mkdirSync(join(dataDir, 'locks'), { recursive: true });
    // A pid that was alive and is not any more.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(dead.stdout);
    for (let id = 1; id <= EXPERIMENTS; id++) {
      // Half in today's format, half as releases before the token wrote them.
      const content = id % 2 ? `${deadPid} 0123456789abcdef01234567\n` : String(deadPid);
      writeFileSync(join(dataDir, 'locks', `experiment-${id}.pid`), content);
    }
    const { reports, stop } = await race(dataDir);
    try {
      expectOneWinnerEach(dataDir, reports);
    } finally {
      await stop();
    }
  });
});

describe('run locks in one process', () => {
  it('holds nest: the lock goes with the last holder', () => {
    const { dir, cleanup: done } = tempDir();
    try {
      const a = new RunLocks(dir);
      a.acquire(7);
      a.acquire(7);
      a.release(7);
      expect(liveRuns(dir)).toEqual([{ experimentId: 7, pid: process.pid }]);
      a.release(7);
      expect(liveRuns(dir)).toEqual([]);
    } finally {
      done();
    }
  });

  it('a lock naming this pid that this process does not hold is stale (pid reused)', () => {
    const { dir, cleanup: done } = tempDir();
    try {
      mkdirSync(join(dir, 'locks'));
      writeFileSync(join(dir, 'locks', 'experiment-3.pid'), `${process.pid} feedfacefeedfacefeedface\n`);
      expect(liveRuns(dir)).toEqual([]);
      const locks = new RunLocks(dir);
      locks.acquire(3);
      expect(readFileSync(join(dir, 'locks', 'experiment-3.pid'), 'utf8')).not.toContain('feedface');
      locks.release(3);
    } finally {
      done();
    }
  });
});
