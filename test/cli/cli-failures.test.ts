import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const SAMPLE = LLMBAR_SAMPLE;
const LIMIT = 4;
const KEYS = { MOCK_OPENAI_KEY: 'sk-test-cli', MOCK_ANTHROPIC_KEY: 'sk-ant-cli' };
const items = llmbarSampleItems();

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

/** Anthropic's outage tolerance is short (1 s) unless `anthropicTolerance` says otherwise (null: the default). */
function writeConfig(
  name: string,
  url: string,
  extra: Record<string, unknown> = {},
  anthropicTolerance: number | null = 1,
): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      protocol: 'judge-ls',
      dataset: SAMPLE,
      limit: LIMIT,
      providers: {
        openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 4 },
        anthropic: {
          kind: 'anthropic',
          baseURL: url,
          apiKeyEnv: 'MOCK_ANTHROPIC_KEY',
          concurrency: 4,
          outageToleranceSeconds: anthropicTolerance ?? undefined,
        },
      },
      transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
      judges: [
        { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
        { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
      ],
      ...extra,
    }),
  );
  return file;
}

const runAsync = (args: string[]) => runCliInProcess(args, KEYS, { cwd: dir });

async function mockFor(latency: [number, number] = [0, 0]): Promise<MockProvider> {
  return startMockProvider({ respond: judgeLsResponder(items).respond, latencyMs: latency, wrapText: false });
}

const JUDGE_CALLS = LIMIT * 8;

describe('judge-lab run with failing calls', () => {
  it('exits 3 when a provider stayed down past its tolerance, says so, and --retry-failed sends those calls again', async () => {
    const mock = await mockFor();
    try {
      // The Anthropic judge's server drops every connection: it is down for this run.
      mock.setBehavior({ faultFor: (req) => (req.api === 'anthropic' ? 'drop' : undefined) });
      const cfg = writeConfig('outage', mock.url);
      const args = ['run', cfg, '--out', join(dir, 'out-outage'), '--data-dir', join(dir, 'data-outage')];
      const first = await runAsync(args);
      expect(first.code, first.stderr).toBe(3);
      expect(first.stdout).toMatch(/Finished "outage"/);
      expect(first.stdout).toContain(`Failed calls: ${JUDGE_CALLS} (connection ${JUDGE_CALLS}).`);
      expect(first.stdout).toMatch(
        new RegExp(`${JUDGE_CALLS} failed for infrastructure reasons \\(connection ${JUDGE_CALLS}\\)`),
      );
      expect(first.stdout).toContain(`judge-lab run --retry-failed ${cfg} --out`);
      expect(first.stderr).toMatch(
        /Waiting: claude-haiku-4-5 \(.*\): Provider unreachable since \d\d:\d\d:\d\d/,
      );
      expect(first.stderr).toMatch(/calls failed for infrastructure reasons; exit code 3/);
      const sentToClaude = () => mock.bodies.filter((b) => b?.api === 'anthropic').length;
      // Probing, not hammering: a few calls went to the dead server, not one per call and attempt.
      expect(sentToClaude()).toBeLessThan(JUDGE_CALLS);

      // The same command again sends nothing new and still says what to do.
      const sentBefore = mock.bodies.length;
      const again = await runAsync(args);
      expect(again.code).toBe(3);
      expect(mock.bodies.length).toBe(sentBefore);
      expect(again.stdout).toContain('--retry-failed');

      // The server is back: --retry-failed sends exactly the failed calls, once each.
      mock.setBehavior({ faultFor: undefined });
      const claudeBefore = sentToClaude();
      const retry = await runAsync([...args, '--retry-failed']);
      expect(retry.code, retry.stderr).toBe(0);
      expect(retry.stderr).toContain(`Sending ${JUDGE_CALLS} failed calls again.`);
      expect(retry.stdout).not.toMatch(/Failed calls/);
      expect(mock.bodies.length - sentBefore).toBe(JUDGE_CALLS);
      expect(sentToClaude() - claudeBefore).toBe(JUDGE_CALLS);
      const list = await runCliInProcess(['list', '--data-dir', join(dir, 'data-outage')]);
      expect(list.stdout).toMatch(/outage\s+finished\s+(\d+)\/\1 calls done/);
    } finally {
      await mock.close();
    }
  });

  // Issue 40 item 14: a rejected key is a provider reason (README, exit codes): 3, not 1.
  it('exits 3 when the provider rejects the key (401), naming the refusal', async () => {
    const mock = await startMockProvider({
      respond: judgeLsResponder(items).respond,
      wrapText: false,
      apiKey: 'sk-the-right-key',
    });
    try {
      const cfg = writeConfig('rejected-key', mock.url);
      const r = await runAsync([
        'run',
        cfg,
        '--out',
        join(dir, 'out-rejected-key'),
        '--data-dir',
        join(dir, 'data-rejected-key'),
      ]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/Run did not finish: .*401|Run did not finish: .*(key|auth)/i);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await mock.close();
    }
  }, 300_000);

  it('waits out a provider that is down for a few seconds and finishes with exit 0', async () => {
    const mock = await mockFor([5, 15]);
    try {
      const cfg = writeConfig('short-outage', mock.url, { limit: 8 }, null);
      const run = runAsync([
        'run',
        cfg,
        '--out',
        join(dir, 'out-short'),
        '--data-dir',
        join(dir, 'data-short'),
      ]);
      await expect.poll(() => mock.log.length, { interval: 5, timeout: 30_000 }).toBeGreaterThan(30);
      await mock.goDown();
      await new Promise((r) => setTimeout(r, 3000));
      await mock.comeBack();
      const r = await run;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/Waiting: .*Provider unreachable since \d\d:\d\d:\d\d, retrying every \d+ s/);
      expect(r.stderr).toMatch(/Sending again: /);
      expect(r.stdout).not.toMatch(/Failed calls/);
    } finally {
      await mock.close();
    }
  });

  it('exits 0 when only unusable answers failed, and does not suggest --retry-failed', async () => {
    const mock = await mockFor();
    try {
      // One item's judgments are always answered with prose instead of JSON.
      const bad = items[1].instruction.slice(0, 40);
      mock.setBehavior({
        faultFor: (req) =>
          req.schemaName === 'pairwise_verdict' && req.lastUser.includes(bad) ? 'malformed' : undefined,
      });
      const cfg = writeConfig('unparseable', mock.url, {
        maxParseRetries: 0,
        judges: [{ label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' }],
      });
      const r = await runAsync([
        'run',
        cfg,
        '--out',
        join(dir, 'out-unp'),
        '--data-dir',
        join(dir, 'data-unp'),
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Failed calls: \d+ \(unparseable \d+\)\./);
      expect(r.stdout).toMatch(/Unusable answers \(unparseable \d+\) are recorded with their raw text/);
      expect(r.stdout).not.toContain('--retry-failed');
    } finally {
      await mock.close();
    }
  });
});
