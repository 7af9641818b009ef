// Reference sensitivity at the paper's scale against the loopback mock: 2,000 questions
// (the bundled TyDi QA sample repeated with distinct ids and questions, en/ar/te), 4 generators,
// 3 judges, NR/RV/RC plus calibration: about 92,000 calls through the real core and engine.
// Reports wall time, peak RSS and the latency of the results API (metrics, tables) at the end.
// `npm run bench:refsens`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Core } from '../src/main/facade/core';
import { EnvOnlyKeyStore } from '../src/main/providers/key-store';
import { refSensResponder, type QaRecord } from '../test/mock-provider/refsens-responder';
import { startMockProvider } from '../test/mock-provider/server';

const QUESTIONS = Number(process.env.REFSENS_QUESTIONS ?? 2000);
const root = process.cwd();
const base = readFileSync(join(root, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as QaRecord);
const items: QaRecord[] = Array.from({ length: QUESTIONS }, (_, k) => {
  const b = base[k % base.length];
  const round = Math.floor(k / base.length);
  return round === 0 ? b : { ...b, id: `${b.id}#${round}`, question: `${b.question} (${round})` };
});
const work = mkdtempSync(join(tmpdir(), 'judge-lab-refsens-'));
// Kept after the run, for `node bench/run.mjs refsens-profile <folder>/data`.
console.log(`data in ${work}`);
const file = join(work, 'qa.jsonl');
writeFileSync(file, items.map((i) => JSON.stringify(i)).join('\n') + '\n');

const responder = refSensResponder(items);
const mock = await startMockProvider({ respond: responder.respond, latencyMs: [0, 2], logBodies: false });
const core = new Core({
  dataDir: join(work, 'data'),
  door: 'cli',
  keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-mock', MOCK_ANTHROPIC_KEY: 'sk-ant-mock' }),
  engine: { progressIntervalMs: 1000 },
});
const providers = {
  openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 32 },
  anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 32 },
};
const config = {
  name: 'refsens-scale',
  protocol: 'reference-sensitivity',
  dataset: file,
  seed: 1,
  providers,
  generators: [0, 1, 2, 3].map((g) => ({
    label: `gen-${g}`,
    provider: g % 2 ? 'anthropic' : 'openai',
    model: `gen-model-${g}`,
  })),
  judges: [0, 1, 2].map((j) => ({
    label: `judge-${j}`,
    provider: j % 2 ? 'anthropic' : 'openai',
    model: `judge-model-${j}`,
  })),
};

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 250);
const tEst = Date.now();
const estimate = await core.call('experiments.estimate', { config });
const estMs = Date.now() - tEst;
const t0 = Date.now();
const { id } = await core.call('experiments.create', { config });
const final = await core.experiments.runToEnd(id);
const runS = (Date.now() - t0) / 1000;
// The first call computes everything; the next ones find nothing changed and reuse it.
const tFirst = performance.now();
await core.call('experiments.results', { experimentId: id });
const firstMs = performance.now() - tFirst;
const latencies: number[] = [];
let counts: unknown;
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const r = await core.call('experiments.results', { experimentId: id });
  latencies.push(performance.now() - t);
  counts = r.counts;
}
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await core.shutdown();
await mock.close();
latencies.sort((a, b) => a - b);
console.log(`questions ${QUESTIONS}; estimate: ${estimate.calls} calls in ${estMs} ms`);
console.log(
  `run: ${final.status} in ${runS.toFixed(1)} s (${(estimate.calls / runS).toFixed(0)} calls/s); counts ${JSON.stringify(counts)}`,
);
console.log(`peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
console.log(
  `results API (metrics + tables): first call ${firstMs.toFixed(0)} ms; then (nothing changed) median ${latencies[2].toFixed(0)} ms, max ${latencies[4].toFixed(0)} ms`,
);
