// Issue 40 item 10 and issue 32 item 7 at the CLI. A judge the early warning paused stops `run`
// (exit 1) with the command that goes on with it; one rerun with --resume-judge sends the rest.
// A run whose every call was rejected does not print a plain "Finished": it names the outcome
// and the reasons. The built CLI, real SQLite, the OpenAI SDK against the mock provider.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const KEYS = { MOCK_OPENAI_KEY: 'sk-test-cli' };
const BROKEN = 'claude-haiku-4-5';
const items = llmbarSampleItems();

let dir: string;
let cleanup: () => void;
let mock: MockProvider;
beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  mock = await startMockProvider({
    respond: judgeLsResponder(items).respond,
    latencyMs: [0, 0],
    wrapText: false,
  });
});
afterAll(async () => {
  await mock.close();
  cleanup();
});

function writeConfig(name: string, extra: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      protocol: 'judge-ls',
      dataset: LLMBAR_SAMPLE,
      limit: 8,
      maxParseRetries: 0,
      providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
      transform: { provider: 'o', model: 'gpt-4.1-mini' },
      ...extra,
    }),
  );
  return file;
}

const run = (args: string[]) => runCliInProcess(args, KEYS, { cwd: dir });

describe('judge-lab run and the early warning', () => {
  it('names --resume-judge when a judge is paused, and one rerun with it goes on to the end', async () => {
    mock.setBehavior({ faultFor: (req) => (req.model === BROKEN ? 'malformed' : undefined) });
    const cfg = writeConfig('paused judge', {
      judges: [
        { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' },
        { label: 'Broken', provider: 'o', model: BROKEN, concurrency: 2 },
      ],
    });
    const args = ['run', cfg, '--data-dir', join(dir, 'data-paused'), '--out', join(dir, 'out-paused')];
    const first = await run(args);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/Broken: \d+ of its first \d+ answers could not be used/);
    expect(first.stderr).toMatch(/--retry-failed .*--resume-judge Broken/);

    // The cause is fixed: one rerun with the flag sends the rest (before, the rerun paused the
    // judge again on its stored answers, and no flag could say otherwise).
    mock.setBehavior({ faultFor: undefined });
    const sent = mock.log.length;
    const again = await run([...args, '--retry-failed', '--resume-judge', 'Broken']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      'Resuming "Broken": the early warning no longer watches this judge in this run.',
    );
    expect(again.stdout).toMatch(/Finished "paused judge"/);
    expect(mock.log.length - sent).toBeGreaterThan(0);
    const list = await runCliInProcess(['list', '--data-dir', join(dir, 'data-paused')]);
    expect(list.stdout).toMatch(/paused judge\s+finished\s+(\d+)\/\1 calls done/);
  });

  it('refuses --resume-judge for a judge the experiment does not have', async () => {
    const cfg = writeConfig('no such judge', {
      judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
    });
    const r = await run(['run', cfg, '--data-dir', join(dir, 'data-nobody'), '--resume-judge', 'Nobody']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/No judge "Nobody"/);
  });
});

describe('judge-lab run when every call is rejected', () => {
  it('says every call failed, with the reason, instead of "Finished"', async () => {
    mock.setBehavior({ faultFor: () => 'bad_request' });
    const file = join(dir, 'rejected.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'rejected',
        protocol: 'self-consistency',
        dataset: LLMBAR_SAMPLE,
        limit: 1,
        providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
        judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini', temperature: 1 }],
        repeats: 2,
        orders: 'one',
      }),
    );
    const data = join(dir, 'data-rejected');
    const r = await run(['run', file, '--data-dir', data, '--out', join(dir, 'out-rejected')]);
    mock.setBehavior({ faultFor: undefined });
    expect(r.stdout).not.toMatch(/Finished "rejected"/);
    expect(r.stdout).toMatch(
      /Run "rejected" failed: every call failed\. Every call failed \(2 of 2\): there are no answers\. Reasons: bad_request 2 \(The provider rejected the request \(HTTP 400\)/,
    );
    // Rejected requests are an infrastructure failure: exit 3, with the retry command.
    expect(r.code).toBe(3);
    const list = await runCliInProcess(['list', '--data-dir', data]);
    expect(list.stdout).toMatch(/rejected\s+failed: every call failed\s+0\/2 calls done, 2 failed/);
  });
});
