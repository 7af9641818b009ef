// Issue 24: `judge-lab bundle export EXP --out FILE` and `judge-lab bundle verify FILE` on the
// keyless simulated demo: verify says every recomputed file is byte-identical (exit 0); a bundle
// with one byte changed is refused naming the entry (exit 2); a bundle that opens but whose stored
// numbers do not reproduce says where and exits 1.
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({ dataDir: join(dir, 'data'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  try {
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const exp = core.experiments.createOrUpdate({
      name: 'bundle-cli',
      protocol: 'self-consistency',
      dataset: dataset.id,
      limit: 4,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong', temperature: 1 }],
      repeats: 3,
    });
    expect((await core.experiments.runToEnd(exp.id)).status).toBe('finished');
  } finally {
    await core.shutdown();
  }
}, 300_000);

afterAll(() => cleanup?.());

const cli = (...args: string[]) => runCliInProcess([...args, '--data-dir', join(dir, 'data')]);

describe('judge-lab bundle', () => {
  it('exports a bundle, verifies it identical, refuses it tampered and reports it forged', async () => {
    const file = join(dir, 'study.judgelab');
    const ex = await cli('bundle', 'export', 'bundle-cli', '--out', file);
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stdout).toContain(`Wrote the study bundle of "bundle-cli" to ${file}`);

    const ok = await cli('bundle', 'verify', file);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(
      /experiment "bundle-cli" \(self-consistency\), \d+ entries, each matching its SHA-256/,
    );
    expect(ok.stdout).toMatch(
      /Recomputed (\d+) files \(metrics\.json, tables, the workbook by cell values, figures, PNGs by pixels\): \1 equal, 0 differ\./,
    );
    // What verify does not make again is said so, file by file, never counted as equal.
    expect(ok.stdout).toMatch(/Not recompared \(\d+ files, neither equal nor different\):/);
    expect(ok.stdout).toContain(
      "export/methods.md: written from the original run's dates and times of answers, which a replay cannot reproduce",
    );

    const files = unzipSync(readFileSync(file));
    // The simulated demo is marked so in the bundle, and its tables keep the mark when recomputed.
    expect(JSON.parse(new TextDecoder().decode(files['bundle.json'])).simulated).toBe(true);

    const ledger = Buffer.from(files['ledger.jsonl']);
    const at = ledger.indexOf('"response_text":"') + 18;
    ledger[at] = ledger[at] === 0x41 ? 0x42 : 0x41;
    const tampered = join(dir, 'tampered.judgelab');
    writeFileSync(tampered, zipSync({ ...files, 'ledger.jsonl': new Uint8Array(ledger) }));
    const bad = await cli('bundle', 'verify', tampered);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('tampered.judgelab: ledger.jsonl: content does not match its SHA-256');

    const metrics = JSON.parse(new TextDecoder().decode(files['export/metrics.json'])) as {
      stability: { questions: number }[];
    };
    metrics.stability[0].questions += 10;
    const forged = new TextEncoder().encode(JSON.stringify(metrics, null, 2) + '\n');
    const meta = JSON.parse(new TextDecoder().decode(files['bundle.json'])) as {
      entries: Record<string, string>;
    };
    meta.entries['export/metrics.json'] = createHash('sha256').update(forged).digest('hex');
    const forgedFile = join(dir, 'forged.judgelab');
    writeFileSync(
      forgedFile,
      zipSync({
        ...files,
        'bundle.json': new TextEncoder().encode(JSON.stringify(meta)),
        'export/metrics.json': forged,
      }),
    );
    const diff = await cli('bundle', 'verify', forgedFile);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('export/metrics.json differs:');
    expect(diff.stdout).toContain(
      `stability[0].questions: stored ${metrics.stability[0].questions}, recomputed ${metrics.stability[0].questions - 10}`,
    );
    expect(diff.stderr).toContain('1 recomputed files differ from the stored ones');
  }, 600_000);
});
