// Issue 15 item 16: "flagged only" in the variants view keeps whole items, so an item whose ZH
// translation the audit flagged still shows its other language beside it.
import { afterEach, describe, expect, it } from 'vitest';
import { dropsNumbers } from '../mock-provider/judge-ls-responder';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';
import { judgeLsRows } from '../../src/shared/protocols/judge-ls/views';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('variants, flagged only', () => {
  it('keeps every language of a flagged item', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, items, datasetId } = env;
    const limit = items.findIndex((i) => dropsNumbers(i)) + 1;
    expect(limit).toBeGreaterThan(0);
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'flagged only',
        protocol: 'judge-ls',
        dataset: datasetId,
        limit,
        providers: {
          o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 16 },
        },
        transform: { provider: 'o', model: 'gpt-4.1-mini' },
        judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const flagged = judgeLsRows.variants(
      await core.call('experiments.protocolView', {
        experimentId: id,
        view: 'variants',
        query: { flaggedOnly: true },
      }),
    );
    const item = items[limit - 1];
    const mine = flagged.filter((v) => v.itemId === item.id);
    // ZH lost its numbers (flagged); LS did not, and is shown all the same.
    expect(mine.map((v) => [v.language, v.reasons.length > 0]).sort()).toEqual([
      ['LS', false],
      ['ZH', true],
    ]);
    // Items with nothing flagged stay out.
    expect(new Set(flagged.map((v) => v.itemId)).size).toBeLessThan(limit);
  });
});
