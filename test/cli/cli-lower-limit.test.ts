// Issue 32 item 4: `judge-lab run` again under the same name with a lower `limit` describes the
// experiment as now configured. Its results, judgments.csv, `list`, the preregistration's
// deviation and the study bundle all count the 8 items the config uses, not the 12 answered
// before; the bundle verifies identical; raising the limit again sends nothing (the answers of
// the 4 dropped items stayed in the ledger).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;

beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup?.());

const cli = (...args: string[]) => runCliInProcess([...args, '--data-dir', join(dir, 'data')]);

function configFile(limit: number): string {
  const file = join(dir, `limit-${limit}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: 'lower-limit',
      protocol: 'judge-ls',
      dataset: join(ROOT, 'resources', 'samples', 'llmbar.jsonl'),
      limit,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
      preregistration: {
        confirmatory: ['accuracy_change:EN-ZH'],
        exclusions: 'none',
        stopping: 'all planned items',
      },
    }),
  );
  return file;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/** The item ids of judgments.csv (column 2), header left out. */
function csvItems(file: string): Set<string> {
  const lines = readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(1);
  return new Set(lines.filter((l) => l.trim()).map((l) => l.split(',')[1]));
}

describe('a lower limit on the same experiment', () => {
  it('results, exports, list and the bundle follow the config; raising it again reuses the answers', async () => {
    const first = await cli('run', configFile(12), '--out', join(dir, 'out12'));
    expect(first.code, first.stderr).toBe(0);
    const q12 = readJson(join(dir, 'out12', 'metrics.json')).quality as { n: number }[];
    expect(q12.map((r) => r.n)).toEqual([24, 24, 24]);

    const lower = await cli('run', configFile(8), '--out', join(dir, 'out8'));
    expect(lower.code, lower.stderr).toBe(0);
    const metrics = readJson(join(dir, 'out8', 'metrics.json'));
    // 8 items × 2 orders per language (was 24: the 4 dropped items still counted).
    expect((metrics.quality as { n: number }[]).map((r) => r.n)).toEqual([16, 16, 16]);
    expect(csvItems(join(dir, 'out8', 'judgments.csv')).size).toBe(8);
    const manifest = readJson(join(dir, 'out8', 'manifest.json'));
    const deviations = (manifest.preregistration as { deviations: { kind: string; text: string }[] })
      .deviations;
    expect(deviations.find((d) => d.kind === 'sample_size')?.text).toBe(
      'The plan registered 12 items; the experiment uses 8.',
    );

    const list = await cli('list');
    // 8 items: 2 translations and 8 verdicts each (was 120/120, the 12 items' calls).
    expect(list.stdout).toMatch(/lower-limit\s+finished\s+80\/80 calls done/);

    const bundle = join(dir, 'lower.judgelab');
    const ex = await cli('bundle', 'export', 'lower-limit', '--out', bundle);
    expect(ex.code, ex.stderr).toBe(0);
    const verify = await cli('bundle', 'verify', bundle);
    expect(verify.stdout).toMatch(/Recomputed (\d+) files .*: \1 equal, 0 differ\./);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);

    const again = await cli('run', configFile(12), '--out', join(dir, 'again12'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout + again.stderr).toContain('total 120 calls, 120 already stored');
    expect(readFileSync(join(dir, 'again12', 'metrics.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'out12', 'metrics.json'), 'utf8'),
    );
  }, 600_000);
});
