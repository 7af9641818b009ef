// The run's ETA (runner.ts) takes the estimate with `timeOnly`: no prices, and tokens counted only
// on lanes whose limits make them count (a TPM limit; no RPM limit, where answer length decides).
// Its minutes must be the full estimate's whatever the lanes' limits, and an RPM-bound lane must
// cost no token counting at all (that was a sixth of a simulated study's CPU).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { estimateExperiment } from '../../src/main/experiments/estimate';
import { DEFAULT_TEMPLATES } from '../../src/main/protocols/judge-ls/prompts';
import { keepTokenizerBetweenEstimates } from '../../src/main/providers/sdk';
import { textsEncoded } from '../../src/main/providers/tokens';
import { mockKeys } from '../helpers/llmbar-mock';
import { tempDir } from '../helpers/tmp';

let core: Core;
let datasetId: number;
let t: ReturnType<typeof tempDir>;
beforeAll(async () => {
  t = tempDir();
  core = new Core({ dataDir: t.dir, door: 'cli', keys: mockKeys() });
  datasetId = (await core.call('datasets.loadSample', { sampleId: 'llmbar' })).dataset.id;
});
afterAll(async () => {
  keepTokenizerBetweenEstimates();
  await core.shutdown();
  t.cleanup();
});

const config = (judge: Record<string, unknown>, limit: number) => ({
  name: 'time-only',
  protocol: 'judge-ls',
  dataset: datasetId,
  limit,
  providers: {
    t: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MOCK_API_KEY', rpm: 500 },
    j: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MOCK_API_KEY', ...judge },
  },
  transform: { provider: 't', model: 'gpt-4.1-mini' },
  judges: [{ label: 'J', provider: 'j', model: 'gpt-4.1' }],
});

describe("the run's time-only estimate", () => {
  const lanes: [string, Record<string, unknown>][] = [
    ['an RPM limit alone', { rpm: 300 }],
    ['a TPM limit that binds', { rpm: 100_000, tpm: 20_000 }],
    ['no RPM limit (answer length and concurrency decide)', { concurrency: 4 }],
  ];
  for (const [name, judge] of lanes)
    it(`has the full estimate's minutes on a judge lane with ${name}`, () => {
      const exp = core.experiments.catalogue.draft(config(judge, 12));
      const full = estimateExperiment(core.db, exp, null, { skipFailed: true });
      const timeOnly = estimateExperiment(core.db, exp, null, { skipFailed: true, timeOnly: true });
      expect(full.minutesAtRateLimits).toBeGreaterThan(0);
      expect(timeOnly.minutesAtRateLimits).toBeCloseTo(full.minutesAtRateLimits, 12);
    });

  it('encodes no text on RPM-bound lanes, and does on a TPM-bound one', () => {
    // Words no test counted before: whatever counts them encodes them here.
    const fresh = (judge: Record<string, unknown>, seed: string) =>
      core.experiments.catalogue.draft({
        ...config(judge, 40),
        options: {
          templates: {
            judgeSystem: `${DEFAULT_TEMPLATES.judgeSystem}\n${seed}x${Date.now().toString(36)}zq`,
          },
        },
      });
    const before = textsEncoded();
    const rpmBound = estimateExperiment(core.db, fresh({ rpm: 300 }, 'rpmonly'), null, { timeOnly: true });
    expect(rpmBound.minutesAtRateLimits).toBeGreaterThan(0);
    expect(textsEncoded()).toBe(before);
    estimateExperiment(core.db, fresh({ rpm: 300, tpm: 20_000 }, 'tpmbound'), null, { timeOnly: true });
    expect(textsEncoded()).toBeGreaterThan(before);
  });
});
