// PNG workers and the export's own thread each take V8's `gc` for themselves (base/heap.ts), and
// V8's flags belong to the process: a thread that switched --expose-gc back off took `gc` away from
// another thread making its context at that moment, and that thread failed with "gc is not defined"
// (an export in `serve` failed that way in CI). Here several built workers draw their first figure
// at the same moment, round after round, so their first collections overlap: every one must answer
// and none may fail. (On the old heap.ts, 2–5 of these 32 first collections failed, in 3 of 3 runs.)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../helpers/cli';

beforeAll(() => assertBuilt());

const SCRIPT = `
import { Worker } from 'node:worker_threads';
const file = ${JSON.stringify(join(ROOT, 'out', 'main', 'png-worker.js'))};
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';
let answered = 0;
const failures = [];
for (let round = 0; round < 8; round++) {
  const workers = Array.from({ length: 4 }, () => new Worker(file, { execArgv: [] }));
  await Promise.all(workers.map((w, id) => new Promise((done) => {
    w.on('error', (err) => failures.push(String(err)));
    w.on('message', (reply) => {
      if ('error' in reply) failures.push(reply.error);
      else answered++;
      // The collection runs right after the reply: give it its turn before the worker ends.
      setTimeout(done, 20);
    });
    w.postMessage({ id, svg, width: 4 });
  })));
  await Promise.all(workers.map((w) => w.terminate()));
}
console.log(JSON.stringify({ answered, failures }));
`;

describe('PNG workers collecting garbage at once', () => {
  it('all draw and none loses `gc` to another thread', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const { answered, failures } = JSON.parse(r.stdout) as { answered: number; failures: string[] };
    expect(failures).toEqual([]);
    expect(answered).toBe(32);
  }, 180_000);
});
