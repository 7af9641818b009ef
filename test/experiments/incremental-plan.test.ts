// Plans within a run render only what is new (PlanContext): a two-stage protocol defined here
// (a draft per item, then a check per stored draft) runs against the mock. The check stage
// counts what it renders, so the test sees each check rendered once when the stage honours the
// context, every call sent once either way, and the last round's progress still counting the
// whole plan, done tasks included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentProgress } from '../../src/shared/experiments';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { registerProtocol, unregisterProtocol } from '../../src/main/protocols';
import type { PlanContext, ProtocolPlugin, StagePlugin } from '../../src/main/protocols/plugin';
import { taskKey, type ProtocolTask } from '../../src/main/protocols/types';
import { listResults } from '../../src/main/store/results';
import { tempDir } from '../helpers/tmp';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { pointwisePlugin, SCORE_SCHEMA } from '../protocols/test-pointwise/plugin';

const ITEMS = 24;
/** Each plan of the check stage: whether it had a context, what it rendered and left out. */
const plans: { ctx: boolean; rendered: number; leftOut: number }[] = [];
let honoursContext = true;

const scoreStage = pointwisePlugin.stages[0];
type Exp = Parameters<typeof scoreStage.plan>[0];

const ask = (content: string) => ({
  provider: 'openai',
  model: 'gpt-4.1-mini',
  system: 'Score from 1 to 5.',
  messages: [{ role: 'user' as const, content }],
  temperature: 0,
  response: SCORE_SCHEMA,
});

const draft: StagePlugin<Exp> = {
  ...scoreStage,
  name: 'draft',
  plan: (exp) =>
    exp.items.map((item): ProtocolTask => ({
      key: taskKey('draft', item.sourceId),
      stage: 'draft',
      meta: { scorer: 'drafter', itemId: item.id, sourceId: item.sourceId },
      request: ask(`Draft: ${item.instruction}`),
    })),
};

const check: StagePlugin<Exp> = {
  ...scoreStage,
  name: 'check',
  plan(exp, db, ctx?: PlanContext) {
    const tasks: ProtocolTask[] = [];
    const seen = { ctx: ctx !== undefined, rendered: 0, leftOut: 0 };
    for (const r of listResults(db, exp.id, 'draft')) {
      if (r.status !== 'ok') continue;
      const key = taskKey('check', r.key);
      if (honoursContext && ctx?.planned(key)) {
        seen.leftOut++;
        continue;
      }
      seen.rendered++;
      tasks.push({
        key,
        stage: 'check',
        meta: { scorer: 'checker', ...(r.meta as object) },
        request: ask(`Check ${r.key}: ${JSON.stringify(r.value)}`),
      });
    }
    plans.push(seen);
    return tasks;
  },
};

const chainPlugin: ProtocolPlugin<Exp> = {
  ...(pointwisePlugin as unknown as ProtocolPlugin<Exp>),
  id: 'test-chain',
  title: 'Draft then check (test only)',
  stages: [draft, check],
};

let core: Core;
let mock: MockProvider;
let cleanup: () => void;

beforeAll(async () => {
  registerProtocol(chainPlugin);
  let dir: string;
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
    engine: { progressIntervalMs: 50 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  // Drafts answer slowly and one at a time, so checks join the round over several plans.
  mock = await startMockProvider({
    latencyMs: [20, 40],
    respond: (req) => ({ score: (req.lastUser.length % 5) + 1, reason: 'mock' }),
  });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  unregisterProtocol('test-chain');
});

async function run(name: string) {
  plans.length = 0;
  mock.log.length = 0;
  const { id } = await core.call('experiments.create', {
    config: {
      name,
      protocol: 'test-chain',
      dataset: 'LLMBar (sample)',
      limit: ITEMS,
      providers: {
        openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 2 },
      },
      // The seam's own keys; every call above names the openai provider.
      scorers: [{ label: 'drafter', provider: 'openai', model: 'gpt-4.1-mini' }],
    },
  });
  let last: ExperimentProgress | null = null;
  core.on('run.progress', (p: ExperimentProgress) => {
    if (p.experimentId === id) last = p;
  });
  await core.call('experiments.start', { experimentId: id });
  const final = await core.experiments.runToEnd(id);
  return { id, final, last: last as ExperimentProgress | null };
}

describe('plans within a run', () => {
  it('render each recorded task once when the stage honours the context, and send every call once', async () => {
    honoursContext = true;
    // Each run's prompts are its own (the name is not in them, so the ledger would reuse the
    // first run's answers): this run goes first.
    const { id, final, last } = await run('honours');
    expect(final.status).toBe('finished');
    // Plans while the round went (a context each time) found the checks already recorded.
    expect(plans.length).toBeGreaterThan(2);
    expect(plans.every((p) => p.ctx)).toBe(true);
    expect(plans.reduce((n, p) => n + p.rendered, 0)).toBe(ITEMS);
    expect(plans.some((p) => p.leftOut > 0)).toBe(true);
    // Every draft and check sent once.
    const sent = mock.log.map((e) => e.lastUser);
    expect(sent).toHaveLength(2 * ITEMS);
    expect(new Set(sent).size).toBe(2 * ITEMS);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ planned: 2 * ITEMS, ok: 2 * ITEMS, pending: 0 });
    // The last round counts the whole plan, done tasks included, not only what it added.
    expect(last?.phases.draft).toMatchObject({ total: ITEMS, done: ITEMS });
    expect(last?.phases.check).toMatchObject({ total: ITEMS, done: ITEMS });
  });

  it('still records and sends each task once when the stage renders everything again', async () => {
    honoursContext = false;
    // Answers of the first run are in the ledger: this run's are cache hits, so it re-plans
    // from stored drafts; nothing may be sent again and every task must still be counted.
    const { id, final, last } = await run('ignores');
    expect(final.status).toBe('finished');
    expect(plans.some((p) => p.rendered > 0 && p.ctx)).toBe(true);
    expect(mock.log).toHaveLength(0);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ planned: 2 * ITEMS, ok: 2 * ITEMS, pending: 0 });
    // A stage whose answers are all in the ledger is still counted (as cache hits).
    expect(last?.phases.check).toMatchObject({ total: ITEMS, done: ITEMS, cacheHits: ITEMS });
  });
});
