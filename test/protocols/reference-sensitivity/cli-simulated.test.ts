// The keyless demo of reference sensitivity through the real CLI: the built-in simulated provider
// answers every stage (no key, no mock server), and every export says "simulated": manifest,
// table captions, figure titles; the experiment list marks it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefSensMetrics } from '../../../src/shared/protocols/reference-sensitivity/types';
import { assertBuilt, ROOT } from '../../helpers/cli';
import { expectExportsMarkedSimulated, runKeylessInProcess } from '../../helpers/cli-simulated';
import { tempDir } from '../../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl');

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('judge-lab run: reference sensitivity with the simulated provider', () => {
  it('runs every stage without a key and marks every export simulated', async () => {
    const cfg = join(dir, 'refsens-sim.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'refsens-sim',
        protocol: 'reference-sensitivity',
        dataset: SAMPLE,
        // A random sample of 24 questions (en, ar and te among them).
        sample: 'random',
        seed: 3,
        providers: { demo: { kind: 'simulated', latencyMs: 2, rpm: 60000, concurrency: 16 } },
        generators: [{ label: 'Sim generator', provider: 'demo', model: 'sim-generator' }],
        judges: [
          { label: 'Sim strong', provider: 'demo', model: 'sim-judge-strong' },
          { label: 'Sim weak', provider: 'demo', model: 'sim-judge-weak' },
        ],
        prices: {
          'sim-generator': { input: 0, output: 0 },
          'sim-judge-strong': { input: 0, output: 0 },
          'sim-judge-weak': { input: 0, output: 0 },
        },
        limit: 24,
      }),
    );
    const out = join(dir, 'out');
    await runKeylessInProcess(cfg, 'refsens-sim', out, join(dir, 'data'));
    const { tex, svgs } = expectExportsMarkedSimulated(out);
    expect(tex).toEqual(expect.arrayContaining(['calibration.tex', 'acceptance.tex', 'flips.tex']));
    for (const f of readdirSync(join(out, 'tables')).filter((x) => x.endsWith('.csv')))
      expect(readFileSync(join(out, 'tables', f), 'utf8'), f).toBeTruthy();
    expect(svgs.sort()).toEqual(['acceptance_heatmap.svg', 'calibration.svg', 'flips.svg']);

    // Something to look at: both judges, the three languages, over-acceptance without a
    // reference and flips once it is shown.
    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as RefSensMetrics;
    expect(new Set(m.calibration.map((c) => c.language))).toEqual(new Set(['en', 'ar', 'te']));
    expect(new Set(m.calibration.map((c) => c.judge))).toEqual(new Set(['Sim strong', 'Sim weak']));
    expect(m.calibration.some((c) => (c.c2_accept ?? 0) > 0)).toBe(true);
    expect(m.flips.some((f) => f.transition === 'NR-RV' && (f.flip_rate ?? 0) > 0)).toBe(true);
  });
});
