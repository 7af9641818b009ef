// The keyless demo of self-consistency through the real CLI (`judge-lab run`, `export --lang zh`):
// the built-in simulated provider, one judge with planted instability (a model named
// `…-flip25`: each ask flips its question's base verdict with probability 0.25) and one without.
// The planted probability is recovered within 3.5 standard errors; every export says "simulated";
// the 中文 export translates the figures.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelfConsistencyMetrics } from '../../../src/shared/protocols/self-consistency/types';
import { assertBuilt, ROOT, runCliInProcess } from '../../helpers/cli';
import { expectExportsMarkedSimulated, keylessEnv, runKeylessInProcess } from '../../helpers/cli-simulated';
import { tempDir } from '../../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
const P = 0.25;
const ITEMS = 60;
const K = 5;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('judge-lab run: self-consistency with the simulated provider', () => {
  it('shows the planted instability, exports every format, and the 中文 figures', async () => {
    const cfg = join(dir, 'sc-sim.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'sc-sim',
        protocol: 'self-consistency',
        dataset: SAMPLE,
        limit: ITEMS,
        providers: { demo: { kind: 'simulated', latencyMs: 0, rpm: 600000, concurrency: 32 } },
        judges: [
          { label: 'Steady', provider: 'demo', model: 'sim-judge-strong' },
          { label: 'Shaky', provider: 'demo', model: 'sim-judge-strong-flip25' },
        ],
        repeats: K,
        orders: 'both',
        prices: {
          'sim-judge-strong': { input: 0, output: 0 },
          'sim-judge-strong-flip25': { input: 0, output: 0 },
        },
      }),
    );
    const data = join(dir, 'data');
    const out = join(dir, 'out');
    await runKeylessInProcess(cfg, 'sc-sim', out, data);
    const { tex, svgs } = expectExportsMarkedSimulated(out);
    expect(tex).toEqual(
      expect.arrayContaining([
        'stability.tex',
        'accuracy_by_k.tex',
        'position_by_k.tex',
        'unstable.tex',
        'failures.tex',
      ]),
    );
    expect(svgs.sort()).toEqual([
      'accuracy_vs_k.svg',
      'agreement_histogram.svg',
      'position_vs_k.svg',
      'stability.svg',
    ]);
    const files = readdirSync(out);
    expect(files).toEqual(expect.arrayContaining(['metrics.json', 'judgments.csv', 'manifest.json']));
    expect(readdirSync(join(out, 'figures')).filter((f) => f.endsWith('.png'))).toHaveLength(4);
    expect(readdirSync(join(out, 'tables'))).toEqual(
      expect.arrayContaining(['tables.xlsx', 'stability.csv']),
    );

    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as SelfConsistencyMetrics;
    const shaky = m.stability.find((r) => r.judge === 'Shaky' && r.category === 'all')!;
    const steady = m.stability.find((r) => r.judge === 'Steady' && r.category === 'all')!;
    // The planted judge: two asks differ with probability 2p(1 − p) (a base tie flips to A or B,
    // a small excess); SE from the bootstrap interval's width.
    const se = (shaky.disagree_prob_ci![1] - shaky.disagree_prob_ci![0]) / (2 * 1.96);
    expect(Math.abs(shaky.disagree_prob! - 2 * P * (1 - P))).toBeLessThan(3.5 * se);
    expect(shaky.unanimous_rate!).toBeLessThan(steady.unanimous_rate!);
    // Failed (unparseable after the retries) repeats are counted in every row.
    expect(shaky.failed).toBe(m.failures.filter((f) => f.judge === 'Shaky').reduce((s, f) => s + f.count, 0));
    const csv = readFileSync(join(out, 'judgments.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(1 + 2 * ITEMS * 2 * K);

    const zh = join(dir, 'out-zh');
    const r = await runCliInProcess(
      ['export', 'sc-sim', '--out', zh, '--lang', 'zh', '--data-dir', data],
      keylessEnv(),
    );
    expect(r.code, r.stderr).toBe(0);
    const svg = readFileSync(join(zh, 'figures', 'stability.svg'), 'utf8');
    expect(svg).toContain('稳定性');
    expect(readFileSync(join(zh, 'figures', 'accuracy_vs_k.svg'), 'utf8')).toContain('多数投票');
  }, 600_000);
});
