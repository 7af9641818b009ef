// Queue benchmark (figures, not a test): `node bench/run.mjs queue [a|b]`.
// (a) a mock enforcing 600 RPM with 200–800 ms latency: achieved share of the limit, 429 share, calls lost.
// (b) an instant mock without limits, 20,000 calls: calls/s through ledger + scheduler + SDK, and RSS.
// The mock runs in its own process so the figures are the engine's, not the mock's.
// Env: BENCH_A_CALLS (default 900, ~90 s), BENCH_B_CALLS (default 20000).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointId, type ProviderConfig } from '../src/main/providers/config';
import { RequestEngine } from '../src/main/queue/engine';
import { openDatabase } from '../src/main/store/db';
import { countByStatus, ensureRequests } from '../src/main/store/ledger';
import type { ChatRequestSpec } from '../src/main/providers/types';
import { startMockProvider, type MockBehavior } from '../test/mock-provider/server';

const VERDICT = {
  name: 'pairwise_verdict',
  schema: {
    type: 'object',
    properties: {
      winner: { type: 'string', enum: ['A', 'B', 'tie'] },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      reason: { type: 'string' },
    },
    required: ['winner', 'confidence', 'reason'],
    additionalProperties: false,
  },
};

function spec(i: number, run: string): ChatRequestSpec {
  return {
    provider: 'mock',
    model: 'mock-model',
    system: 'You are a careful judge. Compare two answers to the instruction and pick the better one.',
    messages: [
      {
        role: 'user',
        content: `[${run}] Instruction #${i}: which output follows it better?\nA: ...\nB: ...`,
      },
    ],
    temperature: 0,
    maxOutputTokens: 100,
    response: VERDICT,
  };
}

interface MockHandle {
  url: string;
  stats(): Promise<{ total: number; byStatus: Record<string, number> }>;
  close(): void;
}

/** The mock in a child process (this same file, run with "mock <behavior json>"). */
async function spawnMock(behavior: Partial<MockBehavior>): Promise<MockHandle> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [self, 'mock', JSON.stringify(behavior)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const w = waiters.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  const next = () => new Promise<string>((res) => (lines.length ? res(lines.shift()!) : waiters.push(res)));
  const url = await next();
  return {
    url,
    async stats() {
      child.stdin.write('stats\n');
      return JSON.parse(await next()) as { total: number; byStatus: Record<string, number> };
    },
    close: () => child.kill(),
  };
}

async function mockMain(behaviorJson: string) {
  const mock = await startMockProvider({
    ...(JSON.parse(behaviorJson) as Partial<MockBehavior>),
    logBodies: false,
  });
  process.stdout.write(`${mock.url}\n`);
  process.stdin.on('data', () => {
    process.stdout.write(
      `${JSON.stringify({ total: mock.log.length, byStatus: mock.countBy((e) => String(e.status)) })}\n`,
    );
  });
}

function freshDb() {
  const dir = mkdtempSync(join(tmpdir(), 'judge-lab-bench-db-'));
  const db = openDatabase(join(dir, 'judge-lab.sqlite'));
  return { db, done: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

async function benchA() {
  const calls = Number(process.env.BENCH_A_CALLS ?? 900);
  const limit = 600;
  // The mock holds 3 s of budget (providers enforce well below a minute); the engine's own bucket holds 2 s.
  const mock = await spawnMock({ rpm: limit, burstSeconds: 3, latencyMs: [200, 800] });
  const { db, done } = freshDb();
  const cfg: ProviderConfig = {
    kind: 'openai',
    baseURL: `${mock.url}/v1`,
    rpm: limit,
    concurrency: 32,
    timeoutMs: 10_000,
  };
  const ids = ensureRequests(
    db,
    Array.from({ length: calls }, (_, i) => ({
      endpointId: endpointId(cfg),
      spec: spec(i, `a${Date.now()}`),
    })),
  );
  const engine = new RequestEngine({ db, providers: { mock: cfg }, keys: { get: () => 'bench' } });
  const t0 = Date.now();
  const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'a' })));
  const seconds = (Date.now() - t0) / 1000;
  const stats = await mock.stats();
  const ok = stats.byStatus['200'] ?? 0;
  const limited = stats.byStatus['429'] ?? 0;
  const counts = countByStatus(db);
  // The engine's bucket starts with 2 s of budget (20 calls) that the rate does not include.
  const steadyRate = ((ok - (limit / 60) * 2) / seconds) * 60;
  console.log(
    `(a) ${calls} calls against a ${limit} RPM mock, 200–800 ms latency, in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `    achieved ${((ok / seconds) * 60).toFixed(0)} calls/min = ${(((ok / seconds) * 60) / limit).toFixed(3)} of the limit (steady state, initial burst excluded: ${(steadyRate / limit).toFixed(3)})`,
  );
  console.log(
    `    answered 429: ${limited} of ${stats.total} = ${((limited / stats.total) * 100).toFixed(2)}%`,
  );
  console.log(
    `    lost (neither done nor failed): ${counts.pending + counts.in_flight}; done ${counts.done}, failed ${counts.failed}; outcome ${s.outcome}`,
  );
  mock.close();
  done();
}

async function benchB() {
  const calls = Number(process.env.BENCH_B_CALLS ?? 20_000);
  const mock = await spawnMock({});
  const { db, done } = freshDb();
  const cfg: ProviderConfig = {
    kind: 'openai',
    baseURL: `${mock.url}/v1`,
    concurrency: 64,
    timeoutMs: 30_000,
  };
  const tPlan = Date.now();
  const ids = ensureRequests(
    db,
    Array.from({ length: calls }, (_, i) => ({
      endpointId: endpointId(cfg),
      spec: spec(i, `b${Date.now()}`),
    })),
  );
  const planMs = Date.now() - tPlan;
  const engine = new RequestEngine({ db, providers: { mock: cfg }, keys: { get: () => 'bench' } });
  let maxRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 100);
  const t0 = Date.now();
  const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'b' })));
  const seconds = (Date.now() - t0) / 1000;
  clearInterval(sampler);
  maxRss = Math.max(maxRss, process.memoryUsage().rss);
  const counts = countByStatus(db);
  console.log(`(b) ${calls} calls, instant mock, no limits, concurrency 64`);
  console.log(`    planned (ensureRequests) in ${planMs} ms`);
  console.log(
    `    ran in ${seconds.toFixed(2)} s = ${(calls / seconds).toFixed(0)} calls/s end to end (ledger + scheduler + SDK)`,
  );
  console.log(`    max main-process RSS ${(maxRss / 1024 / 1024).toFixed(0)} MB`);
  console.log(
    `    done ${counts.done}, failed ${counts.failed}, lost ${counts.pending + counts.in_flight}; outcome ${s.outcome}`,
  );
  mock.close();
  done();
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'mock') await mockMain(arg);
else {
  if (!mode || mode === 'b') await benchB();
  if (!mode || mode === 'a') await benchA();
}
