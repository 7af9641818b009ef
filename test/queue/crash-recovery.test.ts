import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { openDatabase } from '../../src/main/store/db';
import { ensureRequests } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { bundleEntry } from './bundle';
import { openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

const N = 300;
let mock: MockProvider;
let t: TempDb;
let childFile: string;

beforeAll(async () => {
  mock = await startMockProvider({ latencyMs: [20, 60] });
  t = tempDb();
  childFile = join(t.dir, 'crash-child.mjs');
  await bundleEntry(join(import.meta.dirname, 'crash-child.ts'), childFile);
});
afterAll(async () => {
  await mock.close();
  t.cleanup();
});

function runChild(args: string[]) {
  const child = spawn(process.execPath, [childFile, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => out, errors: () => err };
}

describe('crash recovery', () => {
  it('after SIGKILL mid-run and a resume, every request ends once; only calls on the wire at the kill are paid again', async () => {
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
    const args = [t.file, mock.url, jobsFile];

    const first = runChild(args);
    let exitedEarly = false;
    void first.exited.then(() => (exitedEarly = true));
    const until = async (cond: () => boolean) => {
      while (!cond() && !exitedEarly) await new Promise((r) => setImmediate(r));
    };
    await until(() => mock.log.length >= 100);
    // Kill right after an answer arrived: hold the answers until every slot is on the wire,
    // let one go, and kill as soon as the child has sent the call that replaces it (it sends
    // one only after handling an answer). An answer kept in memory instead of written at once
    // is lost with the process and paid for again.
    mock.hold();
    await until(() => mock.heldCount() === 8);
    const beforeRelease = mock.log.length;
    mock.releaseHeld(1);
    await until(() => mock.log.length > beforeRelease);
    expect(exitedEarly).toBe(false);
    first.child.kill('SIGKILL');
    const killedAt = mock.log.length;
    const onWireAtKill = mock.log.filter((e) => e.endedAt === undefined).length;
    expect((await first.exited).signal).toBe('SIGKILL');
    mock.stopHolding();
    expect(first.errors()).toBe('');

    // What the ledger says survived the kill.
    const db = openDatabase(t.file);
    const status = new Map(
      (db.prepare('SELECT id, status FROM requests').all() as { id: number; status: string }[]).map((r) => [
        r.id,
        r.status,
      ]),
    );
    db.close();
    const inFlightAtKill = new Set([...status].filter(([, s]) => s === 'in_flight').map(([id]) => id));
    const doneAtKill = [...status].filter(([, s]) => s === 'done').length;
    expect(doneAtKill).toBeGreaterThan(50);
    expect(doneAtKill).toBeLessThan(N);
    const sentBeforeResume = mock.log.length;

    const second = runChild(args);
    const exit = await second.exited;
    expect(second.errors()).toBe('');
    expect(exit.code).toBe(0);
    const result = JSON.parse(second.output()) as {
      recovered: number;
      outcome: string;
      done: number;
      cacheHits: number;
    };
    expect(result).toMatchObject({
      recovered: inFlightAtKill.size,
      outcome: 'finished',
      done: N,
      cacheHits: doneAtKill,
    });

    const final = openDatabase(t.file);
    const rows = final.prepare('SELECT id, status, response_json FROM requests').all() as {
      id: number;
      status: string;
      response_json: string | null;
    }[];
    final.close();
    expect(rows.every((r) => r.status === 'done' && r.response_json)).toBe(true);

    // Count sends per request from the mock's own log.
    const sends = new Map<number, number>();
    for (const e of mock.log) {
      const item = Number(/item (\d+)\./.exec(e.lastUser ?? '')?.[1]);
      sends.set(ids[item], (sends.get(ids[item]) ?? 0) + 1);
    }
    expect(sends.size).toBe(N);
    const resent = [...sends].filter(([, n]) => n > 1).map(([id]) => id);
    expect(Math.max(...sends.values())).toBeLessThanOrEqual(2);
    expect(inFlightAtKill.size).toBeGreaterThan(0);
    expect(resent.length).toBeGreaterThan(0);
    for (const id of resent) expect(inFlightAtKill.has(id)).toBe(true);
    expect(mock.log.length).toBe(N + resent.length);
    expect(mock.log.length - sentBeforeResume).toBe(N - doneAtKill);
    // Paid again after the kill: no more than the calls that were on the wire at the kill.
    expect(sentBeforeResume).toBe(killedAt);
    expect(onWireAtKill).toBe(8);
    expect(resent.length).toBeLessThanOrEqual(onWireAtKill);
  });
});
