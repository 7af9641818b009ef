// The bundled MT-Bench human set: its labels count as the annotator "majority", and a Judge-LS
// run's EN verdicts (both orders, normalized to the item's outputs) are compared with them.
// Judged by the keyless simulated provider, so no mock server is needed.
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { labelsOf, setItems } from '../../src/main/annotation/store';
import { normalizeChoice } from '../../src/shared/protocols/judge-ls/choice';
import { cohensKappa } from '../../src/shared/stats';
import { tempDir } from '../helpers/tmp';
import { judgeLsRows } from '../../src/shared/protocols/judge-ls/views';

let core: Core;
let cleanup: () => void;
let experimentId: number;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'mtbench-human' });
  expect(dataset.itemCount).toBe(200);
  ({ id: experimentId } = await core.call('experiments.create', {
    config: {
      name: 'mtbench',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 40,
      providers: { demo: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH'] },
      judges: [{ label: 'Sim strong', provider: 'demo', model: 'sim-judge-strong' }],
      tieProbes: false,
    },
  }));
  expect((await core.experiments.runToEnd(experimentId)).status).toBe('finished');
});

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('MT-Bench human majority as an annotator', () => {
  it('stores the gold preferences as "majority" and scores the judge against them', async () => {
    const set = await core.call('annotation.createSet', {
      experimentId,
      size: 30,
      seed: 3,
      goldAsAnnotator: 'majority',
    });
    expect(set.scale).toEqual({ kind: 'preference' });
    expect(set.progress).toEqual([{ annotator: 'majority', labelled: 30, skipped: 0, total: 30 }]);
    const items = setItems(core.db, set.id);
    const gold = new Map<string, string>();
    for (const it of items)
      gold.set(it.itemKey, String((await core.call('items.get', { itemId: it.itemId! })).label));
    for (const l of labelsOf(core.db, set.id)) expect(l.value).toBe(gold.get(l.itemKey));

    // The judge's preference per item, from its EN verdicts in both orders.
    const verdicts = judgeLsRows.judgments(
      await core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { kind: 'quality', status: 'ok' },
      }),
    );
    const judge = new Map<string, string[]>();
    for (const v of verdicts) {
      if (v.language !== 'EN') continue;
      const c = String(normalizeChoice(v.order as 'orig' | 'swap', v.winner!));
      judge.set(v.sourceId, [...(judge.get(v.sourceId) ?? []), c]);
    }
    const pref = (k: string) => {
      const cs = judge.get(k)!;
      return cs.every((c) => c === cs[0]) ? cs[0] : 'tie';
    };
    const keys = items.map((i) => i.itemKey).filter((k) => judge.has(k));
    const report = await core.call('annotation.agreement', { setId: set.id });
    const row = report.judge_human[0];
    expect(row.judge).toBe('Sim strong');
    expect(row.n).toBe(keys.length);
    expect(row.kappa_weights).toBe('none');
    const k = cohensKappa(
      keys.map(pref),
      keys.map((x) => gold.get(x)!),
      'none',
      ['1', '2', 'tie'],
    );
    expect(row.kappa).toBeCloseTo(k.kappa!, 12);
    expect(row.exact_agreement).toBeCloseTo(
      keys.filter((x) => pref(x) === gold.get(x)).length / keys.length,
      12,
    );
    // Judged by the simulated provider: the export says so, as every export of the experiment does.
    const zip = await core.call('annotation.exportZip', { setId: set.id });
    const files = unzipSync(new Uint8Array(Buffer.from(zip.contentBase64, 'base64')));
    const text = (suffix: string) =>
      Buffer.from(Object.entries(files).find(([n]) => n.endsWith(suffix))![1]).toString('utf8');
    expect(JSON.parse(text('manifest.json')).simulated).toBe(true);
    expect(text('tables/judge_human.tex')).toContain('Simulated');
    // One annotator: nothing to say about agreement among people.
    expect(report.inter_annotator.n_annotators).toBe(1);
    expect(report.inter_annotator.krippendorff_alpha).toBeNull();
  });
});
