// Batch benchmark (figures, not a test): `npm run bench:batch` (node bench/run.mjs batch).
// 20,000 requests through each provider's Batch API (mock endpoints in a child process):
// time and memory of upload (submit), polling and ingest (results read, parsed, validated,
// stored). Env: BENCH_BATCH_CALLS (default 20000), BENCH_BATCH_TURNAROUND_MS (default 3000).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointId, type ProviderConfig } from '../src/main/providers/config';
import type { ChatRequestSpec } from '../src/main/providers/types';
import { BatchExecutor } from '../src/main/queue/batch/executor';
import { openDatabase } from '../src/main/store/db';
import { countByStatus, ensureRequests } from '../src/main/store/ledger';
import { startMockProvider } from '../test/mock-provider/server';

const CALLS = Number(process.env.BENCH_BATCH_CALLS ?? 20_000);
const TURNAROUND = Number(process.env.BENCH_BATCH_TURNAROUND_MS ?? 3000);

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

function spec(i: number, provider: string, model: string): ChatRequestSpec {
  return {
    provider,
    model,
    system: 'You are a careful judge. Compare two answers to the instruction and pick the better one.',
    messages: [
      {
        role: 'user',
        content: `Instruction #${i}: which output follows it better?\nA: ${'an answer '.repeat(40)}\nB: ${'another answer '.repeat(40)}`,
      },
    ],
    temperature: 0,
    maxOutputTokens: 100,
    response: VERDICT,
  };
}

async function spawnMock(): Promise<{ url: string; close(): void }> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [self, 'mock'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((res) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const i = buf.indexOf('\n');
      if (i >= 0) res(buf.slice(0, i));
    });
  });
  return { url, close: () => child.kill() };
}

async function mockMain(): Promise<void> {
  const mock = await startMockProvider({
    logBodies: false,
    batchTurnaroundMs: TURNAROUND,
    respond: () => ({ winner: 'A', confidence: 0.8, reason: 'follows the instruction' }),
  });
  process.stdout.write(`${mock.url}\n`);
  process.stdin.on('end', () => void mock.close().then(() => process.exit(0)));
  process.stdin.resume();
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function benchOne(kind: 'openai' | 'anthropic', url: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'judge-lab-bench-batch-'));
  const db = openDatabase(join(dir, 'store.sqlite'));
  try {
    const cfg: ProviderConfig = {
      kind,
      baseURL: kind === 'openai' ? `${url}/v1` : url,
      mode: 'batch',
      batchPollSeconds: 0.5,
      timeoutMs: 600_000,
    };
    const model = kind === 'openai' ? 'gpt-4.1-mini' : 'claude-haiku-4-5';
    const ids = ensureRequests(
      db,
      Array.from({ length: CALLS }, (_, i) => ({ endpointId: endpointId(cfg), spec: spec(i, 'p', model) })),
    );
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const rssBefore = process.memoryUsage().rss;
    const ex = new BatchExecutor({ db, providers: { p: cfg }, keys: { get: () => 'sk-bench' } });
    const t0 = performance.now();
    const summary = await ex.run(ids.map((id) => ({ requestId: id, group: 'judge', provider: 'p' })));
    const wall = performance.now() - t0;
    clearInterval(sampler);
    const counts = countByStatus(db);
    const s = ex.stats;
    console.log(
      `${kind}: ${CALLS} requests, ${summary.outcome}; done ${counts.done}, failed ${counts.failed}`,
    );
    console.log(
      `  upload (JSONL/requests → create): ${(s.submitMs / 1000).toFixed(2)} s for ${s.submitted} requests`,
    );
    console.log(
      `  polling: ${s.polls} polls, ${(s.pollMs / 1000).toFixed(2)} s on the wire (turnaround ${TURNAROUND / 1000} s)`,
    );
    console.log(
      `  ingest (results → parsed → ledger): ${(s.ingestMs / 1000).toFixed(2)} s for ${s.ingested} entries = ${Math.round(s.ingested / (s.ingestMs / 1000))} entries/s`,
    );
    console.log(
      `  wall ${(wall / 1000).toFixed(2)} s; RSS ${mb(rssBefore)} before, peak ${mb(peak)}; store ${db.prepare('PRAGMA page_count').pluck().get() as number} pages`,
    );
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [mode] = process.argv.slice(2);
if (mode === 'mock') await mockMain();
else {
  const mock = await spawnMock();
  try {
    await benchOne('openai', mock.url);
    await benchOne('anthropic', mock.url);
  } finally {
    mock.close();
  }
}
