// Restoring a backup while a run writes into the store would move the live store (and the
// verdicts still coming) into backups/ under the run's feet. A live run, in another process
// or in this one, makes restore refuse and leave everything as it was.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { restoreDatabase } from '../../src/main/store/backup';
import { Core } from '../../src/main/facade/core';
import { assertBuilt, BIN, CHILD_WAIT_MS, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl');

let root: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir: root, cleanup } = tempDir());
});
afterAll(() => cleanup());

/** A keyless run slow enough to still be going while the test restores. */
function slowConfig(name: string): Record<string, unknown> {
  return {
    name,
    protocol: 'judge-ls',
    dataset: SAMPLE,
    providers: { demo: { kind: 'simulated', latencyMs: 400, rpm: 60, concurrency: 1 } },
    transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH'] },
    judges: [{ label: 'Sim', provider: 'demo', model: 'sim-judge-strong' }],
    prices: { 'sim-translator': { input: 0, output: 0 }, 'sim-judge-strong': { input: 0, output: 0 } },
  };
}

async function makeBackup(data: string): Promise<string> {
  const b = await runCliInProcess(['backup', '--data-dir', data]);
  expect(b.code, b.stderr).toBe(0);
  return /to (\S+\.sqlite)/.exec(b.stdout)![1];
}

const replaced = (data: string) =>
  existsSync(join(data, 'backups'))
    ? readdirSync(join(data, 'backups')).filter((f) => f.includes('replaced-by-restore'))
    : [];

describe('restore while a run is going', () => {
  it('refuses while `judge-lab run` runs in another process, and restores once it stopped', async () => {
    const data = join(root, 'other-process');
    expect((await runCliInProcess(['import', SAMPLE, '--data-dir', data])).code).toBe(0);
    const backup = await makeBackup(data);
    const config = join(root, 'slow.json');
    writeFileSync(config, JSON.stringify(slowConfig('slow-cli')));
    const child = spawn(process.execPath, [BIN, 'run', config, '--data-dir', data], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      await expect
        .poll(() => existsSync(join(data, 'locks', 'experiment-1.pid')), { timeout: CHILD_WAIT_MS })
        .toBe(true);
      const pid = readFileSync(join(data, 'locks', 'experiment-1.pid'), 'utf8').split(/\s/)[0];
      // The lock comes before the run marks itself running; restore and list run in this process
      // at once (no Node start between them), so the run is first seen going.
      await expect
        .poll(async () => (await runCliInProcess(['list', '--data-dir', data])).stdout, {
          timeout: CHILD_WAIT_MS,
        })
        .toMatch(/slow-cli\s+running/);
      const r = await runCliInProcess(['restore', backup, '--data-dir', data]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`Cannot restore while a run is going.*"slow-cli" \\(in process ${pid}\\).*Stop it first`),
      );
      expect(replaced(data)).toEqual([]);
      // The run carries on against its store: the experiment is still listed as running.
      expect((await runCliInProcess(['list', '--data-dir', data])).stdout).toMatch(/slow-cli\s+running/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const ok = await runCliInProcess(['restore', backup, '--data-dir', data]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(replaced(data)).toHaveLength(1);
    expect((await runCliInProcess(['list', '--data-dir', data])).stdout).not.toMatch(/slow-cli/);
  });

  it('refuses while this process runs (or holds paused) an experiment on the folder, and allows it once cancelled', async () => {
    const t = tempDir();
    const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
    try {
      const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      const backup = await makeBackup(t.dir);
      const datasetId = dataset.id;
      const exp = await core.call('experiments.create', {
        config: { ...slowConfig('slow-here'), dataset: datasetId },
      });
      await core.call('experiments.start', { experimentId: exp.id });
      const store = join(t.dir, 'judge-lab.sqlite');
      expect(() => restoreDatabase(store, backup)).toThrow(
        /Cannot restore while a run is going on this data folder: "slow-here" \(in this process\)/,
      );
      expect(replaced(t.dir)).toEqual([]);
      // Paused, the run can resume at any moment: still live.
      await core.call('experiments.pause', { experimentId: exp.id });
      expect(() => restoreDatabase(store, backup)).toThrow(/"slow-here" \(in this process\)/);
      await core.call('experiments.cancel', { experimentId: exp.id });
      await expect.poll(() => existsSync(join(t.dir, 'locks', `experiment-${exp.id}.pid`))).toBe(false);
      await core.shutdown();
      expect(restoreDatabase(store, backup).keptAs).toBeDefined();
    } finally {
      await core.shutdown().catch(() => undefined);
      t.cleanup();
    }
  });
});
