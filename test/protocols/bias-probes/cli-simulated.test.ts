// The keyless demo of bias probes through the real CLI: the built-in simulated provider writes
// the variants and scores them (no key, no mock server), and every export says "simulated":
// manifest, table captions, figure titles; the experiment list marks it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { assertBuilt, ROOT } from '../../helpers/cli';
import { expectExportsMarkedSimulated, runKeylessInProcess } from '../../helpers/cli-simulated';
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
  it('rewrites and scores without a key and marks every export simulated', async () => {
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
    const out = join(dir, 'out');
    await runKeylessInProcess(cfg, 'bias-sim', out, join(dir, 'data'));
    const { tex, svgs } = expectExportsMarkedSimulated(out);
    expect(tex.length).toBeGreaterThanOrEqual(3);
    expect(svgs.length).toBeGreaterThanOrEqual(3);

    // Something to look at: the simulated judge leans to longer text.
    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as BiasMetrics;
    const longer = m.probes.find((p) => p.category === 'all' && p.effect === 'longer');
    expect(longer?.n).toBeGreaterThan(20);
    expect(longer?.mean).toBeGreaterThan(0);
  });
});
