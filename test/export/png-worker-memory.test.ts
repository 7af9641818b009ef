// The PNG worker (report/png-worker.ts) frees each figure's native memory before it draws the
// next: resvg's tree and pixmap live outside V8's heap until V8 collects their wrappers, and
// without a collection a worker kept every figure it drew (a study's eight figures: ~100 MB).
// Here one built worker draws eight figures whose pixmaps are ~31 MB each, sent at once as an
// export sends them; its process's peak RSS must grow by far less than eight pixmaps.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../helpers/cli';

beforeAll(() => assertBuilt());

const PIXMAP_MIB = (Math.round(1000 * (300 / 96)) * Math.round(800 * (300 / 96)) * 4) / 2 ** 20;

const SCRIPT = `
import { Worker } from 'node:worker_threads';
const worker = new Worker(${JSON.stringify(join(ROOT, 'out', 'main', 'png-worker.js'))}, { execArgv: [] });
const draw = (jobs) => new Promise((done, fail) => {
  const left = new Set(jobs.map((j) => j.id));
  worker.on('message', (reply) => {
    if ('error' in reply) fail(new Error(reply.error));
    left.delete(reply.id);
    if (left.size === 0) done();
  });
  for (const job of jobs) worker.postMessage(job);
});
const svg = (w, h, i) => '<svg xmlns="http://www.w3.org/2000/svg" width="' + w + '" height="' + h + '">' +
  '<rect width="' + w + '" height="' + h + '" fill="#' + (100 + i) + '"/></svg>';
await draw([{ id: 0, svg: svg(20, 20, 0), width: 20 }]);
const before = process.resourceUsage().maxRSS / 1024;
await draw(Array.from({ length: 8 }, (_, i) => ({ id: i + 1, svg: svg(1000, 800, i), width: 1000 })));
const after = process.resourceUsage().maxRSS / 1024;
await worker.terminate();
console.log(JSON.stringify({ before, after }));
`;

describe('PNG worker memory', () => {
  it("frees each figure's native memory before drawing the next", () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const { before, after } = JSON.parse(r.stdout) as { before: number; after: number };
    // One figure's pixmap and tree, and its PNG, at a time: well under three pixmaps; eight
    // kept would be over 240 MiB.
    expect(after - before).toBeLessThan(3 * PIXMAP_MIB);
  }, 180_000);
});
