// Child process of the migration race test: waits for the start signal (a file appearing), then
// opens the store of <data dir> (new: every migration still to run) and prints "ok" or the error.
// Args: <data dir> <go file>.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/main/store/db';

const [dataDir, goFile] = process.argv.slice(2);
const nap = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
process.stdout.write('ready\n');
while (!existsSync(goFile)) nap(0.2);
try {
  openDatabase(join(dataDir, 'judge-lab.sqlite')).close();
  process.stdout.write('ok\n');
} catch (err) {
  process.stdout.write(`error: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
