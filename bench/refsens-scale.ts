// Reference sensitivity at the paper's scale against the loopback mock: 2,000 questions
// (the bundled TyDi QA sample repeated with distinct ids and questions, en/ar/te), 4 generators,
// 3 judges, NR/RV/RC plus calibration: about 92,000 calls through the real core and engine.
// Reports, per phase (estimate, run, first results call), wall time, CPU-seconds (this process:
// core and engine; the mock provider answers from a child process) and peak RSS and heap, and
// the latency of the results API (metrics, tables) at the end.
// `npm run bench:refsens`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { useLaptopHeap } from '../src/main/base/heap';
import { Core } from '../src/main/facade/core';
import { EnvOnlyKeyStore } from '../src/main/providers/key-store';
import { fileURLToPath } from 'node:url';
import type { QaRecord } from '../test/mock-provider/refsens-responder';
import { readJsonl, runMockIfAsked, spawnMock } from './lib/mock-process';

if (!(await runMockIfAsked())) {
  const QUESTIONS = Number(process.env.REFSENS_QUESTIONS ?? 2000);
  const root = process.cwd();
  const base = readJsonl<QaRecord>(join(root, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl'));
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

  // The mock answers from a process of its own: the figures are the app's (core and engine), not the mock's.
  const mock = await spawnMock(fileURLToPath(import.meta.url), { refsensFile: file, latencyMs: [0, 2] });
  // As the CLI and the desktop app set it for their process (src/main/base/heap.ts).
  useLaptopHeap();
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

  // Peaks are sampled every 100 ms and at each phase's end; a phase's peak is the highest sample in it.
  const phases: { name: string; wallS: number; cpuS: number; rss: number; heap: number }[] = [];
  let phase = { rss: 0, heap: 0 };
  let snapped = !process.env.REFSENS_SNAPSHOT_MIB;
  const sample = () => {
    const m = process.memoryUsage();
    if (!snapped && m.heapUsed > Number(process.env.REFSENS_SNAPSHOT_MIB) * 2 ** 20) {
      snapped = true;
      console.log(`heap snapshot: ${v8.writeHeapSnapshot()}`);
    }
    phase.rss = Math.max(phase.rss, m.rss);
    phase.heap = Math.max(phase.heap, m.heapUsed);
  };
  const sampler = setInterval(sample, 100);
  const timed = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    phase = { rss: 0, heap: 0 };
    sample();
    const t = performance.now();
    const cpu = process.cpuUsage();
    const r = await f();
    const used = process.cpuUsage(cpu);
    sample();
    phases.push({
      name,
      wallS: (performance.now() - t) / 1000,
      cpuS: (used.user + used.system) / 1e6,
      ...phase,
    });
    return r;
  };
  const estimate = await timed('estimate', () => core.call('experiments.estimate', { config }));
  // REFSENS_ONLY_ESTIMATE=1 stops here: for profiling the estimate alone (BENCH_NODE_ARGS=--cpu-prof).
  if (process.env.REFSENS_ONLY_ESTIMATE) {
    console.log(`estimate: ${estimate.calls} calls`, phases);
    mock.close();
    core.close();
    process.exit(0);
  }
  const final = await timed('run', async () => {
    const { id } = await core.call('experiments.create', { config });
    return { id, progress: await core.experiments.runToEnd(id) };
  });
  const id = final.id;
  // The first call computes everything; the next ones find nothing changed and reuse it.
  await timed('first results call', () => core.call('experiments.results', { experimentId: id }));
  const latencies: number[] = [];
  let counts: unknown;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = await core.call('experiments.results', { experimentId: id });
    latencies.push(performance.now() - t);
    counts = r.counts;
  }
  clearInterval(sampler);
  await core.shutdown();
  mock.close();
  latencies.sort((a, b) => a - b);
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const [est, run, first] = phases;
  console.log(
    `questions ${QUESTIONS}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`estimate: ${estimate.calls} calls`);
  console.log(
    `run: ${final.progress.status} (${(estimate.calls / run.wallS).toFixed(0)} calls/s); counts ${JSON.stringify(counts)}`,
  );
  console.log('phase                wall s   CPU-s  peak RSS  peak heap');
  for (const p of phases)
    console.log(
      `${p.name.padEnd(20)} ${p.wallS.toFixed(2).padStart(6)}  ${p.cpuS.toFixed(2).padStart(6)}  ${mib(p.rss).padStart(8)}  ${mib(p.heap).padStart(9)}`,
    );
  const all = process.resourceUsage();
  console.log(
    `whole process: ${((all.userCPUTime + all.systemCPUTime) / 1e6).toFixed(1)} CPU-s, peak RSS ${mib(all.maxRSS * 1024)} (kernel's maxRSS)`,
  );
  console.log(
    `results API (metrics + tables): first call ${(first.wallS * 1000).toFixed(0)} ms; then (nothing changed) median ${latencies[2].toFixed(0)} ms, max ${latencies[4].toFixed(0)} ms; estimate ${(est.wallS * 1000).toFixed(0)} ms`,
  );
}
