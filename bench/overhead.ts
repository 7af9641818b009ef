// What a run costs besides the provider (issue 27), figures not a test: `npm run bench:overhead [-- study]`.
// Default: the Judge-LS study of 100 LLMBar items, one judge, at 1,200 RPM per model and
// ~300 ms latency. `study`: 419 items × 3 judges at 3,000 RPM per model (20–80 ms latency).
// `position`: bias probes' position probe, 419 LLMBar pairs in both orders (838 calls), one
// judge, 3,000 RPM, ~300 ms latency (issue 39's side-by-side study).
// Prints start → first request, last answer → exit, command wall / the busiest lane's bound,
// the command's CPU-seconds and peak RSS. Needs `npm run build`. `--floor` then sends the same calls from a bare client through the app's provider adapters
// (lib/floor.ts, `npm run bench:floor`) and prints what the engine adds to them, also as a
// multiple of the calls' own cost: two figures of the same minutes, where CPU-seconds of
// different days do not compare (the machine's speed varies).
// REF_DIR and REF_CMD (optional): the published reference script's checkout and the command that
// runs it (lib/reference-run.ts: `{data}`, `{base_url}`, `{model}`, `{out}` are replaced), run
// after the app on the same pairs against a mock of its own, and printed side by side. E.g.
// REF_DIR=~/judge-ls-ref REF_CMD='python3 run_judge.py --pairs {data} --model {model} --out {out}'.
import { fileURLToPath } from 'node:url';
import type { PairRecord } from '../test/mock-provider/bias-responder';
import { printStudy, runCliStudy, STUDY_SHAPES, type StudyShape, type StudyShapeName } from './lib/cli-study';
import { floorLine, runFloorClient, runFloorClientIfAsked } from './lib/floor';
import { LLMBAR, readJsonl, runMockIfAsked, spawnMock } from './lib/mock-process';
import { printSideBySide, runReference } from './lib/reference-run';

const refDir = process.env.REF_DIR;
const refCommand = process.env.REF_CMD;
if (await runMockIfAsked()) {
  // This process is the mock.
} else if (await runFloorClientIfAsked()) {
  // This process is the bare client of `--floor`.
} else if (refDir && !refCommand) {
  // Said before the study runs, not after it.
  console.error(
    'REF_DIR is set but REF_CMD is not: give the command that runs the reference there (the first lines of bench/overhead.ts).',
  );
  process.exitCode = 2;
} else {
  const entry = fileURLToPath(import.meta.url);
  const name: StudyShapeName =
    process.argv[2] === 'study' || process.argv[2] === 'position' ? process.argv[2] : 'default';
  const big = name === 'study';
  const position = name === 'position';
  const shape: StudyShape = STUDY_SHAPES[name];
  const f = await runCliStudy(entry, shape);
  printStudy(
    position
      ? `Bias probes' position probe through judge-lab run: ${shape.items} pairs × both orders, ${shape.judges.length} judge, ${shape.rpm} RPM, ${shape.latencyMs.join('–')} ms latency`
      : `Judge-LS through judge-lab run: ${shape.items} items × ${shape.judges.length} judge(s), ${shape.rpm} RPM per model, ${shape.latencyMs.join('–')} ms latency`,
    f,
    // Issue 39's targets: the study ≤ 15 CPU-s and ≤ 250 MiB; the position study ≤ 3.7 CPU-s and ≤ 150 MB (143 MiB).
    position
      ? { wall: 1.1, cpu: 3.7, rss: 143 }
      : big
        ? { wall: 1.05, cpu: 15, rss: 250 }
        : { wall: 1.1, cpu: 15, rss: 300 },
  );
  if (process.argv.includes('--floor')) {
    // No limit at the mock: the bare client keeps the rate itself.
    const mock = await spawnMock(entry, { burstSeconds: 3, latencyMs: shape.latencyMs });
    try {
      const floor = await runFloorClient(entry, 'adapter', name, mock.url);
      const added = f.cpuS - floor.cpuS;
      console.log(`    the same calls alone (bench:floor): ${floorLine(floor)}`);
      // Retries and re-asks are calls the bare client does not make.
      if (floor.calls !== f.stats.total) console.log(`    (the study made ${f.stats.total} calls)`);
      console.log(
        `    the engine adds ${added.toFixed(1)} CPU-s to them (${((1000 * added) / floor.calls).toFixed(2)} ms a call; ${(added / floor.cpuS).toFixed(2)}× the calls' own): its start, queue, ledger, plan, results and export`,
      );
      if (floor.failed > 0) process.exitCode = 1;
    } finally {
      mock.close();
    }
  }
  if (refDir && refCommand) {
    const mock = await spawnMock(entry, { rpm: shape.rpm, burstSeconds: 3, latencyMs: shape.latencyMs });
    try {
      const ref = await runReference(mock, {
        dir: refDir,
        command: refCommand,
        pairs: readJsonl<PairRecord>(LLMBAR).slice(0, shape.items),
        model: shape.judges[0],
        rpm: shape.rpm,
      });
      printSideBySide(
        { calls: f.stats.total, wallS: f.wallS, boundS: f.boundS, cpuS: f.cpuS, rssMiB: f.rssMiB },
        ref,
      );
      if (ref.code !== 0) process.exitCode = 1;
    } finally {
      mock.close();
    }
  }
  if (f.code !== 0) {
    process.stderr.write(f.stderr);
    process.exitCode = 1;
  }
}
