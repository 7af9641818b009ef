#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=2
// The installed `judge-lab` command: runs the built CLI (npm run build writes out/main/cli.js).
// The first line is how the command starts on a PATH (npm link, a global install, npx; npm's
// Windows shims read the same line): Node's young generation held at 2 × 2 MiB (V8 sizes it once,
// at start: 2 × 16 MiB, most of it garbage, from the first second of a run) and glibc's malloc
// arenas at 2 (one per thread by default, each keeping what it once held). The one-shot run's peak
// RSS, bench:overhead position: 230 → ~185 MiB (DESIGN §11, part six). `node bin/judge-lab.mjs`
// runs without them: the same command, more memory.
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
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv.slice(2));
