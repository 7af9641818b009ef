// A keyless simulated Judge-LS study made through the served API (the llmbar sample, one strong
// judge), and the wait for a started run to finish, as the paper-kit e2e tests use them.
import { expect } from 'vitest';
import { callApi, type ServeHandle } from './serve';

export async function createSimJudgeLs(
  server: ServeHandle,
  name: string,
  limit = 4,
  /** Judges besides the strong one (e.g. a noisy one, so there are flips to browse). */
  moreJudges: { label: string; provider: 'sim'; model: string }[] = [],
): Promise<number> {
  const { dataset } = await callApi<{ dataset: { id: number } }>(server, 'datasets.loadSample', {
    sampleId: 'llmbar',
  });
  const { id } = await callApi<{ id: number }>(server, 'experiments.create', {
    config: {
      name,
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong' }, ...moreJudges],
    },
  });
  return id;
}

/** Starts the run and polls (never a fixed sleep) until it has finished. */
export async function runToFinished(server: ServeHandle, experimentId: number): Promise<void> {
  await callApi(server, 'experiments.start', { experimentId });
  await expect
    .poll(
      async () =>
        (await callApi<{ status: string }>(server, 'experiments.progress', { experimentId })).status,
      { timeout: 240_000, interval: 500 },
    )
    .toBe('finished');
}
