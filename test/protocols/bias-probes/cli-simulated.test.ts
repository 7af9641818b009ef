// The keyless demo of bias probes through the real CLI: the built-in simulated provider writes
// the variants and scores them (no key, no mock server), and every export says "simulated":
// manifest, table captions, figure titles; the experiment list marks it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { assertBuilt, ROOT, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('judge-lab run: bias probes with the simulated provider', () => {
  it('rewrites and scores without a key and marks every export simulated', () => {
    const cfg = join(dir, 'bias-sim.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'bias-sim',
        protocol: 'bias-probes',
        dataset: SAMPLE,
        limit: 24,
        providers: { demo: { kind: 'simulated', latencyMs: 2, rpm: 60000, concurrency: 16 } },
        rewriter: { provider: 'demo', model: 'sim-rewriter' },
        judges: [{ label: 'Sim judge', provider: 'demo', model: 'sim-judge' }],
        mode: 'pointwise',
        prices: { 'sim-rewriter': { input: 0, output: 0 }, 'sim-judge': { input: 0, output: 0 } },
      }),
    );
    // No key of any kind in the environment: the demo needs none.
    const env = Object.fromEntries(
      Object.keys(process.env)
        .filter((k) => /_KEY$|_TOKEN$/.test(k))
        .map((k) => [k, '']),
    );
    const out = join(dir, 'out');
    const data = join(dir, 'data');
    const r = runCli(['run', cfg, '--out', out, '--data-dir', data], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Finished "bias-sim"/);
    expect(runCli(['list', '--data-dir', data]).stdout).toMatch(
      /bias-sim\s+finished .*\[simulated: made-up answers\]/,
    );

    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.simulated).toBe(true);
    const tex = readdirSync(join(out, 'tables')).filter((f) => f.endsWith('.tex'));
    expect(tex.length).toBeGreaterThanOrEqual(3);
    for (const f of tex)
      expect(readFileSync(join(out, 'tables', f), 'utf8'), f).toMatch(/\\caption\{Simulated --- /);
    const svgs = readdirSync(join(out, 'figures')).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThanOrEqual(3);
    for (const f of svgs) expect(readFileSync(join(out, 'figures', f), 'utf8'), f).toContain('Simulated — ');

    // Something to look at: the simulated judge leans to longer text.
    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as BiasMetrics;
    const longer = m.probes.find((p) => p.category === 'all' && p.effect === 'longer');
    expect(longer?.n).toBeGreaterThan(20);
    expect(longer?.mean).toBeGreaterThan(0);
  });
});
