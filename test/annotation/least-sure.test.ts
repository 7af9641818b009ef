// The hybrid as a workflow (issue 36): the units the judge is least sure about, found in an
// experiment's stored answers and sent to people as an annotation set in one call. Runs the keyless
// simulated provider on the LLMBar sample into a real SQLite store; the expected units are read back
// from the store's own rows (experiment_tasks' meta joined with task_results), not from the app's
// annotation code.
import { describe, expect, it } from 'vitest';
import { experimentRatings } from '../../src/main/annotation/ratings';
import { setItems } from '../../src/main/annotation/store';
import { selectLeastSure } from '../../src/shared/annotation/least-sure';
import { useSampleCore } from '../helpers/sample-core';

const sample = useSampleCore('llmbar');
const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };

interface Row {
  meta: Record<string, unknown>;
  value: Record<string, unknown>;
}

/** Every usable judge answer of an experiment, with the meta its task was planned with. */
function judgeRows(experimentId: number): Row[] {
  return (
    sample.core.db
      .prepare(
        `SELECT t.meta_json AS meta, r.value_json AS value FROM experiment_tasks t
         JOIN task_results r ON r.experiment_id = t.experiment_id AND r.task_key = t.task_key
         WHERE t.experiment_id = ? AND t.stage = 'judge' AND r.status = 'ok'`,
      )
      .all(experimentId) as { meta: string; value: string }[]
  ).map((r) => ({ meta: JSON.parse(r.meta), value: JSON.parse(r.value) }));
}

async function run(config: Record<string, unknown>): Promise<number> {
  const { id } = await sample.core.call('experiments.create', { config });
  expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
  return id;
}

describe('least-sure units of a pairwise study (Judge-LS, noise floor on)', () => {
  let experimentId: number;
  /** The output a verdict names, undoing the swap (orig: A is output 1). */
  const output = (order: string, winner: string) =>
    winner === 'tie' ? 'tie' : (winner === 'A') === (order === 'orig') ? '1' : '2';

  it('finds the units whose two orders or whose repeat disagree, each with the answers', async () => {
    experimentId = await run({
      name: 'least-sure-pairwise',
      protocol: 'judge-ls',
      dataset: 'LLMBar (sample)',
      limit: 40,
      providers: SIM,
      transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
      judges: [{ label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak-flip20' }],
      tieProbes: false,
      noiseFloor: true,
    });
    // From the store: EN quality verdicts by item → order → sample.
    const at = new Map<string, Map<string, string>>();
    for (const r of judgeRows(experimentId)) {
      if (r.meta.kind !== 'quality' || r.meta.language !== 'EN') continue;
      const m = at.get(r.meta.sourceId as string) ?? new Map<string, string>();
      m.set(
        `${r.meta.order}:${r.meta.sample ?? 0}`,
        output(r.meta.order as string, r.value.winner as string),
      );
      at.set(r.meta.sourceId as string, m);
    }
    const position = [...at].filter(
      ([, m]) => m.has('orig:0') && m.has('swap:0') && m.get('orig:0') !== m.get('swap:0'),
    );
    const repeat = [...at].filter(([, m]) =>
      ['orig', 'swap'].some((o) => m.has(`${o}:1`) && m.get(`${o}:0`) !== m.get(`${o}:1`)),
    );
    // The weak simulated judge leans on position and flips on repeats: both criteria have work.
    expect(position.length).toBeGreaterThan(0);
    expect(repeat.length).toBeGreaterThan(0);

    const sel = await sample.core.call('annotation.leastSure', { experimentId });
    expect(sel.units).toBe(40);
    expect(sel.unavailable).toEqual([{ criterion: 'boundary', reason: 'not a score scale' }]);
    expect(sel.counts.position).toBe(position.length);
    expect(sel.counts.repeat).toBe(repeat.length);
    const keys = new Set([...position, ...repeat].map(([k]) => k));
    expect(new Set(sel.items.map((i) => i.itemKey))).toEqual(keys);
    for (const [key, m] of position) {
      const r = sel.items.find((i) => i.itemKey === key)!.reasons.find((x) => x.criterion === 'position');
      expect(r).toEqual({
        criterion: 'position',
        judge: 'Sim weak',
        orig: m.get('orig:0'),
        swap: m.get('swap:0'),
      });
    }
    for (const [key, m] of repeat) {
      const rs = sel.items.find((i) => i.itemKey === key)!.reasons.filter((x) => x.criterion === 'repeat');
      for (const r of rs) {
        if (r.criterion !== 'repeat') continue;
        expect(r.values).toEqual([m.get(`${r.order}:0`), m.get(`${r.order}:1`)]);
      }
    }
    // Most doubtful first: a unit meeting both criteria comes before one meeting one.
    const both = sel.items.filter((i) => new Set(i.reasons.map((r) => r.criterion)).size === 2);
    expect(sel.items.slice(0, both.length)).toEqual(both);

    // One criterion only.
    const onlyRepeat = await sample.core.call('annotation.leastSure', { experimentId, criteria: ['repeat'] });
    expect(onlyRepeat.items.map((i) => i.itemKey).sort()).toEqual(repeat.map(([k]) => k).sort());
  }, 120_000);

  it('sends them to people in one call: the first N, why each is there, and no corrected estimate', async () => {
    const sel = await sample.core.call('annotation.leastSure', { experimentId });
    const size = Math.min(5, sel.items.length);
    const set = await sample.core.call('annotation.createSet', { experimentId, size, leastSure: {} });
    expect(set.selection).toBe('least-sure');
    expect(set.itemCount).toBe(size);
    const items = setItems(sample.core.db, set.id);
    expect(new Set(items.map((i) => i.itemKey))).toEqual(
      new Set(sel.items.slice(0, size).map((i) => i.itemKey)),
    );
    for (const it of items) {
      const chosen = sel.items.find((i) => i.itemKey === it.itemKey)!;
      const met = ['position', 'repeat', 'boundary'].filter((c) =>
        chosen.reasons.some((r) => r.criterion === c),
      );
      expect(it.stratum).toBe(`least sure: ${met.join(' + ')}`);
    }
    expect(set.strata.map((s) => [s.criterion, s.available])).toEqual([
      ['position', sel.counts.position],
      ['repeat', sel.counts.repeat],
      ['boundary', 0],
    ]);
    // People rate the chosen units; every estimate that reads their labels needs a random sample.
    const csv = [
      'item_id,annotator,preference',
      ...items.map((i, k) => `"${i.itemKey}",ana,${k % 2 ? '1' : '2'}`),
    ];
    await sample.core.call('annotation.importLabels', {
      setId: set.id,
      fileName: 'labels.csv',
      contentBase64: Buffer.from(csv.join('\n')).toString('base64'),
    });
    const report = await sample.core.call('annotation.agreement', { setId: set.id });
    const est = report.judge_and_people.judges[0].estimates;
    expect(est.find((e) => e.method === 'naive')!.estimate).not.toBeNull();
    for (const e of est.filter((e) => e.method !== 'naive')) {
      expect(e.estimate, e.method).toBeNull();
      expect(e.ci, e.method).toBeNull();
      expect(e.undefined_reason, e.method).toBe(
        'items chosen as the judge’s least sure, not drawn at random',
      );
    }
    // A random set of the same experiment still gets them.
    const random = await sample.core.call('annotation.createSet', { experimentId, size: 10, seed: 3 });
    expect(random.selection).toBe('stratified');
  }, 60_000);

  it('refuses a set when the judge is sure of everything by the criteria asked', async () => {
    await expect(
      sample.core.call('annotation.createSet', {
        experimentId,
        size: 5,
        leastSure: { criteria: ['boundary'] },
      }),
    ).rejects.toThrow(/not unsure about any unit by boundary \(boundary: not a score scale\)/);
  });
});

describe('least-sure units of a score study (bias probes pointwise, noise floor on)', () => {
  it('finds scores within the margin of the pass mark, or of the cuts given, and flips on repeat', async () => {
    const experimentId = await run({
      name: 'least-sure-scores',
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      limit: 20,
      providers: SIM,
      rewriter: { provider: 'sim', model: 'sim-rewriter' },
      judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge' }],
      mode: 'pointwise',
      noiseFloor: true,
    });
    // From the store: each response's score as written (condition original, shown alone).
    const first = new Map<string, number>();
    const again = new Map<string, number>();
    for (const r of judgeRows(experimentId)) {
      if (r.meta.condition !== 'original' || r.meta.shown) continue;
      const key = `${r.meta.sourceId}#${r.meta.slot}`;
      (r.meta.sample ? again : first).set(key, r.value.score as number);
    }
    expect(first.size).toBe(40);
    // Scale 1–5: the pass mark is ≥ 4, so 3 and 4 are one point from the other side.
    const sel = await sample.core.call('annotation.leastSure', { experimentId, criteria: ['boundary'] });
    expect(sel.cuts).toEqual([4]);
    expect(sel.unavailable).toEqual([]);
    const near = [...first].filter(([, s]) => s === 3 || s === 4).map(([k]) => k);
    expect(near.length).toBeGreaterThan(0);
    expect(sel.items.map((i) => i.itemKey).sort()).toEqual(near.sort());
    for (const i of sel.items)
      expect(i.reasons).toEqual([
        { criterion: 'boundary', judge: 'Sim judge', score: first.get(i.itemKey), cut: 4, distance: 1 },
      ]);
    // A cut of the researcher's and a margin of 0: only scores that are the cut's very edge… none (distance ≥ 1).
    const none = await sample.core.call('annotation.leastSure', {
      experimentId,
      criteria: ['boundary'],
      margin: 0,
    });
    expect(none.items).toEqual([]);
    const two = await sample.core.call('annotation.leastSure', {
      experimentId,
      criteria: ['boundary'],
      cuts: [2, 5],
      margin: 1,
    });
    const nearTwo = [...first].filter(([, s]) => [1, 2, 4, 5].includes(s)).map(([k]) => k);
    expect(two.items.map((i) => i.itemKey).sort()).toEqual(nearTwo.sort());
    await expect(sample.core.call('annotation.leastSure', { experimentId, cuts: [1] })).rejects.toThrow(
      /A cut of 1 splits nothing on the 1–5 scale/,
    );

    const flips = [...again].filter(([k, s]) => first.get(k) !== s).map(([k]) => k);
    const rep = await sample.core.call('annotation.leastSure', { experimentId, criteria: ['repeat'] });
    expect(rep.items.map((i) => i.itemKey).sort()).toEqual(flips.sort());
    const pos = await sample.core.call('annotation.leastSure', { experimentId, criteria: ['position'] });
    expect(pos.unavailable).toEqual([{ criterion: 'position', reason: 'every unit is asked in one order' }]);
  }, 120_000);
});

describe('selectLeastSure on a hand-made judge', () => {
  it('ranks by criteria met, seen doubt before a near score, then the nearest score', () => {
    const sel = selectLeastSure(
      {
        scale: { kind: 'score', min: 1, max: 10 },
        units: ['a', 'b', 'c', 'd'].map((k, i) => ({ itemKey: k, itemId: i, category: null })),
        ratings: [
          { itemKey: 'a', itemId: 0, judge: 'J', kind: 'score', value: 6 },
          { itemKey: 'b', itemId: 1, judge: 'J', kind: 'score', value: 4 },
          { itemKey: 'c', itemId: 2, judge: 'J', kind: 'score', value: 9 },
          { itemKey: 'd', itemId: 3, judge: 'J', kind: 'score', value: 5 },
        ],
        asks: [
          { itemKey: 'c', judge: 'J', order: null, sample: 0, value: 9 },
          { itemKey: 'c', judge: 'J', order: null, sample: 1, value: 7 },
          { itemKey: 'd', judge: 'J', order: null, sample: 0, value: 5 },
          { itemKey: 'd', judge: 'J', order: null, sample: 1, value: 6 },
        ],
      },
      { margin: 2 },
    );
    // Pass mark ≥ 6 on 1–10: 6 and 5 are 1 point away, 4 is 2.
    expect(sel.items.map((i) => i.itemKey)).toEqual(['d', 'c', 'a', 'b']);
    expect(sel.items[0].reasons.map((r) => r.criterion)).toEqual(['repeat', 'boundary']);
  });
});

describe('least-sure units of a label study (reference sensitivity, noise floor on)', () => {
  it('finds answers whose NR verdict flipped on repeat, and the repeat is no second rating', async () => {
    await sample.core.call('datasets.loadSample', { sampleId: 'tydiqa' });
    const experimentId = await run({
      name: 'least-sure-labels',
      protocol: 'reference-sensitivity',
      dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
      limit: 12,
      providers: SIM,
      generators: [{ label: 'Sim generator', provider: 'sim', model: 'sim-generator' }],
      judges: [{ label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak-flip20' }],
      noiseFloor: true,
    });
    const first = new Map<string, string>();
    const again = new Map<string, string>();
    for (const r of judgeRows(experimentId)) {
      const key = `${r.meta.sourceId}::${r.meta.generator}\u0000${r.meta.setting}`;
      (r.meta.sample ? again : first).set(key, r.value.verdict as string);
    }
    expect(again.size).toBeGreaterThan(0);
    // One rating per answer and judge · setting: the NR repeat would have made the NR rater count twice.
    const { ratings } = experimentRatings(sample.core.db, experimentId);
    expect(ratings).toHaveLength(first.size);
    const sel = await sample.core.call('annotation.leastSure', { experimentId });
    expect(sel.unavailable.map((u) => u.criterion)).toEqual(['boundary', 'position']);
    const flips = [...again].filter(([k, v]) => first.get(k) !== v).map(([k]) => k.split('\u0000')[0]);
    expect(sel.items.map((i) => i.itemKey).sort()).toEqual([...new Set(flips)].sort());
    for (const i of sel.items)
      for (const r of i.reasons)
        expect(r).toMatchObject({ criterion: 'repeat', judge: 'Sim weak · NR', order: null });
  }, 120_000);
});
