// The built CLI draws an export's PNGs in worker threads (report/png-pool.ts): the files are the
// bytes the in-process renderer (svgToPng, as the app and every other export use) makes of the
// same SVGs, so where a PNG is drawn never changes what is written. An export of at most
// PNG_ON_THREAD_MAX_FIGURES figures (the position study's one) is drawn on `run`'s own thread
// instead: the worker's ~11 MiB and resvg's arena of its own were most of that export's peak
// (issue 39).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svgToPng } from '../../src/main/report/figures';
import { PNG_ON_THREAD_MAX_FIGURES } from '../../src/main/report/png-pool';
import { assertBuilt, ROOT, runCliAsync, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('judge-lab run: figures drawn by the PNG workers', () => {
  it('writes the same PNG bytes as the in-process renderer, for every figure', async () => {
    const config = join(dir, 'demo.json');
    writeFileSync(
      config,
      JSON.stringify({
        name: 'demo',
        protocol: 'judge-ls',
        dataset: join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl'),
        limit: 4,
        providers: { demo: { kind: 'simulated', latencyMs: 1 } },
        transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH', 'LS'] },
        judges: [
          { label: 'Sim strong', provider: 'demo', model: 'sim-judge-strong' },
          { label: '模拟 weak', provider: 'demo', model: 'sim-judge-weak' },
        ],
      }),
    );
    const out = join(dir, 'out');
    const r = await runCliInProcess(['run', config, '--data-dir', join(dir, 'data'), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const svgs = readdirSync(join(out, 'figures')).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThan(3);
    for (const name of svgs) {
      const svg = readFileSync(join(out, 'figures', name), 'utf8');
      const width = Number(/<svg[^>]*\swidth="([\d.]+)"/.exec(svg)?.[1]);
      expect(width, name).toBeGreaterThan(0);
      const png = readFileSync(join(out, 'figures', name.replace(/\.svg$/, '.png')));
      expect((await svgToPng(svg, width)).equals(png), name).toBe(true);
    }
  }, 240_000);
});

describe('judge-lab run: an export with few figures', () => {
  it('draws them on its own thread, no PNG worker started, the same bytes', async () => {
    // Every worker the child starts, by file: the token counter's may come and go, the PNG
    // worker's (out/main/png-worker.js) must not.
    const started = join(dir, 'workers.txt');
    const hook = join(dir, 'count-workers.cjs');
    writeFileSync(
      hook,
      `const wt = require('node:worker_threads'); const fs = require('node:fs');
const Base = wt.Worker;
wt.Worker = class extends Base { constructor(file, ...rest) { fs.appendFileSync(${JSON.stringify(started)}, String(file) + '\\n'); super(file, ...rest); } };
require('node:module').syncBuiltinESMExports();`,
    );
    const config = join(dir, 'position.json');
    writeFileSync(
      config,
      JSON.stringify({
        name: 'position',
        protocol: 'bias-probes',
        dataset: join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl'),
        limit: 6,
        providers: { demo: { kind: 'simulated', latencyMs: 0 } },
        judges: [{ label: 'Sim judge', provider: 'demo', model: 'sim-judge' }],
        mode: 'pairwise',
        probes: ['position'],
      }),
    );
    const out = join(dir, 'position-out');
    const r = await runCliAsync(['run', config, '--data-dir', join(dir, 'data-position'), '--out', out], {
      env: { NODE_OPTIONS: `--require ${hook}` },
    });
    expect(r.code, r.stderr).toBe(0);
    const svgs = readdirSync(join(out, 'figures')).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThan(0);
    expect(svgs.length).toBeLessThanOrEqual(PNG_ON_THREAD_MAX_FIGURES);
    const workers = existsSync(started) ? readFileSync(started, 'utf8').split('\n').filter(Boolean) : [];
    expect(workers.filter((f) => /png-worker/.test(f))).toEqual([]);
    for (const name of svgs) {
      const svg = readFileSync(join(out, 'figures', name), 'utf8');
      const width = Number(/<svg[^>]*\swidth="([\d.]+)"/.exec(svg)?.[1]);
      const png = readFileSync(join(out, 'figures', name.replace(/\.svg$/, '.png')));
      expect((await svgToPng(svg, width)).equals(png), name).toBe(true);
    }
  }, 240_000);
});
