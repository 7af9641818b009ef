// `judge-lab run` with providers in batch mode: the whole Judge-LS study through the mock's
// Batch API endpoints, with expired and failed entries re-submitted, then exported.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { requestOf } from '../mock-provider/batches';
import { startMockProvider } from '../mock-provider/server';
import { assertBuilt, BIN, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const SAMPLE = LLMBAR_SAMPLE;
const LIMIT = 10;
const items = llmbarSampleItems();

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

const runAsync = (args: string[]) => runCliInProcess(args, { MOCK_API_KEY: 'sk-test' }, { cwd: dir });

describe('judge-lab run in batch mode', () => {
  it('runs the study through both Batch APIs, re-submits expired and failed entries, and exports', async () => {
    const mock = await startMockProvider({ respond: judgeLsResponder(items).respond, wrapText: false });
    const seen = new Set<string>();
    let n = 0;
    mock.setBehavior({
      batchTurnaroundMs: 100,
      batchOutcome: (customId) => {
        const cid = requestOf(customId);
        if (seen.has(cid)) return 'ok';
        seen.add(cid);
        return ++n % 6 === 0 ? 'expired' : n % 11 === 0 ? 'error' : 'ok';
      },
    });
    try {
      const batch = { mode: 'batch', batchPollSeconds: 0.05 };
      const cfg = join(dir, 'batch.json');
      writeFileSync(
        cfg,
        JSON.stringify({
          name: 'cli-batch',
          protocol: 'judge-ls',
          dataset: SAMPLE,
          limit: LIMIT,
          providers: {
            openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', ...batch },
            anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_API_KEY', ...batch },
          },
          transform: { provider: 'openai', model: 'gpt-4.1-mini' },
          judges: [
            { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
            { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
          ],
        }),
      );
      const out = join(dir, 'out');
      const r = await runAsync(['run', cfg, '--out', out, '--data-dir', join(dir, 'data')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/calls go through Batch APIs at batch prices \(live: \$[\d.]+\).*24 h window/);
      // A line per state the progress saw: on a loaded machine the batch may end between two
      // progress events, so which state its first line names depends on the machine, not the code.
      expect(r.stderr).toMatch(/Batch batch_\d+: \d+ requests to gpt-4\.1-mini: (submitting|open|ended)/);
      expect(r.stderr).toMatch(/Batch msgbatch_\d+: \d+ requests to claude-haiku-4-5: ended/);
      expect(r.stdout).toMatch(/Finished "cli-batch"/);
      // No live call at all; every request answered once, the expired and failed ones twice.
      expect(
        mock.log.filter((e) => e.path.endsWith('/chat/completions') || e.path.endsWith('/messages')),
      ).toEqual([]);
      const ids = mock.batches.created().flatMap((b) => b.requests);
      expect(new Set(ids).size).toBe(20 + LIMIT * 16);
      expect(ids.length).toBeGreaterThan(new Set(ids).size);
      const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as {
        failures: unknown[];
        quality: unknown[];
      };
      expect(metrics.failures).toEqual([]);
      expect(metrics.quality.length).toBe(6);
      expect(existsSync(join(out, 'judgments.csv'))).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it('a run killed while the provider held its batch create reply: the next run finds that batch and pays for nothing twice', async () => {
    const mock = await startMockProvider({ respond: judgeLsResponder(items).respond, wrapText: false });
    // Creates are accepted but never answered: the process dies before it learns the batch id.
    mock.setBehavior({ batchTurnaroundMs: 100, batchCreateHold: true });
    try {
      const batch = { mode: 'batch', batchPollSeconds: 0.05 };
      const cfg = join(dir, 'killed.json');
      writeFileSync(
        cfg,
        JSON.stringify({
          name: 'cli-batch-killed',
          protocol: 'judge-ls',
          dataset: SAMPLE,
          limit: 3,
          providers: {
            openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', ...batch },
          },
          transform: { provider: 'openai', model: 'gpt-4.1-mini' },
          judges: [{ label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' }],
        }),
      );
      const args = ['run', cfg, '--out', join(dir, 'out-killed'), '--data-dir', join(dir, 'data-killed')];
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: dir,
        env: { ...process.env, MOCK_API_KEY: 'sk-test' },
        stdio: 'ignore',
      });
      const exited = new Promise((r) => child.once('exit', r));
      for (let i = 0; mock.batches.created().length === 0; i++) {
        if (i > 600) throw new Error('the first run never created a batch');
        await new Promise((r) => setTimeout(r, 50));
      }
      const held = mock.batches.created().map((b) => b.id);
      child.kill('SIGKILL');
      await exited;

      mock.setBehavior({ batchCreateHold: false });
      const r = await runAsync(args);
      expect(r.code, r.stderr).toBe(0);
      const created = mock.batches.created();
      const requests = created.flatMap((b) => b.requests);
      expect(new Set(requests).size).toBe(requests.length); // nothing submitted twice
      expect(requests).toHaveLength(6 + 3 * 8); // 3 items: 6 translations, 3 × 6 verdicts + 3 × 2 tie probes
      // The batches the killed run created were found, polled and read by the second run.
      for (const id of held)
        expect(mock.batches.log.some((e) => e.id === id && e.op === 'retrieve')).toBe(true);
      const metrics = JSON.parse(readFileSync(join(dir, 'out-killed', 'metrics.json'), 'utf8')) as {
        failures: unknown[];
      };
      expect(metrics.failures).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
