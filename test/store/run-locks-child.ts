// Child process of the run-lock race test: waits for the start signal (a file appearing), then
// tries to take the locks of experiments <first>..<last> at once, prints which it won, and keeps
// them until the stop file appears. Args: <data dir> <go file> <stop file> <first> <last>.
import { existsSync } from 'node:fs';
import { RunLocks } from '../../src/main/store/run-locks';

const [dataDir, goFile, stopFile, first, last] = process.argv.slice(2);
const locks = new RunLocks(dataDir);
const nap = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
process.stdout.write('ready\n');
while (!existsSync(goFile)) nap(0.2);
const won: number[] = [];
const refused: string[] = [];
for (let id = Number(first); id <= Number(last); id++) {
  try {
    locks.acquire(id);
    won.push(id);
  } catch (err) {
    refused.push((err as Error).message);
  }
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, won, refused })}\n`);
const timer = setInterval(() => {
  if (existsSync(stopFile)) clearInterval(timer);
}, 20);
