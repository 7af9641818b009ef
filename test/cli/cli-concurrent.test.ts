import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatasetFile } from '../../src/main/import';
import type { Item } from '../../src/shared/domain';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider } from '../mock-provider/server';
import { assertBuilt, BIN, ROOT, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
const items: Item[] = parseDatasetFile('llmbar.jsonl', readFileSync(SAMPLE)).items.map((it, i) => ({
  ...it,
  id: i + 1,
  datasetId: 1,
  position: i + 1,
}));

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('two processes on one store', () => {
  it('`judge-lab list` and a second `run` while a run is going neither disturb it nor make it pay twice', async () => {
    const responder = judgeLsResponder(items);
    const mock = await startMockProvider({
      respond: responder.respond,
      latencyMs: [150, 250],
      wrapText: false,
    });
    try {
      const config = join(dir, 'c.json');
      writeFileSync(
        config,
        JSON.stringify({
          name: 'concurrent',
          protocol: 'judge-ls',
          dataset: SAMPLE,
          limit: 12,
          providers: {
            p: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 3 },
          },
          transform: { provider: 'p', model: 'gpt-4.1-mini' },
          judges: [{ label: 'J', provider: 'p', model: 'gpt-4.1-mini' }],
        }),
      );
      const data = join(dir, 'data');
      const env = { ...process.env, MOCK_API_KEY: 'sk-test' };
      const run = spawn(
        process.execPath,
        [BIN, 'run', config, '--data-dir', data, '--out', join(dir, 'out')],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      run.stderr.on('data', (c) => (stderr += c));
      const exited = new Promise<number | null>((r) => run.on('exit', r));
      await expect.poll(() => mock.log.length, { timeout: 20_000 }).toBeGreaterThan(10);

      // While it runs: list (opens the store) and try the same run again.
      const list = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn(process.execPath, [BIN, 'list', '--data-dir', data], { env });
        let out = '';
        c.stdout.on('data', (d) => (out += d));
        c.on('exit', (code) => resolve({ code, out }));
      });
      expect(list.code).toBe(0);
      expect(list.out).toMatch(/concurrent\s+running/);
      const second = runCli(['run', config, '--data-dir', data], { MOCK_API_KEY: 'sk-test' });
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/running in another process/);

      expect(await exited, stderr).toBe(0);
      const contents = new Set(mock.bodies.map((b) => b.lastUser));
      expect(contents.size).toBe(24 + 12 * 8);
      expect(mock.bodies.length).toBe(contents.size);
    } finally {
      await mock.close();
    }
  });
});
