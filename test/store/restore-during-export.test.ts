// A run holds its experiment's lock until it is done with the store, export included (issue
// 22 item 4): a restore attempted while the export is being written is refused, in this
// process (the app's Export) and from another one (`judge-lab run` exporting at its end).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { liveRuns } from '../../src/main/store/run-locks';
import { restoreDatabase } from '../../src/main/store/backup';
import { Core } from '../../src/main/facade/core';
import { assertBuilt, BIN, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl');

let root: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir: root, cleanup } = tempDir());
});
afterAll(() => cleanup());

function quickConfig(name: string): Record<string, unknown> {
  return {
    name,
    protocol: 'judge-ls',
    dataset: SAMPLE,
    limit: 4,
    providers: { demo: { kind: 'simulated', latencyMs: 1 } },
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

const REFUSED = /Cannot restore while a run is going on this data folder/;

describe('restore during an export', () => {
  it("is refused while this process writes an experiment's export", async () => {
    const t = tempDir();
    const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
    try {
      const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      const backup = await makeBackup(t.dir);
      const exp = core.experiments.createOrUpdate({ ...quickConfig('export-here'), dataset: dataset.id });
      expect((await core.experiments.runToEnd(exp.id)).status).toBe('finished');
      expect(liveRuns(t.dir)).toEqual([]);
      const exporting = core.experiments.export(exp.id, join(t.dir, 'out'));
      const store = join(t.dir, 'judge-lab.sqlite');
      expect(() => restoreDatabase(store, backup)).toThrow(REFUSED);
      await exporting;
      expect(liveRuns(t.dir)).toEqual([]);
      await core.shutdown();
      expect(restoreDatabase(store, backup).keptAs).toBeDefined();
    } finally {
      await core.shutdown().catch(() => undefined);
      t.cleanup();
    }
  }, 120_000);

  it('is refused while `judge-lab run` writes the export at the end of its run', async () => {
    const data = join(root, 'cli');
    expect((await runCliInProcess(['import', SAMPLE, '--data-dir', data])).code).toBe(0);
    const backup = await makeBackup(data);
    const config = join(root, 'quick.json');
    writeFileSync(config, JSON.stringify(quickConfig('export-cli')));
    const outParent = join(root, 'exports');
    const child = spawn(
      process.execPath,
      [BIN, 'run', config, '--data-dir', data, '--out', join(outParent, 'export-cli')],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let exitCode: number | null = null;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((r) =>
      child.once('exit', (code) => {
        exitCode = code;
        r();
      }),
    );
    // The export is being written while its staging folder exists.
    const staging = () =>
      existsSync(outParent) && readdirSync(outParent).some((f) => f.startsWith('.export-cli.export-'));
    let seen = false;
    let refusal: unknown;
    while (exitCode === null) {
      if (staging()) {
        seen = true;
        try {
          restoreDatabase(join(data, 'judge-lab.sqlite'), backup);
        } catch (err) {
          refusal = err;
        }
        break;
      }
      await new Promise((r) => setImmediate(r));
    }
    await exited;
    expect(exitCode, stderr).toBe(0);
    expect(seen, 'the export staging folder was never seen').toBe(true);
    expect(String(refusal)).toMatch(REFUSED);
    expect(existsSync(join(outParent, 'export-cli', 'metrics.json'))).toBe(true);
  }, 180_000);
});
