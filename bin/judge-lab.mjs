#!/usr/bin/env node
// The installed `judge-lab` command: runs the built CLI (npm run build writes out/main/cli.js).
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
