// Issue 40 item 9: a full disk under --out (not the data folder's) is named as such, and leaves
// no partial file behind: no `.tmp`, no 0-byte methods.md, no staged export folder. The full
// disk is a real one: a 512 KiB tmpfs, filled up (needs root to mount; skipped otherwise).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let full: string;
let cleanup: () => void;
let mounted = false;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({ dataDir: join(dir, 'data'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  try {
    await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'full-disk',
        protocol: 'judge-ls',
        dataset: 'LLMBar (sample)',
        limit: 4,
        providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 8 } },
        transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
        judges: [{ label: 'J', provider: 'sim', model: 'sim-judge-strong' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
  } finally {
    await core.shutdown();
  }
  full = join(dir, 'full');
  mkdirSync(full);
  mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', full]).status === 0;
  if (!mounted) return;
  for (const sub of ['methods', 'export']) mkdirSync(join(full, sub));
  // Filled to the last block: the write fails part-way, as a real full disk does.
  try {
    writeFileSync(join(full, 'filler'), Buffer.alloc(1024 * 1024));
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  }
}, 300_000);

afterAll(() => {
  if (mounted) spawnSync('umount', [full]);
  cleanup?.();
});

const data = () => ['--data-dir', join(dir, 'data')];

describe.skipIf(process.getuid?.() !== 0)('a full disk under --out', () => {
  it('methods: names the --out disk, leaves no .tmp and no 0-byte file, no stack trace', async () => {
    expect(mounted).toBe(true);
    const out = join(full, 'methods');
    const r = await runCliInProcess(['methods', 'full-disk', '--out', out, ...data()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Writing ${join(out, 'methods.md')} failed: the disk holding ${out} is full`);
    expect(r.stderr).not.toContain(join(dir, 'data'));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(out)).toEqual([]);
  });

  it('export: names the --out folder, leaves no staged folder behind', async () => {
    const out = join(full, 'export', 'results');
    const r = await runCliInProcess(['export', 'full-disk', '--out', out, ...data()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Writing ${out} failed: the disk holding ${join(full, 'export')} is full`);
    expect(r.stderr).not.toContain(join(dir, 'data'));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(join(full, 'export'))).toEqual([]);
  });
});
