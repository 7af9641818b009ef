// Queue benchmark (figures, not a test): `node bench/run.mjs queue [a|b|c]`.
// (a) a mock enforcing 600 RPM with 200–800 ms latency: achieved share of the limit, 429 share, calls lost.
// (b) an instant mock without limits, 20,000 calls: calls/s through ledger + scheduler + SDK, and RSS.
// (c) pipelining: `judge-lab run` of Judge-LS on 100 LLMBar items, one judge, against a mock at
//     1,200 RPM per model and ~300 ms latency: wall time against the busiest lane's bound, and the
//     estimate the CLI printed before the run (the wizard's pipelined figure) against the wall time.
//     Needs `npm run build` (it runs the real CLI).
// The mock runs in its own process so the figures are the engine's, not the mock's.
// Env: BENCH_A_CALLS (default 900, ~90 s), BENCH_B_CALLS (default 20000), BENCH_C_ITEMS (default 100),
// BENCH_B_ADAPTER=none ((b) without SDK and HTTP: the engine's own cost).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointId, type ProviderConfig } from '../src/main/providers/config';
import { RequestEngine } from '../src/main/queue/engine';
import { openDatabase } from '../src/main/store/db';
import { countByStatus, ensureRequests } from '../src/main/store/ledger';
import type { ChatAdapter, ChatRequestSpec } from '../src/main/providers/types';
import { runCliStudy } from './lib/cli-study';
import { runMockIfAsked, spawnMock as spawnMockAt } from './lib/mock-process';

const spawnMock = (behavior: Parameters<typeof spawnMockAt>[1]) =>
  spawnMockAt(fileURLToPath(import.meta.url), behavior);

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

// Case (b) prompts of about this many characters (default: the short ones above; a Judge-LS
// prompt with an LLMBar item is some 2,000–4,000), to see what the engine keeps per call.
const PAD = ' lorem ipsum dolor sit amet'.repeat(
  Math.ceil(Number(process.env.BENCH_B_PROMPT_CHARS ?? 0) / 27),
);

function spec(i: number, run: string): ChatRequestSpec {
  return {
    provider: 'mock',
    model: 'mock-model',
    system: 'You are a careful judge. Compare two answers to the instruction and pick the better one.',
    messages: [
      {
        role: 'user',
        content: `[${run}] Instruction #${i}: which output follows it better?\nA: ...\nB: ...${PAD}`,
      },
    ],
    temperature: 0,
    maxOutputTokens: 100,
    response: VERDICT,
  };
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

const VERDICT_ANSWER = { winner: 'A', confidence: 0.5, reason: 'bench' };
const instantAdapter = {
  async send() {
    await new Promise((r) => setImmediate(r));
    return {
      result: {
        text: JSON.stringify(VERDICT_ANSWER),
        json: VERDICT_ANSWER,
        usage: { inputTokens: 60, outputTokens: 20, cachedInputTokens: 0 },
      },
      headers: new Headers(),
    };
  },
} as unknown as ChatAdapter;

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
  // Planned 1,000 requests at a time: V8 sizes its heap for the run from what is alive at its
  // last full collection, so 20,000 specs held at once while planning (60 MB with 3,000-char
  // prompts) would raise the run's peak RSS by some 150 MB that is not the engine's.
  const run = `b${Date.now()}`;
  const ids: number[] = [];
  for (let from = 0; from < calls; from += 1000)
    ids.push(
      ...ensureRequests(
        db,
        Array.from({ length: Math.min(1000, calls - from) }, (_, i) => ({
          endpointId: endpointId(cfg),
          spec: spec(from + i, run),
        })),
      ),
    );
  const planMs = Date.now() - tPlan;
  // BENCH_B_ADAPTER=none: an in-process adapter that answers on the next turn, so the figures
  // are the engine's own (ledger with commit on receipt + scheduler), without SDK and HTTP.
  const bare = process.env.BENCH_B_ADAPTER === 'none';
  const engine = new RequestEngine({
    db,
    providers: { mock: cfg },
    keys: { get: () => 'bench' },
    ...(bare ? { createAdapter: () => instantAdapter } : {}),
  });
  // memoryUsage.rss() reads one figure; memoryUsage() walks the heap spaces (3 % of the run's CPU).
  let maxRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage.rss())), 100);
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  const s = await engine.run(ids.map((id) => ({ requestId: id, group: 'b' })));
  const seconds = (Date.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  clearInterval(sampler);
  maxRss = Math.max(maxRss, process.memoryUsage.rss());
  const counts = countByStatus(db);
  console.log(
    `(b) ${calls} calls, ${bare ? 'in-process instant adapter (no SDK, no HTTP)' : 'instant mock'}, no limits, concurrency 64`,
  );
  console.log(`    planned (ensureRequests) in ${planMs} ms`);
  const rate = calls / seconds;
  const mb = maxRss / 1024 / 1024;
  console.log(
    `    ran in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} calls/s end to end (ledger + scheduler${bare ? '' : ' + SDK'}; target ≥ 3,000: ${rate >= 3000 ? 'met' : 'MISSED'}), every answer committed before it counts`,
  );
  // CPU time tells the engine's own cost apart from a machine shared with other work.
  const mockCpu = bare ? 0 : (await mock.stats()).cpuSeconds;
  console.log(
    `    main-process CPU ${cpuSeconds.toFixed(2)} s = ${(calls / cpuSeconds).toFixed(0)} calls per CPU-second${bare ? '' : ` (the mock's process: ${mockCpu.toFixed(2)} s)`}; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
  );
  console.log(
    `    max main-process RSS ${mb.toFixed(0)} MB (target < 250 MB: ${mb < 250 ? 'met' : 'MISSED'})`,
  );
  console.log(
    `    done ${counts.done}, failed ${counts.failed}, lost ${counts.pending + counts.in_flight}; outcome ${s.outcome}`,
  );
  mock.close();
  done();
}

/** (c) The Judge-LS study of issue 14 through the real CLI: is wall time near the busiest lane? */
async function benchC() {
  const items = Number(process.env.BENCH_C_ITEMS ?? 100);
  const rpm = 1200;
  const f = await runCliStudy(fileURLToPath(import.meta.url), {
    items,
    judges: ['claude-haiku-4-5'],
    rpm,
    latencyMs: [250, 350],
  });
  const { stats, trafficS: traffic, boundS: bound, busiest } = f;
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `(c) Judge-LS, ${items} items, one judge, mock at ${rpm} RPM per model, 250–350 ms latency (exit ${f.code})`,
  );
  console.log(
    `    calls per model: ${Object.entries(stats.byModel)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ')}; 429s ${stats.byStatus['429'] ?? 0} of ${stats.total}`,
  );
  console.log(`    busiest lane's bound: ${busiest} calls at ${rpm} RPM = ${bound.toFixed(1)} s`);
  console.log(
    `    first request to last answer: ${traffic.toFixed(1)} s = ${(traffic / bound).toFixed(2)}× the bound (target ≤ 1.10×: ${mark(traffic <= 1.1 * bound)})`,
  );
  // The plan's "~40s at the configured rate limits" is read off the CLI's stderr.
  const est = /~(\d+(?:\.\d+)?)(s|m|h) at the configured rate limits/.exec(f.stderr);
  const estimated = est ? Number(est[1]) * { s: 1, m: 60, h: 3600 }[est[2] as 's' | 'm' | 'h'] : NaN;
  console.log(
    `    estimate before the run (the wizard's figure, pipelined): ${estimated} s = ${(estimated / traffic).toFixed(2)}× first request to last answer (target within 15 %: ${mark(Math.abs(estimated - traffic) <= 0.15 * traffic)})`,
  );
  console.log(
    `    whole command (start and export included): ${f.wallS.toFixed(1)} s (target ≤ bound + 5 s = ${(bound + 5).toFixed(1)} s: ${mark(f.wallS <= bound + 5)})`,
  );
  console.log(
    `      of which start to first request ${f.startToFirstS.toFixed(1)} s, last answer to exit (export) ${f.lastAnswerToExitS.toFixed(1)} s; command CPU ${f.cpuS.toFixed(1)} s, peak RSS ${f.rssMiB.toFixed(0)} MiB; load average ${f.load[1].toFixed(1)} on ${availableParallelism()} cores`,
  );
}

const mode = process.argv[2];
if (!(await runMockIfAsked())) {
  if (!mode || mode === 'b') await benchB();
  if (!mode || mode === 'a') await benchA();
  if (!mode || mode === 'c') await benchC();
}
