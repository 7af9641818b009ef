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
/** The judge's lane in the ETA test: 4 verdicts a second. */
const JUDGE_RPM = 240;

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
          j: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', rpm: JUDGE_RPM },
        },
        transform: { provider: 't', model: 'gpt-4.1-mini' },
        judges: [{ label: 'J', provider: 'j', model: 'claude-haiku-4-5' }],
      },
    });
    // What the ETA is made of, seen from outside: the engine's figure (the calls it holds, lane by
    // lane, at each lane's observed rate capped at its limit) or the estimate of everything left
    // counted down since it was taken, whichever is larger; never their sum. The rate is taken
    // from the run's own progress (judge answers per second since before the start), not held
    // against the clock: a loaded machine slows the run, and that run's ETA with it.
    const seen: {
      at: number;
      eta: number;
      judgeLeft: number;
      judgeDone: number;
      translationsLeft: number;
    }[] = [];
    const left = (g: { pending: number; inFlight: number } | undefined) => (g ? g.pending + g.inFlight : 0);
    core.on('run.progress', (p: ExperimentProgress) => {
      if (p.experimentId !== id || p.status !== 'running' || p.etaSeconds === null) return;
      seen.push({
        at: Date.now(),
        eta: p.etaSeconds,
        judgeLeft: left(p.phases.judge),
        judgeDone: p.phases.judge?.done ?? 0,
        translationsLeft: left(p.phases.transform),
      });
    });
    // Taken before the engine starts: rates from here are at most the engine's.
    const startedAt = Date.now();
    await core.call('experiments.start', { experimentId: id });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    expect(seen.length).toBeGreaterThan(5);
    // The first figure is the estimate (eta-agrees.test.ts); later estimates are of less work.
    const [first] = seen;
    // Once every translation is answered the engine's figure is the judge's lane alone. The ZH
    // and LS verdicts that joined are in it and in the estimate: the ETA is the larger of the
    // two. Counted twice (added on top), it exceeds both while both are above zero.
    const checked = seen.filter((s) => s.translationsLeft === 0 && s.judgeLeft > 0);
    expect(checked.length).toBeGreaterThan(1);
    for (const s of checked) {
      // Answers in the engine's window (its last minute) are at least those since the first
      // figure seen 58 s before; the window is at most 60 s and at most the time since startedAt.
      const windowStart = seen.find((o) => o.at >= s.at - 58_000 && s.at - 58_000 > startedAt);
      const answered = s.judgeDone - (windowStart?.judgeDone ?? 0);
      const windowSeconds = Math.min(60, Math.max(1, (s.at - startedAt) / 1000));
      const perSecond = Math.min(JUDGE_RPM / 60, answered / windowSeconds);
      const engineAtMost = perSecond > 0 ? s.judgeLeft / perSecond : s.judgeLeft / (JUDGE_RPM / 60);
      expect(s.eta).toBeLessThanOrEqual(Math.max(first.eta, engineAtMost) + 1);
    }
  });
});
