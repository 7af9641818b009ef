// Issue 39: in a one-study process (`judge-lab run`) an estimate's counts come from a worker that
// ends, so the tokenizer's tables never enter the run's heap. Judge-LS's expected answer length of
// a translation counted its texts through the process-wide counter instead of the estimate's, which
// had counted only their words: every prompt was tokenized again in this thread, the tables loaded
// for it (0.27 s of the 419 × 3 study's start in a profile, and their memory for the rest of the run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keepTokenizerBetweenEstimates,
  releaseTokenizerAfterEstimates,
  tokenizerLoads,
} from '../../src/main/providers/sdk';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock;
beforeAll(async () => {
  env = await startLlmbarMock('cli');
});
// The files after this one share its process: it goes back to counting as many-study processes do.
afterAll(async () => {
  keepTokenizerBetweenEstimates();
  await env.close();
});

describe("a one-study process's Judge-LS estimate", () => {
  it('loads no tokenizer tables in this thread, translations included', async () => {
    // The switch `judge-lab run` sets (undone after this file).
    releaseTokenizerAfterEstimates();
    const loadsBefore = tokenizerLoads();
    const estimate = await env.core.call('experiments.estimate', {
      config: {
        name: 'counts-apart',
        protocol: 'judge-ls',
        dataset: env.datasetId,
        limit: 6,
        providers: { p: { kind: 'openai', baseURL: `${env.mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
        transform: { provider: 'p', model: 'gpt-4.1-mini' },
        judges: [{ label: 'J', provider: 'p', model: 'gpt-4.1' }],
      },
    });
    expect(tokenizerLoads()).toBe(loadsBefore);
    const transform = estimate.rows.find((r) => r.kind === 'transform')!;
    expect(transform.calls).toBeGreaterThan(0);
    expect(transform.outputTokens).toBeGreaterThan(transform.calls);
  });
});
