import { afterEach, describe, expect, it } from 'vitest';
import type { ExperimentProgress } from '../../src/shared/experiments';
import { ZH_TAG } from '../mock-provider/judge-ls-responder';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const ITEMS = 6;
/** Judge-LS per item: EN, ZH and LS verdicts in both orders, and two tie probes. */
const VERDICTS_PER_ITEM = 8;

describe('pipelined stages', () => {
  it("sends an item's ZH verdict as soon as its variant is stored, before the last translation is answered", async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    mock.setBehavior({ latencyMs: [20, 40] });
    // Two endpoints (two base URLs of the one mock): the translator's lane sends about two
    // calls a second, one at a time; the judge's lane is fast.
    const port = new URL(mock.url).port;
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'pipelined',
        protocol: 'judge-ls',
        dataset: datasetId,
        limit: ITEMS,
        providers: {
          slow: {
            kind: 'openai',
            baseURL: `http://localhost:${port}/v1`,
            apiKeyEnv: 'MOCK_API_KEY',
            rpm: 120,
            concurrency: 1,
          },
          fast: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 8 },
        },
        transform: { provider: 'slow', model: 'gpt-4.1-mini' },
        judges: [{ label: 'J', provider: 'fast', model: 'claude-haiku-4-5' }],
      },
    });
    await core.call('experiments.start', { experimentId: id });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');

    const translations = mock.log.filter((e) => e.model === 'gpt-4.1-mini');
    const verdicts = mock.log.filter((e) => e.model === 'claude-haiku-4-5');
    expect(translations).toHaveLength(ITEMS * 2);
    const lastTranslationAnswered = Math.max(...translations.map((e) => e.endedAt ?? Infinity));
    const zhVerdicts = verdicts.filter((e) => e.lastUser?.includes(ZH_TAG));
    expect(zhVerdicts.length).toBeGreaterThan(0);
    const firstZhSent = Math.min(...zhVerdicts.map((e) => e.at));
    // With a round barrier the first ZH verdict waits for every translation (~6 s here).
    expect(firstZhSent).toBeLessThan(lastTranslationAnswered);

    // Every verdict was sent once and stored once.
    expect(verdicts).toHaveLength(ITEMS * VERDICTS_PER_ITEM);
    expect(new Set(verdicts.map((e) => e.lastUser)).size).toBe(ITEMS * VERDICTS_PER_ITEM);
    const stored = core.db
      .prepare(
        `SELECT COUNT(*) AS n, COUNT(DISTINCT task_key) AS keys FROM task_results
         WHERE experiment_id = ? AND stage = 'judge' AND status = 'ok'`,
      )
      .get(id) as { n: number; keys: number };
    expect(stored).toEqual({ n: ITEMS * VERDICTS_PER_ITEM, keys: ITEMS * VERDICTS_PER_ITEM });
    const progress = await core.call('experiments.progress', { experimentId: id });
    expect(progress.phases.judge).toMatchObject({
      total: ITEMS * VERDICTS_PER_ITEM,
      done: ITEMS * VERDICTS_PER_ITEM,
    });
  });

  it('keeps time left truthful as later tasks join the run (not counted twice)', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    mock.setBehavior({ latencyMs: [10, 20] });
    const port = new URL(mock.url).port;
    const items = 3;
    // Translations are quick; the judge (24 verdicts at 4 a second, ~6 s) decides the time.
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'pipelined-eta',
        protocol: 'judge-ls',
        dataset: datasetId,
        limit: items,
        providers: {
          t: { kind: 'openai', baseURL: `http://localhost:${port}/v1`, apiKeyEnv: 'MOCK_API_KEY' },
          j: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', rpm: 240 },
        },
        transform: { provider: 't', model: 'gpt-4.1-mini' },
        judges: [{ label: 'J', provider: 'j', model: 'claude-haiku-4-5' }],
      },
    });
    const etas: { at: number; eta: number }[] = [];
    core.on('run.progress', (p: ExperimentProgress) => {
      if (p.experimentId === id && p.status === 'running' && p.etaSeconds !== null)
        etas.push({ at: Date.now(), eta: p.etaSeconds });
    });
    await core.call('experiments.start', { experimentId: id });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const end = Date.now();
    expect(etas.length).toBeGreaterThan(5);
    // The first figure is the estimate (eta-agrees.test.ts). ZH and LS verdicts joining the
    // judge's lane later are in that estimate already: no figure is added on top of it, so the
    // time left counts down from there, and it ends near the time really left.
    const [first] = etas;
    for (const { at, eta } of etas) expect(eta).toBeLessThanOrEqual(first.eta - (at - first.at) / 1000 + 2.5);
    for (const { at, eta } of etas.filter((e) => end - e.at < 3000))
      expect(eta).toBeLessThanOrEqual((end - at) / 1000 + 2);
  });
});
