#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 MIMALLOC_PURGE_DELAY=0 node --max-semi-space-size=8
// The installed `judge-lab` command: runs the built CLI (npm run build writes out/main/cli.js).
// The first line is how the command starts on a PATH (npm link, a global install, npx; npm's
// Windows shims read the same line). glibc's malloc keeps an arena per thread by default, each
// holding what it once held: two arenas. V8 sizes the young generation once, at start, up to
// 2 × 16 MiB: 2 × 8 MiB. The 419 × 3 study's peak 287 → ~237 MiB; smaller semi-spaces save a
// little more memory but collect more often (2 MiB: +1.7 s of GC pauses in that study, 8 MiB:
// +0.45 s; DESIGN §11, part six). A trim threshold set at glibc's own starting value (128 KiB)
// stops glibc raising it, and its mmap threshold with it, after each large block freed: freed
// memory then goes back to the system instead of staying in the arenas (the position study's run
// ~120 instead of ~131 MiB, the 419 × 3 study's ~179 instead of ~191, the same CPU; part seven).
// resvg (the PNGs) brings its own allocator, mimalloc, which hands freed memory back only when it
// is next called, 10 ms later at the soonest: after an export's last figure that was never, and
// ~16 MiB of its canvases stayed under the workbook written next. MIMALLOC_PURGE_DELAY=0 hands it
// back as it is freed (the position study's export: 140 -> 120 MiB before the workbook; part nine).
// `node bin/judge-lab.mjs` runs without them: the same command.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

// Node ≥ 22.1 keeps compiled code between starts (issue 27: startup); Node 20 has no such cache.
module.enableCompileCache?.();

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('judge-lab is not built yet: run `npm run build` in the project folder first.\n');
  process.exit(1);
}
// A reader that stops early (`judge-lab … | head`) is not a failure: what is left to print has
// nowhere to go, and the command still finishes its files (issue 26). Other errors stay errors.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
});
// `judge-lab run` starts its token-counting worker before the CLI and the core load
// (out/main/counting-ahead.js, a few KB): the worker builds its tables while this thread still
// holds little, instead of beside the loaded core (issue 39: the position study's start peak).
// The command is the first word that is not an option or --data-dir's value; the CLI starts the
// worker all the same if this guess misses.
const args = process.argv.slice(2);
const command = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '--data-dir');
const ahead = join(dirname(cli), 'counting-ahead.js');
if (command === 'run' && existsSync(ahead)) {
  const counting = await import(pathToFileURL(ahead).href);
  counting.releaseTokenizerAfterEstimates();
  // The CLI loads once the tables are built: the worker's build garbage (~60 MiB for a moment) and
  // the loading core no longer meet (issue 39: the position study's start 144–148 → 132–137 MiB,
  // its first request 0.2–0.3 s later).
  await counting.countingTablesBuilt?.();
}
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv.slice(2));
