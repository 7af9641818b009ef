// Issue 20 item 6: outside Judge-LS the run view showed "Translation 0 of 0", a "Judging" total
// that was not the per-judge rows' sum, and no row for the generator's calls. Progress now names
// the protocol's stages in order, and every count (per stage, per judge, failures) is the
// ledger's. Two runs on the keyless simulated provider with maxParseRetries 0, so its
// unparseable answers (a fixed share of draws) end as failed calls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { ExperimentProgress } from '../../src/shared/experiments';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let core: Core;
let cleanup: () => void;
const sim = { demo: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } };

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

interface LedgerCount {
  stage: string;
  who: string;
  total: number;
  done: number;
  failed: number;
}

/** The ledger's own counts per stage and per task group, each request once. */
function ledger(experimentId: number): { byStage: Map<string, LedgerCount>; failed: number } {
  const rows = core.db
    .prepare(
      `SELECT t.stage AS stage, t.meta_json AS meta, r.id AS id, r.status AS status
         FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
        WHERE t.experiment_id = ?`,
    )
    .all(experimentId) as { stage: string; meta: string; id: number; status: string }[];
  const byStage = new Map<string, LedgerCount>();
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(`${r.stage}/${r.id}`)) continue;
    seen.add(`${r.stage}/${r.id}`);
    const c = byStage.get(r.stage) ?? { stage: r.stage, who: '', total: 0, done: 0, failed: 0 };
    c.total++;
    if (r.status === 'done') c.done++;
    if (r.status === 'failed') c.failed++;
    byStage.set(r.stage, c);
  }
  const failed = new Set(rows.filter((r) => r.status === 'failed').map((r) => r.id)).size;
  return { byStage, failed };
}

/** Per judge label, each request once, over every stage whose tasks name the judge. */
function ledgerByJudge(experimentId: number): Map<string, { total: number; done: number; failed: number }> {
  const rows = core.db
    .prepare(
      `SELECT t.meta_json AS meta, r.id AS id, r.status AS status
         FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
        WHERE t.experiment_id = ?`,
    )
    .all(experimentId) as { meta: string; id: number; status: string }[];
  const out = new Map<string, { total: number; done: number; failed: number }>();
  const seen = new Set<string>();
  for (const r of rows) {
    const judge = (JSON.parse(r.meta) as { judge?: string }).judge;
    if (!judge || seen.has(`${judge}/${r.id}`)) continue;
    seen.add(`${judge}/${r.id}`);
    const c = out.get(judge) ?? { total: 0, done: 0, failed: 0 };
    c.total++;
    if (r.status === 'done') c.done++;
    if (r.status === 'failed') c.failed++;
    out.set(judge, c);
  }
  return out;
}

function expectAgrees(p: ExperimentProgress, experimentId: number, stages: string[], judges: string[]): void {
  expect(p.stages).toEqual(stages);
  const { byStage, failed } = ledger(experimentId);
  // Every stage has a row, and only the protocol's stages.
  expect(Object.keys(p.phases).sort()).toEqual([...byStage.keys()].sort());
  for (const [stage, c] of byStage) {
    expect(p.phases[stage], stage).toMatchObject({ total: c.total, done: c.done, failed: c.failed });
  }
  const byJudge = ledgerByJudge(experimentId);
  expect(Object.keys(p.judges)).toEqual(judges);
  for (const j of judges) expect(p.judges[j], j).toMatchObject(byJudge.get(j)!);
  // "N failed" on the stage rows and "Failed calls" of the failures panel are one number.
  const stageFailed = Object.values(p.phases).reduce((n, g) => n + g.failed, 0);
  const reasons = Object.values(p.failuresByReason).reduce((n, v) => n + v, 0);
  expect(stageFailed).toBe(failed);
  expect(reasons).toBe(failed);
}

describe('run progress from the protocol’s stages, agreeing with the ledger', () => {
  it('reference sensitivity: generate, calibrate and judge, the judges summed over calibration and judging', async () => {
    await core.call('datasets.import', {
      fileName: 'tydiqa-en-ar-te.jsonl',
      name: 'tydiqa',
      contentBase64: readFileSync(join(ROOT, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl')).toString(
        'base64',
      ),
    });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'refsens-progress',
        protocol: 'reference-sensitivity',
        dataset: 'tydiqa',
        limit: 12,
        maxParseRetries: 0,
        providers: sim,
        generators: [{ label: 'Sim generator', provider: 'demo', model: 'sim-generator' }],
        judges: [
          { label: 'Sim strong', provider: 'demo', model: 'sim-judge-strong' },
          { label: 'Sim weak', provider: 'demo', model: 'sim-judge-weak' },
        ],
      },
    });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const p = await core.call('experiments.progress', { experimentId: id });
    expect(ledger(id).failed).toBeGreaterThan(0);
    expectAgrees(p, id, ['generate', 'calibrate', 'judge'], ['Sim strong', 'Sim weak']);
    // The generator's calls have their row; the judges' rows add up to calibration + judging.
    expect(p.phases.generate.total).toBeGreaterThan(0);
    const judged = p.phases.calibrate.total + p.phases.judge.total;
    expect(p.judges['Sim strong'].total + p.judges['Sim weak'].total).toBe(judged);
    // The last live snapshot said the same per judge (it summed stages instead of keeping the last).
    for (const j of ['Sim strong', 'Sim weak']) expect(final.judges[j].total).toBe(p.judges[j].total);
    expect(final.stages).toEqual(['generate', 'calibrate', 'judge']);
  });

  it('bias probes: rewrite and judge, the rewriter not counted as a judge', async () => {
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'bias-progress',
        protocol: 'bias-probes',
        dataset: 'LLMBar (sample)',
        limit: 16,
        maxParseRetries: 0,
        mode: 'pointwise',
        providers: sim,
        rewriter: { provider: 'demo', model: 'sim-rewriter' },
        judges: [{ label: 'Sim judge', provider: 'demo', model: 'sim-judge' }],
      },
    });
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    expect(Object.keys(final.judges)).toEqual(['Sim judge']);
    const p = await core.call('experiments.progress', { experimentId: id });
    expect(ledger(id).failed).toBeGreaterThan(0);
    expectAgrees(p, id, ['rewrite', 'judge'], ['Sim judge']);
  });
});
