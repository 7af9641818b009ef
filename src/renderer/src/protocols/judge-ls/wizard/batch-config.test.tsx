import { describe, expect, it } from 'vitest';
import '../..';
import { initialJudgeLsDraft, JUDGE_LS_ID, withJudgeLsDraft } from './draft';
import { batchCapable, buildConfig, initialDraft, newJudge } from '../../../lib/experiment-config';
import { batchAddress, draftFromPreset } from '../../../lib/providers';

describe('the wizard’s Batch API switch per judge', () => {
  it('sends a switched judge through a batch twin of its provider, leaving the others live', () => {
    const draft = initialDraft();
    draft.datasetId = 1;
    draft.name = 'x';
    draft.judges = [
      { ...newJudge('openai', 'gpt-4.1-mini'), batch: true },
      newJudge('openai', 'gpt-4.1'),
      { ...newJudge('anthropic', 'claude-haiku-4-5'), batch: true },
    ];
    const config = buildConfig(draft) as {
      providers: Record<string, Record<string, unknown>>;
      judges: { provider: string }[];
    };
    expect(config.judges.map((j) => j.provider)).toEqual(['openai-batch', 'openai', 'anthropic-batch']);
    expect(config.providers['openai-batch']).toEqual({ ...config.providers.openai, mode: 'batch' });
    expect(config.providers['anthropic-batch'].mode).toBe('batch');
    expect(config.providers.openai.mode).toBeUndefined();
  });

  it('the Judge-LS transformer has its own switch', () => {
    let draft = initialDraft();
    draft.datasetId = 1;
    draft.name = 'x';
    draft.protocol = JUDGE_LS_ID;
    draft.judges = [newJudge('anthropic', 'claude-haiku-4-5')];
    const own = initialJudgeLsDraft();
    draft = withJudgeLsDraft(draft, {
      ...own,
      transform: { ...own.transform, provider: 'openai', model: 'gpt-4.1-mini', edited: true, batch: true },
    });
    const config = buildConfig(draft) as {
      providers: Record<string, Record<string, unknown>>;
      transform: { provider: string };
      judges: { provider: string }[];
    };
    expect(config.transform.provider).toBe('openai-batch');
    expect(config.judges[0].provider).toBe('anthropic');
    expect(Object.keys(config.providers).sort()).toEqual(['anthropic', 'openai', 'openai-batch']);
    expect(config.providers['openai-batch'].mode).toBe('batch');
  });

  it('offers the switch for hosted OpenAI and Anthropic, the simulated provider, and a server Test connection found a Batch API at', () => {
    expect(batchCapable('openai')).toBe(true);
    expect(batchCapable('anthropic')).toBe(true);
    expect(batchCapable('simulated')).toBe(true);
    expect(batchCapable('ollama')).toBe(false);
    expect(batchCapable('custom')).toBe(false);
    const custom = { ...draftFromPreset('custom'), baseURL: 'http://10.0.0.5:8000/v1' };
    expect(batchCapable('custom', { custom })).toBe(false);
    expect(batchCapable('custom', { custom: { ...custom, batchAt: batchAddress(custom) } })).toBe(true);
    expect(
      batchCapable('custom', {
        custom: { ...custom, batchAt: batchAddress(custom), baseURL: 'http://10.0.0.6:8000/v1' },
      }),
    ).toBe(false);
  });
});
