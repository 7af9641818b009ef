// One in-process Judge Lab for the end-to-end validation (issue 33): the real core on real SQLite
// in a temporary folder, the LLMBar sample loaded once, and the simulated provider without
// latency. A study run here goes through everything a user's does (config validation, the
// queue, the ledger, parsing, the protocol's metrics, its Holm families); nothing of the app is
// replaced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';

/** The simulated provider as a study config names it: no latency, no rate limit worth the name. */
export const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 600_000, concurrency: 32 } };
export const DATASET = 'LLMBar (sample)';
/** Items in the LLMBar sample: a replicate draws its n from these. */
export const LLMBAR_ITEMS = 419;

export interface Lab {
  /** Runs one study to its end and returns its metrics (throws unless it finished). */
  run(config: Record<string, unknown>): Promise<unknown>;
  /**
   * Runs one study to its end, then `use` calls the app on it (human ratings: a set, labels, the
   * agreement report) before the study is deleted; returns what `use` returns.
   */
  study<T>(
    config: Record<string, unknown>,
    use: (core: Core, experimentId: number) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
}

export async function openLab(): Promise<Lab> {
  // The bundled bench script runs from a temporary folder, where the app cannot find the
  // samples next to itself; the repository's are the same files.
  process.env.JUDGE_LAB_RESOURCES ??= resolve('resources');
  const dir = mkdtempSync(join(tmpdir(), 'judge-lab-e2e-'));
  const core = new Core({ dataDir: dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  let count = 0;
  const study = async <T>(
    config: Record<string, unknown>,
    use: (c: Core, experimentId: number) => Promise<T>,
  ): Promise<T> => {
    const { id } = await core.call('experiments.create', {
      config: { providers: SIM, dataset: DATASET, name: `e2e-${++count}`, ...config },
    });
    try {
      const { status } = await core.experiments.runToEnd(id);
      if (status !== 'finished') throw new Error(`study ${count} ended ${status}`);
      return await use(core, id);
    } finally {
      // A run's rows (its annotation sets too) are not needed again: keeping the database small
      // keeps later runs as cheap.
      await core.call('experiments.delete', { experimentId: id });
      // The ledger keeps a request for good, the study gone or not (an answer is never paid
      // twice). A replicate's requests are its own (its judge's name is unique to it), so the lab
      // drops them with the study: grown to ~10^5 rows over a validation, the ledger made each
      // later study's inserts dearer (a tenth of a cell's CPU). Rows another study still points
      // at stay; the foreign keys refuse anything else.
      core.db
        .prepare(
          'DELETE FROM requests WHERE NOT EXISTS (SELECT 1 FROM experiment_tasks t WHERE t.request_id = requests.id)',
        )
        .run();
    }
  };
  return {
    run: (config) =>
      study(
        config,
        async (c, experimentId) => (await c.call('experiments.results', { experimentId })).metrics,
      ),
    study,
    async close() {
      await core.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A replicate's sampling seed for the config (`seed` takes 0 … 2³¹ − 1). */
export const sampleSeed = (seed: number) => seed % 2 ** 31;

/**
 * A judge model name unique to the replicate: the simulated provider seeds every decision
 * (which items carry the planted effect, each ask's noise) from the model name and the request,
 * so another name is an independent draw; `tail` is the planted effect's suffix.
 */
export const replicateModel = (seed: number, tail: string) => `sim-judge-strong-r${seed.toString(36)}${tail}`;
