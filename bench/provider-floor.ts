// What the calls alone cost, below the engine (issue 39): `npm run bench:floor [-- position | default]`
// (`FLOOR_RUNS=N` to repeat). Sends the calls of bench:overhead's study shapes (lib/cli-study.ts
// STUDY_SHAPES; here `study` unless named: 838 translations on gpt-4.1-mini and 3,352 verdicts on
// each of three judges; `position`: 838 verdicts on one judge) to the same kind of loopback mock, at the same per-model rate and
// latency, from a bare client (lib/floor.ts) at three depths: the app's keep-alive fetch, the
// official SDKs, the app's provider adapters. The study's own figure (bench:overhead, whose
// `--floor` runs the adapters' depth beside it) less `adapter` is what the engine adds around
// the calls: its queue, ledger, plan, results and export.
import { fileURLToPath } from 'node:url';
import { STUDY_SHAPES, type StudyShapeName } from './lib/cli-study';
import { DEPTHS, floorCalls, floorLine, runFloorClient, runFloorClientIfAsked } from './lib/floor';
import { runMockIfAsked, spawnMock } from './lib/mock-process';

async function main() {
  const entry = fileURLToPath(import.meta.url);
  // As bench:overhead's, but `study` when none is named (the shape issue 39's targets are set on).
  const shapeName: StudyShapeName =
    process.argv[2] === 'position' || process.argv[2] === 'default' ? process.argv[2] : 'study';
  const runs = Math.max(1, Number(process.env.FLOOR_RUNS ?? 1));
  const shape = STUDY_SHAPES[shapeName];
  // No rate limit at the mock: the clients keep the rate themselves, and a 429 would be a call
  // the floor pays and the app (whose limiter waits) would not.
  const mock = await spawnMock(entry, { burstSeconds: 3, latencyMs: shape.latencyMs });
  try {
    const calls = floorCalls(shape);
    console.log(
      `The calls alone (${shapeName}: ${calls} calls, ${shape.rpm} RPM per model, ${shape.latencyMs.join('–')} ms latency), a client that stores nothing:`,
    );
    let bad = false;
    for (let r = 0; r < runs; r++)
      for (const depth of DEPTHS) {
        const f = await runFloorClient(entry, depth, shapeName, mock.url);
        bad ||= f.failed > 0 || f.calls !== calls;
        console.log(`    ${floorLine(f)}`);
      }
    console.log(`    the mock's CPU ${(await mock.stats()).cpuSeconds.toFixed(1)} s`);
    if (bad) process.exitCode = 1;
  } finally {
    mock.close();
  }
}

if (await runMockIfAsked()) {
  // This process is the mock.
} else if (!(await runFloorClientIfAsked())) {
  await main();
}
