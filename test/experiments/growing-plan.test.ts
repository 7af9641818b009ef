// A protocol bug: every stored answer makes the plan one task longer, forever. Tasks that
// join a run as answers arrive must not turn that into a run that never ends.
import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolPlugin } from '../../src/main/protocols/plugin';
import { registerProtocol, unregisterProtocol } from '../../src/main/protocols';
import { taskKey, type ProtocolTask } from '../../src/main/protocols/types';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';
import { pointwisePlugin, SCORE_SCHEMA, type PointwiseConfig } from '../protocols/test-pointwise/plugin';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  unregisterProtocol('test-growing');
});

const growing: ProtocolPlugin = {
  ...(pointwisePlugin as unknown as ProtocolPlugin),
  id: 'test-growing',
  title: 'A plan that keeps growing (test only)',
  stages: [
    {
      ...(pointwisePlugin.stages[0] as unknown as ProtocolPlugin['stages'][number]),
      // One task more than there are answers: each answer plans the next call.
      plan: (exp, db) => {
        const [scorer] = (exp.config as unknown as PointwiseConfig).scorers;
        const done = db
          .prepare("SELECT COUNT(*) FROM requests WHERE status = 'done'")
          .pluck()
          .get() as number;
        return Array.from({ length: done + 1 }, (_, n): ProtocolTask => ({
          key: taskKey(scorer.label, n),
          stage: 'score',
          meta: { scorer: scorer.label, itemId: exp.items[0].id, sourceId: String(n) },
          request: {
            provider: scorer.provider,
            model: scorer.model,
            system: 'Score the response from 1 (useless) to 5 (excellent).',
            messages: [{ role: 'user', content: `Call ${n}` }],
            temperature: 0,
            response: SCORE_SCHEMA,
          },
        }));
      },
    },
  ],
};

describe('a plan that keeps growing', () => {
  it('stops after as many plans as rounds allow, leaving the rest unsent (paused), instead of running forever', async () => {
    registerProtocol(growing);
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    mock.setBehavior({ respond: () => ({ score: 3, reason: 'mock' }) });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'growing',
        protocol: 'test-growing',
        dataset: datasetId,
        limit: 1,
        providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
        scorers: [{ label: 'S', provider: 'o', model: 'gpt-4.1-mini' }],
      },
    });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('paused');
    const sent = mock.log.filter((e) => e.model === 'gpt-4.1-mini').length;
    // One call per plan, 20 plans deep (the runner's MAX_ROUNDS), as the rounds of old allowed.
    expect(sent).toBe(20);
    expect(final.message ?? '').toMatch(/plan kept growing after 20 rounds .* planned calls were not sent/);
  });
});
