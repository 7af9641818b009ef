// Issue 40 item 6: every command that reads a file the user names reads it through one guard
// (readRegularFile: a regular file of at most its stated size, checked on the opened descriptor).
// A missing file, a folder, a named pipe, /dev/zero and a huge sparse file each end in one line
// naming the path and exit 2 — no stack trace, no hang, no memory exhausted. Pipes and devices run
// in a child process (a read of one would block or fill this process); the rest in process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { assertBuilt, runCli, runCliInProcess, type CliResult } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let dir: string;
let data: string;
let cleanup: () => void;
let datasetId: number;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  data = join(dir, 'data');
  const core = new Core({ dataDir: data, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  try {
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    datasetId = dataset.id;
    // Bias probes: a protocol people can rate, so a rating set exists for the label readers.
    const exp = core.experiments.createOrUpdate({
      name: 'odd-paths',
      protocol: 'bias-probes',
      dataset: dataset.id,
      limit: 4,
      providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } },
      rewriter: { provider: 'sim', model: 'sim-rewriter' },
      judges: [{ label: 'strong', provider: 'sim', model: 'sim-judge-strong' }],
      mode: 'pointwise',
    });
    expect((await core.experiments.runToEnd(exp.id)).status).toBe('finished');
    await core.call('annotation.createSet', { experimentId: exp.id, size: 2, name: 'odd-set' });
  } finally {
    await core.shutdown();
  }
}, 300_000);

afterAll(() => cleanup?.());

/** Each reader: the command line that makes it read `path`. */
const READERS: Record<string, (path: string) => string[]> = {
  'bundle verify': (p) => ['bundle', 'verify', p],
  'annotate import-package': (p) => ['annotate', 'import-package', p],
  'annotate import-labels': (p) => ['annotate', 'import-labels', 'odd-set', p],
  'annotate guidelines --file': (p) => ['annotate', 'guidelines', 'odd-set', '--file', p],
  'annotate create-set --guidelines': (p) => [
    'annotate',
    'create-set',
    'odd-paths',
    '--size',
    '2',
    '--name',
    'never-made',
    '--guidelines',
    p,
  ],
  'report-card --gates': (p) => ['report-card', 'sim-judge-strong', '--out', join(dir, 'card'), '--gates', p],
  // The recorded provider's `file`, named by a config.
  'run (recorded file)': (p) => {
    const config = join(dir, `recorded-${Buffer.from(p).toString('hex').slice(-16)}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        name: 'recorded-odd',
        protocol: 'self-consistency',
        dataset: datasetId,
        limit: 2,
        providers: { rec: { kind: 'recorded', file: p } },
        judges: [{ label: 'strong', provider: 'rec', model: 'sim-judge-strong', temperature: 1 }],
        repeats: 2,
      }),
    );
    return ['run', config];
  },
  import: (p) => ['import', p],
  run: (p) => ['run', p],
};

function expectRefused(r: CliResult, path: string, reason: RegExp): void {
  expect(r.code, r.stderr + r.stdout).toBe(2);
  const first = r.stderr.split('\n')[0];
  expect(first).toContain(`error: ${path}: `);
  expect(first).toMatch(reason);
  // A message, not a crash: no stack frame anywhere.
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('odd paths for every reader', () => {
  it.each(Object.keys(READERS))('%s: missing, folder, huge sparse file', async (reader) => {
    const missing = join(dir, 'no-such-file.json');
    const folder = join(dir, 'a-folder');
    mkdirSync(folder, { recursive: true });
    const sparse = join(dir, 'sparse.bin');
    writeFileSync(sparse, '');
    // 4 GiB of nothing: above every file limit, and no disk used.
    truncateSync(sparse, 4 * 1024 * 1024 * 1024);
    for (const [path, reason] of [
      [missing, /file not found/],
      [folder, /a folder, not a regular file/],
      [sparse, /file is 4 GiB, above the limit of [\d.]+ (MiB|KiB) for this kind of file/],
    ] as const) {
      const r = await runCliInProcess([...READERS[reader](path), '--data-dir', data]);
      expectRefused(r, path, reason);
    }
  });

  const fifo = () => {
    const p = join(dir, 'a-pipe');
    try {
      execFileSync('mkfifo', [p]);
    } catch {
      // Made by an earlier case.
    }
    return p;
  };

  it.each(Object.keys(READERS))('%s: a named pipe and /dev/zero (in a child process)', (reader) => {
    const pipe = fifo();
    for (const [path, reason] of [
      [pipe, /a named pipe \(FIFO\), not a regular file/],
      ['/dev/zero', /a character device, not a regular file/],
    ] as const) {
      const r = runCli([...READERS[reader](path), '--data-dir', data]);
      expectRefused(r, path, reason);
    }
  });
});
