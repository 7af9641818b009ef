// What a run costs besides the provider (issue 27), figures not a test: `npm run bench:overhead [-- study]`.
// Default: the Judge-LS study of 100 LLMBar items, one judge, at 1,200 RPM per model and
// ~300 ms latency. `study`: 419 items × 3 judges at 3,000 RPM per model (20–80 ms latency).
// `position`: bias probes' position probe, 419 LLMBar pairs in both orders (838 calls), one
// judge, 3,000 RPM, ~300 ms latency (issue 39's side-by-side study).
// Prints start → first request, last answer → exit, command wall / the busiest lane's bound,
// the command's CPU-seconds and peak RSS. Needs `npm run build`.
// REF_DIR (optional) would run the published reference script beside it; no reference script
// ships with this repository, so the bench says so and runs the app alone.
import { fileURLToPath } from 'node:url';
import { printStudy, runCliStudy, type StudyShape } from './lib/cli-study';
import { runMockIfAsked } from './lib/mock-process';

if (!(await runMockIfAsked())) {
  const entry = fileURLToPath(import.meta.url);
  const big = process.argv[2] === 'study';
  const position = process.argv[2] === 'position';
  const shape: StudyShape = position
    ? { items: 419, judges: ['gpt-4.1'], rpm: 3000, latencyMs: [250, 350], study: 'position' }
    : big
      ? {
          items: 419,
          judges: ['claude-haiku-4-5', 'gpt-4.1', 'claude-sonnet-4-5'],
          rpm: 3000,
          latencyMs: [20, 80] as [number, number],
        }
      : { items: 100, judges: ['claude-haiku-4-5'], rpm: 1200, latencyMs: [250, 350] as [number, number] };
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
  if (process.env.REF_DIR)
    console.log(
      `    REF_DIR=${process.env.REF_DIR}: running the reference script is not implemented (no reference script ships with this repository)`,
    );
  if (f.code !== 0) {
    process.stderr.write(f.stderr);
    process.exitCode = 1;
  }
}
