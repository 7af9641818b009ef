// Config checks of batch mode, and prompt caching in the estimate.
import { afterEach, describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../../src/main/experiments/config';
import { DEFAULT_PRICES } from '../../src/main/providers/pricing';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

const base = {
  name: 'p',
  protocol: 'judge-ls',
  dataset: 1,
  transform: { provider: 'o', model: 'gpt-4.1-mini' },
  judges: [{ label: 'J', provider: 'o', model: 'gpt-4.1-mini' }],
};

const problem = (providers: unknown) => {
  try {
    parseExperimentConfig({ ...base, providers });
  } catch (err) {
    return (err as Error).message;
  }
  return null;
};

describe('batch mode in the config', () => {
  it('is accepted on openai and anthropic providers, with its fallback and poll interval', () => {
    expect(
      problem({ o: { kind: 'openai', mode: 'batch', batchFallback: 'live', batchPollSeconds: 60 } }),
    ).toBeNull();
  });

  it('is accepted on the simulated provider (issue 26 item 7); its settings without it are refused, naming the key', () => {
    expect(problem({ o: { kind: 'simulated', mode: 'batch', batchPollSeconds: 0.5 } })).toBeNull();
    expect(problem({ o: { kind: 'simulated', batchFallback: 'live' } })).toMatch(
      /providers\.o\.batchFallback: only used with "mode": "batch"/,
    );
    expect(problem({ o: { kind: 'recorded', file: 'a.jsonl', mode: 'batch' } })).toMatch(
      /providers\.o\.mode: .*no Batch API/,
    );
    expect(problem({ o: { kind: 'openai', batchFallback: 'live' } })).toMatch(
      /providers\.o\.batchFallback: only used with "mode": "batch"/,
    );
    expect(problem({ o: { kind: 'openai', mode: 'bulk' } })).toMatch(/providers\.o\.mode/);
  });
});

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('prompt caching in the estimate', () => {
  it('a system prompt long enough to be cached is priced as cached input after its first call', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    const config = (judgeSystem?: string) => ({
      ...base,
      name: 'cache',
      dataset: datasetId,
      limit: 10,
      providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
      ...(judgeSystem ? { options: { templates: { judgeSystem } } } : {}),
    });
    const long = `You evaluate responses to instructions. ${'Weigh whether each response does exactly what the instruction asks. '.repeat(110)}`;
    const p = DEFAULT_PRICES['gpt-4.1-mini'];
    const uncached = (r: { inputTokens: number; outputTokens: number }) =>
      (r.inputTokens * p.input + r.outputTokens * p.output) / 1e6;
    const short = await core.call('experiments.estimate', { config: config() });
    const cached = await core.call('experiments.estimate', { config: config(long) });
    for (const r of short.rows) expect(r.costUsd).toBeCloseTo(uncached(r), 12);
    const verdicts = cached.rows.find((r) => r.kind === 'quality')!;
    // 60 verdict calls: the first pays the whole prompt, the other 59 read the rubric at a quarter.
    expect(verdicts.calls).toBe(60);
    expect(verdicts.costUsd).toBeLessThan(uncached(verdicts) * 0.6);
    // The translations have their own (short) system prompt: nothing cached there.
    const transform = cached.rows.find((r) => r.kind === 'transform')!;
    expect(transform.costUsd).toBeCloseTo(uncached(transform), 12);
  });
});

describe('flex beside standard on one server (issue 39)', () => {
  const judges = [
    { label: 'J', provider: 'o', model: 'gpt-4.1-mini' },
    { label: 'F', provider: 'f', model: 'gpt-4.1-mini' },
  ];
  const mixed = (providers: unknown) => {
    try {
      parseExperimentConfig({ ...base, judges, providers });
    } catch (err) {
      return (err as Error).message;
    }
    return null;
  };

  it("is refused, naming the later provider's serviceTier: one lane would send both at the first one's tier", () => {
    expect(mixed({ o: { kind: 'openai' }, f: { kind: 'openai', serviceTier: 'flex' } })).toMatch(
      /providers\.f\.serviceTier: "flex" differs from "default" of provider "o" on the same server \(openai:https:\/\/api\.openai\.com\/v1\)/,
    );
    expect(
      mixed({ o: { kind: 'openai', serviceTier: 'flex' }, f: { kind: 'openai', serviceTier: 'default' } }),
    ).toMatch(/providers\.f\.serviceTier: "default" differs from "flex"/);
  });

  it('is accepted with one tier per server, on two servers, and beside a batch-mode twin', () => {
    expect(
      mixed({ o: { kind: 'openai', serviceTier: 'flex' }, f: { kind: 'openai', serviceTier: 'flex' } }),
    ).toBeNull();
    expect(mixed({ o: { kind: 'openai', serviceTier: 'default' }, f: { kind: 'openai' } })).toBeNull();
    expect(
      mixed({
        o: { kind: 'openai', baseURL: 'http://127.0.0.1:8000/v1' },
        f: { kind: 'openai', serviceTier: 'flex' },
      }),
    ).toBeNull();
    expect(
      mixed({ o: { kind: 'openai', mode: 'batch' }, f: { kind: 'openai', serviceTier: 'flex' } }),
    ).toBeNull();
  });
});
