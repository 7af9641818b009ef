import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider } from '../mock-provider/server';
import { assertBuilt, CHILD_WAIT_MS, runCli, runCliAsync } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const SAMPLE = LLMBAR_SAMPLE;
const items = llmbarSampleItems();

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
      const env = { MOCK_API_KEY: 'sk-test' };
      const running = runCliAsync(['run', config, '--data-dir', data, '--out', join(dir, 'out')], { env });
      await expect.poll(() => mock.log.length, { timeout: CHILD_WAIT_MS }).toBeGreaterThan(10);
      // The run must still be going while the other two processes start, however slowly a
      // loaded machine starts them: its answers wait until they are done.
      mock.hold();

      // While it runs: list (opens the store) and try the same run again.
      const list = await runCliAsync(['list', '--data-dir', data], { env });
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/concurrent\s+running/);
      const second = runCli(['run', config, '--data-dir', data], { MOCK_API_KEY: 'sk-test' });
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/running in another process/);
      // The slow answers only kept the run going until the hold; the rest need not wait.
      mock.setBehavior({ latencyMs: [20, 60] });
      mock.stopHolding();

      const done = await running;
      expect(done.code, done.stderr).toBe(0);
      const contents = new Set(mock.bodies.map((b) => b.lastUser));
      expect(contents.size).toBe(24 + 12 * 8);
      expect(mock.bodies.length).toBe(contents.size);
    } finally {
      await mock.close();
    }
  });

  it('two runs of experiments with overlapping plans, started seconds apart, both finish and pay each call once', async () => {
    const responder = judgeLsResponder(items);
    const mock = await startMockProvider({
      respond: responder.respond,
      latencyMs: [20, 60],
      wrapText: false,
    });
    try {
      const data = join(dir, 'data-overlap');
      const env = { MOCK_API_KEY: 'sk-test' };
      // Same dataset, translator and judge: the second experiment's calls are the first's.
      const config = (name: string, limit: number) => {
        const file = join(dir, `${name}.json`);
        writeFileSync(
          file,
          JSON.stringify({
            name,
            protocol: 'judge-ls',
            dataset: SAMPLE,
            limit,
            providers: {
              p: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 3 },
            },
            transform: { provider: 'p', model: 'gpt-4.1-mini' },
            judges: [{ label: 'J', provider: 'p', model: 'gpt-4.1-mini' }],
          }),
        );
        return file;
      };
      const start = (file: string) =>
        runCliAsync(['run', file, '--data-dir', data, '--out', `${file}.out`], { env });
      const first = start(config('overlap-a', 40));
      // Seconds apart: the second run meets calls the first has on the wire, first
      // translations, then verdicts.
      await expect.poll(() => mock.bodies.length, { timeout: CHILD_WAIT_MS, interval: 5 }).toBeGreaterThan(5);
      const second = start(config('overlap-b', 40));
      const [a, b] = await Promise.all([first, second]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(a.stderr + b.stderr).not.toMatch(/IllegalTransition|Error/);

      const db = new Database(join(data, 'judge-lab.sqlite'), { readonly: true });
      const statuses = db.prepare('SELECT status, COUNT(*) AS n FROM requests GROUP BY status').all();
      const experiments = db.prepare('SELECT name, status FROM experiments ORDER BY name').all();
      db.close();
      expect(statuses).toEqual([{ status: 'done', n: 40 * 2 + 40 * 8 }]);
      expect(experiments).toEqual([
        { name: 'overlap-a', status: 'finished' },
        { name: 'overlap-b', status: 'finished' },
      ]);
      // Each call was paid once: no content reached the provider twice.
      const sent = mock.bodies.map((x) => `${x.schemaName}\u0000${x.system}\u0000${x.lastUser}`);
      expect(new Set(sent).size).toBe(40 * 2 + 40 * 8);
      expect(sent.length).toBe(new Set(sent).size);
    } finally {
      await mock.close();
    }
  });
});
