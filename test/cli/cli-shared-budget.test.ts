// One rate budget per model across processes: two `judge-lab run` processes on one data folder,
// two experiments on the same model, a mock enforcing the model's limit per second. Each run
// takes its share of the limit through the store, so together they stay within it (≤ 1% 429s)
// and never send faster than the limit. How long they take is printed, not asserted (it depends on
// the machine's load).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider } from '../mock-provider/server';
import { assertBuilt, runCliAsync, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const SAMPLE = LLMBAR_SAMPLE;
const items = llmbarSampleItems();
const RPM = 1200;
const LIMIT = 12;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('two processes, one model, one budget', () => {
  it('two CLI runs on the same model share its limit: ≤ 1% 429s, never above the limit together', async () => {
    const mock = await startMockProvider({
      respond: judgeLsResponder(items).respond,
      latencyMs: [40, 80],
      wrapText: false,
      rpm: RPM,
      // The provider counts per second: a process taking the whole limit next to another is refused.
      burstSeconds: 1,
      logBodies: false,
    });
    try {
      const data = join(dir, 'data');
      const config = (name: string, subset: string) => {
        const file = join(dir, `${name}.json`);
        writeFileSync(
          file,
          JSON.stringify({
            name,
            protocol: 'judge-ls',
            dataset: SAMPLE,
            subsets: [subset],
            limit: LIMIT,
            providers: {
              p: {
                kind: 'openai',
                baseURL: `${mock.url}/v1`,
                apiKeyEnv: 'MOCK_API_KEY',
                rpm: RPM,
                concurrency: 16,
              },
            },
            transform: { provider: 'p', model: 'gpt-4.1-mini' },
            judges: [{ label: 'J', provider: 'p', model: 'gpt-4.1-mini' }],
          }),
        );
        return file;
      };
      const start = (file: string) =>
        runCliAsync(['run', file, '--data-dir', data, '--out', `${file}.out`], {
          env: { MOCK_API_KEY: 'sk-test' },
        });
      // The data folder exists already (the app made it): two processes never race to create it.
      expect((await runCliInProcess(['list', '--data-dir', data])).code).toBe(0);
      const [a, b] = await Promise.all([
        start(config('share-a', 'Natural')),
        start(config('share-b', 'Neighbor')),
      ]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const calls = mock.log.filter((e) => e.path.endsWith('/chat/completions'));
      const answered = calls.filter((e) => e.status === 200);
      const limited = calls.filter((e) => e.status === 429).length;
      // Per experiment: 2 translations and 8 verdicts per item.
      expect(answered).toHaveLength(2 * LIMIT * 10);
      expect(limited / calls.length).toBeLessThanOrEqual(0.01);
      const first = Math.min(...calls.map((e) => e.at));
      const last = Math.max(...calls.map((e) => e.endedAt ?? e.at));
      const atLimitMs = (answered.length / RPM) * 60_000;
      const span = last - first;
      console.log(
        `two processes: ${answered.length} calls in ${(span / 1000).toFixed(1)} s (all at the limit: ${(atLimitMs / 1000).toFixed(1)} s), 429s ${limited}/${calls.length}`,
      );
      // Mid-run, while both send, the two together keep to the limit.
      const rate = (from: number, to: number) => calls.filter((e) => e.at >= from && e.at < to).length;
      const mid = first + span / 2;
      expect(rate(mid - 1000, mid + 1000)).toBeLessThanOrEqual((RPM / 60) * 2 * 1.1 + 2);
    } finally {
      await mock.close();
    }
    // Two Node processes load the core and run 240 calls: on a loaded machine that takes minutes.
  }, 240_000);
});
