// Human ratings through the Core API on real SQLite files, with the test-only pointwise protocol
// run against the mock provider: sampling, blinded sessions, one label = one committed row,
// resume after reopening, label files (line-located errors, all or nothing), annotation
// packages between two stores, the agreement report against the stats functions, the export
// zip and the calibration mapping applied to another experiment.
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { registerProtocol, unregisterProtocol } from '../../src/main/protocols';
import { labelsOf, listSets, setItems } from '../../src/main/annotation/store';
import { experimentRatings } from '../../src/main/annotation/ratings';
import type { PackageImport } from '../../src/shared/annotation/api-types';
import { cohensKappa, icc21, median, spearmanInterval as spearman } from '../../src/shared/stats';
import { tempDir } from '../helpers/tmp';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';
import { pointwisePlugin } from '../protocols/test-pointwise/plugin';

const keys = () => new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' });
let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
let experimentId: number;

const scoreOf = (req: MockRequest): number => ((req.lastUser.split('Response: ')[1] ?? '').length % 5) + 1;

function config(url: string, name: string, model = 'gpt-4.1-mini') {
  return {
    name,
    protocol: 'test-pointwise',
    dataset: 'LLMBar (sample)',
    limit: 60,
    providers: {
      openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' },
    },
    scorers: [{ label: 'GPT scorer', provider: 'openai', model }],
  };
}

beforeAll(async () => {
  registerProtocol(pointwisePlugin);
  ({ dir, cleanup } = tempDir());
  core = new Core({ dataDir: dir, door: 'cli', keys: keys(), engine: { progressIntervalMs: 50 } });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({
    latencyMs: [1, 3],
    respond: (req) => ({ score: scoreOf(req), reason: 'mock' }),
  });
  ({ id: experimentId } = await core.call('experiments.create', { config: config(mock.url, 'scores') }));
  expect((await core.experiments.runToEnd(experimentId)).status).toBe('finished');
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  unregisterProtocol('test-pointwise');
});

/** A human score near the judge's: deterministic per annotator and unit. */
const humanScore = (judge: number, annotator: string, i: number) =>
  Math.min(
    5,
    Math.max(1, judge + ((i + annotator.length) % 3 === 0 ? 1 : (i + annotator.length) % 3 === 1 ? 0 : -1)),
  );

describe('annotation sets', () => {
  it('samples N units stratified by judge-score tercile × category, reproducibly from the seed', async () => {
    const a = await core.call('annotation.createSet', { experimentId, size: 30, seed: 7 });
    const b = await core.call('annotation.createSet', { experimentId, size: 30, seed: 7 });
    const c = await core.call('annotation.createSet', { experimentId, size: 30, seed: 8 });
    expect(a.itemCount).toBe(30);
    expect(a.scale).toEqual({ kind: 'score', min: 1, max: 5 });
    expect(a.strata.reduce((s, x) => s + x.sampled, 0)).toBe(30);
    expect(a.strata.reduce((s, x) => s + x.available, 0)).toBe(60);
    for (const s of a.strata) expect(Math.abs(s.sampled - s.available / 2)).toBeLessThanOrEqual(1);
    expect(a.strata.every((s) => /^judge-(low|mid|high) × /.test(s.stratum))).toBe(true);
    const keysOf = (id: number) => setItems(core.db, id).map((i) => i.itemKey);
    expect(keysOf(b.id)).toEqual(keysOf(a.id));
    expect(keysOf(c.id)).not.toEqual(keysOf(a.id));
    await core.call('annotation.deleteSet', { setId: b.id });
    await core.call('annotation.deleteSet', { setId: c.id });
  });

  it('shows each annotator the units blinded, in an order of their own, and resumes where they stopped', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const alice = await core.call('annotation.session', { setId: set.id, annotator: 'alice' });
    const bob = await core.call('annotation.session', { setId: set.id, annotator: 'bob' });
    expect(alice.items.map((i) => i.unitUid)).not.toEqual(bob.items.map((i) => i.unitUid));
    expect([...alice.items.map((i) => i.unitUid)].sort()).toEqual(
      [...bob.items.map((i) => i.unitUid)].sort(),
    );
    expect((await core.call('annotation.session', { setId: set.id, annotator: 'alice' })).items).toEqual(
      alice.items,
    );
    const text = JSON.stringify(alice);
    for (const hidden of ['GPT scorer', 'gpt-4.1-mini', '"reason"']) expect(text).not.toContain(hidden);
    expect(alice.resumeAt).toBe(0);

    // Ten labels, a skip and a comment; each call is a row at once.
    for (let i = 0; i < 10; i++) {
      await core.call('annotation.label', {
        setId: set.id,
        annotator: 'alice',
        unitUid: alice.items[i].unitUid,
        value: 3,
      });
      expect(labelsOf(core.db, set.id).filter((l) => l.annotator === 'alice')).toHaveLength(i + 1);
    }
    await core.call('annotation.label', {
      setId: set.id,
      annotator: 'alice',
      unitUid: alice.items[10].unitUid,
      skip: true,
    });
    const progress = await core.call('annotation.label', {
      setId: set.id,
      annotator: 'alice',
      unitUid: alice.items[3].unitUid,
      comment: 'unclear instruction',
    });
    expect(progress).toEqual({ annotator: 'alice', labelled: 10, skipped: 1, total: 30 });
    await expect(
      core.call('annotation.label', {
        setId: set.id,
        annotator: 'alice',
        unitUid: alice.items[12].unitUid,
        value: 6,
      }),
    ).rejects.toThrow(/"6" is not on this set's scale \(an integer 1–5\)/);

    // Reopening the store (a restart) keeps every label; the session resumes after the skip.
    const again = new Core({ dataDir: dir, door: 'cli', keys: keys() });
    const resumed = await again.call('annotation.session', { setId: set.id, annotator: 'alice' });
    expect(resumed.resumeAt).toBe(11);
    expect(resumed.items[3]).toMatchObject({ value: 3, comment: 'unclear instruction' });
    expect(resumed.items[10]).toMatchObject({ value: null, skipped: true });
    again.close();
  });
});

describe('label files', () => {
  it('names the line of every unknown item, out-of-scale score and duplicate pair, and imports nothing', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const keysInSet = setItems(core.db, set.id).map((i) => i.itemKey);
    const before = labelsOf(core.db, set.id);
    const csv = [
      'item_id,annotator,score,comment',
      `${keysInSet[0]},carol,4,`,
      `nope-1,carol,3,`,
      `${keysInSet[1]},carol,9,`,
      `${keysInSet[0]},carol,2,again`,
    ].join('\n');
    const err = await core
      .call('annotation.importLabels', {
        setId: set.id,
        fileName: 'labels.csv',
        contentBase64: Buffer.from(csv).toString('base64'),
      })
      .then(
        () => {
          throw new Error('the bad file was imported');
        },
        (e: unknown) =>
          e as { code: string; message: string; issues: { line: number; field: string; message: string }[] },
      );
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(
      /^labels\.csv:3: field "item_id": unknown item "nope-1".*nothing was imported/,
    );
    expect(err.issues.map((i) => [i.line, i.field])).toEqual([
      [3, 'item_id'],
      [4, 'score'],
      [5, 'item_id'],
    ]);
    expect(err.issues[2].message).toMatch(/duplicate \(item, annotator\).*also on line 2/);
    expect(labelsOf(core.db, set.id)).toEqual(before);

    const jsonl = keysInSet
      .map((k, i) => JSON.stringify({ item_id: k, annotator: 'carol', score: (i % 5) + 1 }))
      .join('\n');
    const ok = await core.call('annotation.importLabels', {
      setId: set.id,
      fileName: 'labels.jsonl',
      contentBase64: Buffer.from(jsonl).toString('base64'),
    });
    expect(ok).toEqual({ imported: 30, annotators: ['carol'] });
    const dup = await core
      .call('annotation.importLabels', {
        setId: set.id,
        fileName: 'labels.jsonl',
        contentBase64: Buffer.from(jsonl).toString('base64'),
      })
      .catch((e: Error) => e);
    expect(String(dup)).toMatch(/labels\.jsonl:1: .*"carol" already labelled/);
  });
});

/** The answer of an import that went through (not a `foreign-set` question). */
function imported(r: PackageImport): Extract<PackageImport, { outcome: 'imported' }> {
  if (r.outcome !== 'imported') throw new Error(`expected an import, got ${JSON.stringify(r)}`);
  return r;
}

describe('annotation packages', () => {
  it('travel to a colleague’s store and back, merging annotators; mismatched items are refused', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const pkg = await core.call('annotation.exportPackage', { setId: set.id });
    const text = Buffer.from(pkg.contentBase64, 'base64').toString('utf8');
    for (const hidden of ['GPT scorer', 'gpt-4.1-mini', '"reason"', 'scorer'])
      expect(text).not.toContain(hidden);
    for (const key of setItems(core.db, set.id).map((i) => i.itemKey)) expect(text).not.toContain(`"${key}"`);

    const other = tempDir();
    const colleague = new Core({ dataDir: other.dir, door: 'cli', keys: keys() });
    try {
      const opened = imported(
        await colleague.call('annotation.importPackage', {
          fileName: pkg.fileName,
          contentBase64: pkg.contentBase64,
        }),
      );
      expect(opened.created).toBe(true);
      expect(opened.set.experimentId).toBeNull();
      const s = await colleague.call('annotation.session', { setId: opened.set.id, annotator: 'dave' });
      for (const [i, item] of s.items.entries())
        await colleague.call('annotation.label', {
          setId: opened.set.id,
          annotator: 'dave',
          unitUid: item.unitUid,
          value: (i % 5) + 1,
        });
      const back = await colleague.call('annotation.exportPackage', { setId: opened.set.id });
      const merged = imported(
        await core.call('annotation.importPackage', {
          fileName: back.fileName,
          contentBase64: back.contentBase64,
        }),
      );
      expect(merged.created).toBe(false);
      expect(merged.set.id).toBe(set.id);
      expect(merged.set.progress.map((p) => p.annotator)).toEqual(['alice', 'carol', 'dave']);
      expect(merged.set.progress.find((p) => p.annotator === 'dave')!.labelled).toBe(30);

      const doc = JSON.parse(Buffer.from(back.contentBase64, 'base64').toString('utf8'));
      doc.items[0].prompt = 'something else';
      const before = labelsOf(core.db, set.id);
      await expect(
        core.call('annotation.importPackage', {
          fileName: 'edited.annotation.json',
          contentBase64: Buffer.from(JSON.stringify(doc)).toString('base64'),
        }),
      ).rejects.toThrow(
        /edited\.annotation\.json does not match annotation set .*shows different text; nothing was imported/,
      );
      doc.items[0].unit = 'ffffffffffffffff';
      await expect(
        core.call('annotation.importPackage', {
          fileName: 'edited.annotation.json',
          contentBase64: Buffer.from(JSON.stringify(doc)).toString('base64'),
        }),
      ).rejects.toThrow(
        /labels\.\d+\.unit .* is not one of the package's items|unit "ffffffffffffffff" is not in the set/,
      );
      expect(labelsOf(core.db, set.id)).toEqual(before);
    } finally {
      colleague.close();
      other.cleanup();
    }
  });
});

// Issue 40 item 3: an older package must not turn newer labels back without asking.
describe('annotation packages and newer labels', () => {
  it('keeps the set’s newer labels and lists them as conflicts; a later package label replaces; --take-package-labels takes the package’s', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const s = await core.call('annotation.session', { setId: set.id, annotator: 'erin' });
    const units = s.items.slice(0, 10).map((i) => i.unitUid);
    const label = (unitUid: string, value: number) =>
      core.call('annotation.label', { setId: set.id, annotator: 'erin', unitUid, value });
    for (const u of units) await label(u, 1);
    const old = await core.call('annotation.exportPackage', { setId: set.id });
    for (const u of units) await label(u, 5);
    const erin = () =>
      labelsOf(core.db, set.id)
        .filter((l) => l.annotator === 'erin')
        .map((l) => l.value);
    const file = { fileName: old.fileName, contentBase64: old.contentBase64 };

    const kept = imported(await core.call('annotation.importPackage', file));
    expect(kept.labels).toBe(0);
    expect(erin()).toEqual(Array(10).fill(5));
    expect(kept.conflicts).toHaveLength(10);
    expect(kept.conflicts.map((c) => c.unit).sort()).toEqual([...units].sort());
    for (const c of kept.conflicts) {
      expect(c).toMatchObject({ annotator: 'erin', ours: { value: 5 }, package: { value: 1 } });
      expect(Date.parse(c.ours.time)).toBeGreaterThanOrEqual(Date.parse(c.package.time!));
    }

    // A package label made later than the set's (its time) replaces it, and keeps its own time.
    const doc = JSON.parse(Buffer.from(old.contentBase64, 'base64').toString('utf8'));
    const later = '2100-01-01T00:00:00.000Z';
    for (const l of doc.labels)
      if (l.annotator === 'erin' && l.unit === units[0]) Object.assign(l, { value: 3, time: later });
    const newer = imported(
      await core.call('annotation.importPackage', {
        fileName: 'newer.annotation.json',
        contentBase64: Buffer.from(JSON.stringify(doc)).toString('base64'),
      }),
    );
    expect(newer.labels).toBe(1);
    expect(newer.conflicts).toHaveLength(9);
    expect(
      labelsOf(core.db, set.id).filter((l) => l.annotator === 'erin' && l.updatedAt === later),
    ).toMatchObject([{ value: 3 }]);

    // A package without times cannot show it is newer: a conflict too (the one label equal to
    // the set's is no conflict).
    for (const l of doc.labels) delete l.time;
    const timeless = imported(
      await core.call('annotation.importPackage', {
        fileName: 'timeless.annotation.json',
        contentBase64: Buffer.from(JSON.stringify(doc)).toString('base64'),
      }),
    );
    expect(timeless.labels).toBe(0);
    expect(timeless.conflicts).toHaveLength(9);

    // Asked for: the package's labels anyway.
    const taken = imported(await core.call('annotation.importPackage', { ...file, takePackageLabels: true }));
    expect(taken.conflicts).toEqual([]);
    expect(taken.labels).toBe(10);
    expect(erin()).toEqual(Array(10).fill(1));
  });
});

describe('agreement', () => {
  it('equals the statistics computed here from the stored labels and judge scores', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    // Full ratings by two more annotators close to the judge (the mock's score of each unit).
    const items = setItems(core.db, set.id);
    const judge = new Map<string, number>();
    for (const it of items) {
      const item = await core.call('items.get', { itemId: it.itemId! });
      judge.set(it.itemKey, ((item.output1 ?? '').length % 5) + 1);
    }
    for (const who of ['erin', 'frank']) {
      const s = await core.call('annotation.session', { setId: set.id, annotator: who });
      const uidToKey = new Map(items.map((i) => [i.unitUid, i.itemKey]));
      for (const [i, item] of s.items.entries()) {
        const key = uidToKey.get(item.unitUid)!;
        await core.call('annotation.label', {
          setId: set.id,
          annotator: who,
          unitUid: item.unitUid,
          value: humanScore(judge.get(key)!, who, i),
        });
      }
    }
    const report = await core.call('annotation.agreement', { setId: set.id });

    const labels = labelsOf(core.db, set.id).filter((l) => !l.skipped);
    const people = ['alice', 'carol', 'dave', 'erin', 'frank'];
    const complete = items.filter((it) =>
      people.every((p) => labels.some((l) => l.itemKey === it.itemKey && l.annotator === p)),
    );
    const matrix = complete.map((it) =>
      people.map((p) => labels.find((l) => l.itemKey === it.itemKey && l.annotator === p)!.value as number),
    );
    const icc = icc21(matrix);
    expect(report.inter_annotator.n_annotators).toBe(5);
    expect(report.inter_annotator.n_complete).toBe(complete.length);
    expect(report.inter_annotator.icc21).toBeCloseTo(icc.icc!, 12);
    expect(report.inter_annotator.warning).toBe(icc.icc! < 0.6);

    const med = items.map((it) =>
      median(labels.filter((l) => l.itemKey === it.itemKey).map((l) => l.value as number))!,
    );
    const j = items.map((it) => judge.get(it.itemKey)!);
    const row = report.judge_human.find((r) => r.judge === 'GPT scorer')!;
    const s = spearman(j, med);
    expect(row.n).toBe(30);
    expect(row.spearman_rho).toBeCloseTo(s.rho!, 12);
    expect(row.spearman_rho_ci![0]).toBeCloseTo(s.ci![0], 12);
    const k = cohensKappa(
      j,
      med.map((m) => Math.floor(m + 0.5)),
      'quadratic',
      [1, 2, 3, 4, 5],
    );
    expect(row.kappa).toBeCloseTo(k.kappa!, 12);
    expect(row.kappa_weights).toBe('quadratic');
    const expected = s.ci![0] >= 0.8 ? 'replace' : s.ci![1] < 0.8 ? 'mix' : 'undecided';
    expect(row.decision).toBe(expected);
    expect(report.bands.filter((b) => b.judge === 'GPT scorer').map((b) => b.band)).toEqual([
      'low',
      'mid',
      'high',
    ]);
    expect(report.calibration_mapping.find((m) => m.category === 'all')!.n).toBe(30);

    const strict = await core.call('annotation.agreement', { setId: set.id, threshold: -0.99 });
    expect(strict.judge_human[0].decision).toBe(s.ci![0] >= -0.99 ? 'replace' : 'undecided');
  });

  it('exports tables, figures, annotations, mapping and manifest as one zip', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const zip = await core.call('annotation.exportZip', { setId: set.id });
    const files = unzipSync(new Uint8Array(Buffer.from(zip.contentBase64, 'base64')));
    const names = Object.keys(files)
      .map((n) => n.split('/').slice(1).join('/'))
      .sort();
    for (const f of [
      'agreement.json',
      'annotations.csv',
      'calibration_mapping.csv',
      'calibration_mapping.json',
      'figures/agreement_by_band.png',
      'figures/agreement_by_band.svg',
      'figures/judge_vs_human.png',
      'figures/judge_vs_human.svg',
      'manifest.json',
      'tables/agreement.xlsx',
      'tables/inter_annotator.csv',
      'tables/inter_annotator.tex',
      'tables/judge_human.csv',
      'tables/bands.tex',
      'tables/calibration.csv',
    ])
      expect(names).toContain(f);
    const annotations = Buffer.from(
      Object.entries(files).find(([n]) => n.endsWith('annotations.csv'))![1],
    ).toString('utf8');
    expect(annotations.split('\r\n').filter(Boolean)).toHaveLength(1 + labelsOf(core.db, set.id).length);
  });

  it('exports the zip’s figures in the chosen language, its tables and CSV headers in English', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const read = async (lang?: 'en' | 'zh') => {
      const zip = await core.call('annotation.exportZip', { setId: set.id, ...(lang ? { lang } : {}) });
      const files = unzipSync(new Uint8Array(Buffer.from(zip.contentBase64, 'base64')));
      const text = (end: string) =>
        Buffer.from(Object.entries(files).find(([n]) => n.endsWith(end))![1]).toString('utf8');
      return {
        svg: text('figures/judge_vs_human.svg'),
        bands: text('figures/agreement_by_band.svg'),
        csv: text('tables/judge_human.csv'),
        manifest: JSON.parse(text('manifest.json')) as { figure_language: string },
      };
    };
    const en = await read();
    const zh = await read('zh');
    expect(en.svg).toContain('Judge vs human, with the calibration mapping');
    expect(en.manifest.figure_language).toBe('en');
    expect(zh.svg).toContain('评审模型与人工对比，含校准映射');
    expect(zh.svg).toContain('人工');
    expect(zh.svg).not.toContain('Judge vs human');
    expect(zh.bands).toContain('按人工质量分段的 Spearman ρ');
    expect(zh.manifest.figure_language).toBe('zh');
    // Tables are the same bytes in both: scripts read their English headers.
    expect(zh.csv).toBe(en.csv);
    await expect(core.call('annotation.exportZip', { setId: set.id, lang: 'fr' as 'en' })).rejects.toThrow(
      /lang/,
    );
  });

  it('applies the mapping to another experiment of the same judge and rubric, and refuses another model', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const { id: same } = await core.call('experiments.create', {
      config: { ...config(mock.url, 'scores-again'), limit: 40 },
    });
    await core.experiments.runToEnd(same);
    const applied = await core.call('annotation.applyMapping', {
      setId: set.id,
      judge: 'GPT scorer',
      experimentId: same,
    });
    expect(applied.rows).toHaveLength(40);
    const stored = core.db
      .prepare('SELECT set_id, judge, mapping_json FROM calibration_mappings WHERE id = ?')
      .get(applied.mappingId) as {
      set_id: number;
      judge: string;
      mapping_json: string;
    };
    expect(stored).toMatchObject({ set_id: set.id, judge: 'GPT scorer' });
    const again = await core.call('annotation.applyMapping', {
      setId: set.id,
      judge: 'GPT scorer',
      experimentId: same,
    });
    expect(again.mappingId).toBe(applied.mappingId);
    const report = await core.call('annotation.agreement', { setId: set.id });
    const all = report.calibration_mapping.find((m) => m.category === 'all')!;
    for (const r of applied.rows) {
      expect(r.calibrated).toBeGreaterThanOrEqual(all.knots[0].y - 1e-12);
      expect(r.calibrated).toBeLessThanOrEqual(all.knots[all.knots.length - 1].y + 1e-12);
    }
    const { id: otherModel } = await core.call('experiments.create', {
      config: { ...config(mock.url, 'scores-other', 'gpt-4.1'), limit: 5 },
    });
    await core.experiments.runToEnd(otherModel);
    await expect(
      core.call('annotation.applyMapping', { setId: set.id, judge: 'GPT scorer', experimentId: otherModel }),
    ).rejects.toThrow(/another judge or rubric: model gpt-4.1-mini vs gpt-4.1/);
  });
  it('offers only the experiments that fit, with every other one’s reasons (issue 20 item 9)', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const offer = await core.call('annotation.mappingTargets', { setId: set.id, judge: 'GPT scorer' });
    expect(offer.quality.below).toBe(false);
    expect(offer.quality.rho).toBeGreaterThanOrEqual(offer.quality.floor);
    const names = offer.targets.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['scores', 'scores-again']));
    expect(names).not.toContain('scores-other');
    expect(offer.excluded.find((e) => e.name === 'scores-other')!.reasons).toEqual([
      { code: 'model', detail: 'model gpt-4.1-mini vs gpt-4.1', ours: 'gpt-4.1-mini', theirs: 'gpt-4.1' },
    ]);
    // Every offered target is one applyMapping takes; every excluded one it refuses.
    for (const t of offer.targets)
      await core.call('annotation.applyMapping', {
        setId: set.id,
        judge: 'GPT scorer',
        experimentId: t.experimentId,
      });
    for (const e of offer.excluded)
      await expect(
        core.call('annotation.applyMapping', {
          setId: set.id,
          judge: 'GPT scorer',
          experimentId: e.experimentId,
        }),
      ).rejects.toThrow(/another judge or rubric|No judge/);
  });

  it('refuses a mapping whose held-out ρ is below the floor unless forced, and counts what it flattens', async () => {
    const set = await core.call('annotation.createSet', {
      experimentId,
      size: 30,
      seed: 11,
      name: 'reversed',
    });
    const judged = new Map(
      experimentRatings(core.db, experimentId).ratings.map((r) => [r.itemKey, r.value as number]),
    );
    // People score against the judge: 6 − its score, so the held-out ρ is negative.
    const csv = [
      'item_id,annotator,score',
      ...setItems(core.db, set.id).map((i) => `"${i.itemKey}",rev,${6 - judged.get(i.itemKey)!}`),
    ].join('\n');
    await core.call('annotation.importLabels', {
      setId: set.id,
      fileName: 'reversed.csv',
      contentBase64: Buffer.from(csv).toString('base64'),
    });
    const offer = await core.call('annotation.mappingTargets', { setId: set.id, judge: 'GPT scorer' });
    expect(offer.quality.below).toBe(true);
    expect(offer.quality.rho === null || offer.quality.rho < 0).toBe(true);
    const before = core.db.prepare('SELECT COUNT(*) AS n FROM calibration_mappings').get() as { n: number };
    await expect(
      core.call('annotation.applyMapping', { setId: set.id, judge: 'GPT scorer', experimentId }),
    ).rejects.toThrow(/held-out ρ of .* below the floor of 0\.3.*--force/);
    // Refused before anything was stored.
    expect(core.db.prepare('SELECT COUNT(*) AS n FROM calibration_mappings').get()).toEqual(before);
    const forced = await core.call('annotation.applyMapping', {
      setId: set.id,
      judge: 'GPT scorer',
      experimentId,
      force: true,
    });
    expect(forced.forced).toBe(true);
    expect(forced.quality).toEqual(offer.quality);
    // An increasing fit of reversed data pools every score into one level.
    const levels = new Set(forced.rows.map((r) => r.calibrated.toFixed(9)));
    expect(levels.size).toBe(1);
    expect(forced.flattened).toBe(forced.rows.length);
    await core.call('annotation.deleteSet', { setId: set.id });
  });

  it('asks before opening a package of a set this store does not know (issue 22 item 10)', async () => {
    const [set] = await core.call('annotation.listSets', { experimentId });
    const pkg = await core.call('annotation.exportPackage', { setId: set.id });
    // The same items under another set's uid and unit ids: the set made again, say, or another copy.
    const doc = JSON.parse(Buffer.from(pkg.contentBase64, 'base64').toString('utf8'));
    const renamed = new Map<string, string>(
      doc.items.map((it: { unit: string }, i: number) => [it.unit, `u${i}`]),
    );
    doc.set.uid = 'a-set-made-elsewhere';
    doc.set.name = 'Their copy';
    for (const it of doc.items) it.unit = renamed.get(it.unit);
    const first = doc.labels[0].annotator;
    doc.labels = doc.labels
      .filter((l: { annotator: string }) => l.annotator === first)
      .map((l: { unit: string }) => ({ ...l, unit: renamed.get(l.unit), annotator: 'grace' }));
    const file = {
      fileName: 'theirs.annotation.json',
      contentBase64: Buffer.from(JSON.stringify(doc)).toString('base64'),
    };
    const setsBefore = listSets(core.db).length;
    const labelsBefore = labelsOf(core.db, set.id);

    const asked = await core.call('annotation.importPackage', file);
    expect(asked).toEqual({
      outcome: 'foreign-set',
      package: {
        uid: 'a-set-made-elsewhere',
        name: 'Their copy',
        units: doc.items.length,
        labels: doc.labels.length,
      },
      candidates: [{ id: set.id, name: set.name }],
    });
    expect(listSets(core.db).length).toBe(setsBefore);
    expect(labelsOf(core.db, set.id)).toEqual(labelsBefore);

    const merged = imported(await core.call('annotation.importPackage', { ...file, intoSetId: set.id }));
    expect(merged).toMatchObject({ created: false, labels: doc.labels.length, set: { id: set.id } });
    const grace = labelsOf(core.db, set.id).filter((l) => l.annotator === 'grace');
    // Matched by the text each unit shows: each label sits on the item whose unit it was given to.
    const keyOfUnit = new Map(setItems(core.db, set.id).map((i) => [renamed.get(i.unitUid), i.itemKey]));
    const sent = doc.labels.map((l: { unit: string; value: unknown }) => [keyOfUnit.get(l.unit), l.value]);
    expect(grace.map((l) => [l.itemKey, l.value]).sort()).toEqual(sent.sort());

    const opened = imported(await core.call('annotation.importPackage', { ...file, asNewSet: true }));
    expect(opened.created).toBe(true);
    expect(opened.set.name).toBe('Their copy');
    await expect(core.call('annotation.importPackage', { ...file, asNewSet: true })).rejects.toThrow(
      /comes from rating set \d+ "Their copy" of this store: it merges there/,
    );
    await core.call('annotation.deleteSet', { setId: opened.set.id });
  });
});
