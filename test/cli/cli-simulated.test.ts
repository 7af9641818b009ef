// The keyless demo through the real CLI: a full Judge-LS run against the built-in simulated
// provider (no mock server, no key, no network), and every export marked simulated.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { expectExportsMarkedSimulated, keylessEnv, runKeylessInProcess } from '../helpers/cli-simulated';
import { tempDir } from '../helpers/tmp';

// The demo sample: four items of each LLMBar subset.
const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl');
const ITEMS = 20;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

function writeConfig(name: string, providers?: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      protocol: 'judge-ls',
      dataset: SAMPLE,
      providers: providers ?? { demo: { kind: 'simulated', latencyMs: 5, rpm: 6000, concurrency: 8 } },
      transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH', 'LS'] },
      judges: [
        { label: 'Sim strong', provider: 'demo', model: 'sim-judge-strong' },
        { label: 'Sim weak', provider: 'demo', model: 'sim-judge-weak' },
      ],
      prices: {
        'sim-translator': { input: 0, output: 0 },
        'sim-judge-strong': { input: 0, output: 0 },
        'sim-judge-weak': { input: 0, output: 0 },
      },
    }),
  );
  return file;
}

interface QualityRow {
  judge: string;
  language: string;
  n: number;
  accuracy_strict: number;
  position_a_rate: number;
}

describe('judge-lab run with the simulated provider', () => {
  it('runs Judge-LS to the end without a key and marks every export simulated', async () => {
    const cfg = writeConfig('sim-demo');
    const out = join(dir, 'out');
    // No key variables at all: the simulated provider needs none. Through the CLI's entry in this
    // process, as the other protocols' keyless runs: a child process (a Node start and a blocked
    // worker) took this test past its 120 s at load 17, and the run is the point, not the process.
    await runKeylessInProcess(cfg, 'sim-demo', out, join(dir, 'data'));
    const { tex, svgs } = expectExportsMarkedSimulated(out);
    expect(tex.length).toBeGreaterThan(3);
    expect(svgs.length).toBeGreaterThan(3);

    // The numbers look like a study's: judges better than chance but not perfect, and different.
    const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as {
      quality: QualityRow[];
      language_invariance: { judge: string; flip_rate: number }[];
      audit: { flagged: unknown[] };
      tie_probe: { judge: string; ties: number }[];
    };
    const en = metrics.quality.filter((q) => q.language === 'EN');
    expect(en.map((q) => q.judge).sort()).toEqual(['Sim strong', 'Sim weak']);
    for (const q of metrics.quality) {
      expect(q.n).toBeGreaterThan(ITEMS * 2 - 3);
      expect(q.accuracy_strict).toBeGreaterThan(0.3);
      expect(q.accuracy_strict).toBeLessThan(1);
    }
    const strong = en.find((q) => q.judge === 'Sim strong')!;
    const weak = en.find((q) => q.judge === 'Sim weak')!;
    expect(strong.accuracy_strict).toBeGreaterThan(0.55);
    expect(strong.accuracy_strict).toBeGreaterThan(weak.accuracy_strict);
    expect(metrics.language_invariance.some((l) => l.flip_rate > 0)).toBe(true);
    // Tie probes (an answer against its own translation) often end in a tie.
    expect(metrics.tie_probe.every((t) => t.ties > 0)).toBe(true);
    expect(existsSync(join(out, 'judgments.csv'))).toBe(true);

    // Deterministic: the same config in a fresh data folder gives the same metrics.
    const out2 = join(dir, 'out2');
    const again = await runCliInProcess(
      ['run', cfg, '--out', out2, '--data-dir', join(dir, 'data2')],
      keylessEnv(),
    );
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(out2, 'metrics.json'), 'utf8')).toBe(
      readFileSync(join(out, 'metrics.json'), 'utf8'),
    );
  });

  it('refuses a config that mixes simulated and real judges, naming the key (exit 2)', async () => {
    const cfg = writeConfig('sim-mixed', {
      demo: { kind: 'simulated' },
      real: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' },
    });
    const r = await runCliInProcess(['run', cfg, '--data-dir', join(dir, 'data-mixed')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /providers\.real\.kind: "openai" cannot be mixed with the simulated provider "demo"/,
    );
  });

  it('refuses server settings on the simulated provider, naming the key (exit 2)', async () => {
    const cfg = writeConfig('sim-bad', { demo: { kind: 'simulated', apiKeyEnv: 'OPENAI_API_KEY' } });
    const r = await runCliInProcess(['run', cfg, '--data-dir', join(dir, 'data-bad')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/providers\.demo\.apiKeyEnv: not used by the simulated provider/);
  });
});
