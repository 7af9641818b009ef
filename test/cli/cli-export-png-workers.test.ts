// The built CLI draws an export's PNGs in worker threads (report/png-pool.ts): the files are the
// bytes the in-process renderer (svgToPng, as the app and every other export use) makes of the
// same SVGs, so where a PNG is drawn never changes what is written.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svgToPng } from '../../src/main/report/figures';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
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
