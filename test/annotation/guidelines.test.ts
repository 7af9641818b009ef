// Annotation guidelines and adjudication through the Core API on real SQLite files (issue 26
// item 5): guidelines written with the set, each edit a new version, labels made under the
// version shown; items where people differ side by side, an adjudicated label stored as such
// (who, when) and used as the human reference; both travel in the package and survive a reopen.
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { registerProtocol, unregisterProtocol } from '../../src/main/protocols';
import { labelsOf } from '../../src/main/annotation/store';
import type { PackageImport } from '../../src/shared/annotation/api-types';
import { median } from '../../src/shared/stats';
import { tempDir } from '../helpers/tmp';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';
import { pointwisePlugin } from '../protocols/test-pointwise/plugin';

const keys = () => new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' });
let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
let experimentId: number;

const scoreOf = (req: MockRequest): number => ((req.lastUser.split('Response: ')[1] ?? '').length % 5) + 1;

beforeAll(async () => {
  registerProtocol(pointwisePlugin);
  ({ dir, cleanup } = tempDir());
  core = new Core({ dataDir: dir, door: 'cli', keys: keys(), engine: { progressIntervalMs: 50 } });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({
    latencyMs: [1, 3],
    respond: (req) => ({ score: scoreOf(req), reason: 'm' }),
  });
  ({ id: experimentId } = await core.call('experiments.create', {
    config: {
      name: 'scores',
      protocol: 'test-pointwise',
      dataset: 'LLMBar (sample)',
      limit: 20,
      providers: { openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
      scorers: [{ label: 'GPT scorer', provider: 'openai', model: 'gpt-4.1-mini' }],
    },
  }));
  expect((await core.experiments.runToEnd(experimentId)).status).toBe('finished');
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  unregisterProtocol('test-pointwise');
});

const imported = (r: PackageImport) => {
  if (r.outcome !== 'imported') throw new Error(`expected an import, got ${r.outcome}`);
  return r;
};

describe('guidelines', () => {
  it('are written with the set, shown in the session, versioned on each edit, and recorded with each label', async () => {
    const set = await core.call('annotation.createSet', {
      experimentId,
      size: 10,
      guidelines: '  Score helpfulness 1–5.\r\nIgnore length.  ',
    });
    expect(set.guidelinesVersion).toBe(1);
    const s1 = await core.call('annotation.session', { setId: set.id, annotator: 'ann' });
    expect(s1.guidelines).toMatchObject({ version: 1, text: 'Score helpfulness 1–5.\nIgnore length.' });
    await core.call('annotation.label', {
      setId: set.id,
      annotator: 'ann',
      unitUid: s1.items[0].unitUid,
      value: 4,
    });

    const v2 = await core.call('annotation.setGuidelines', {
      setId: set.id,
      text: 'Score helpfulness 1–5. Length counts.',
    });
    expect(v2.version).toBe(2);
    // The same text again is no new version.
    expect((await core.call('annotation.setGuidelines', { setId: set.id, text: v2.text })).version).toBe(2);
    await expect(core.call('annotation.setGuidelines', { setId: set.id, text: '   ' })).rejects.toThrow(
      /Guidelines need some text/,
    );
    await core.call('annotation.label', {
      setId: set.id,
      annotator: 'ann',
      unitUid: s1.items[1].unitUid,
      value: 2,
    });
    const versions = await core.call('annotation.guidelines', { setId: set.id });
    expect(versions.map((g) => g.version)).toEqual([1, 2]);
    expect(versions[0].text).toBe('Score helpfulness 1–5.\nIgnore length.');
    const byUnit = new Map(labelsOf(core.db, set.id).map((l) => [l.itemKey, l.guidelinesVersion] as const));
    expect([...byUnit.values()].sort()).toEqual([1, 2]);
    expect(
      (await core.call('annotation.session', { setId: set.id, annotator: 'bo' })).guidelines?.version,
    ).toBe(2);

    // A set made without guidelines has none; its labels record none.
    const bare = await core.call('annotation.createSet', { experimentId, size: 5, seed: 3 });
    expect(bare.guidelinesVersion).toBeNull();
    const sb = await core.call('annotation.session', { setId: bare.id, annotator: 'ann' });
    expect(sb.guidelines).toBeNull();
    await core.call('annotation.label', {
      setId: bare.id,
      annotator: 'ann',
      unitUid: sb.items[0].unitUid,
      value: 3,
    });
    expect(labelsOf(core.db, bare.id)[0].guidelinesVersion).toBeNull();
    await core.call('annotation.deleteSet', { setId: bare.id });
  });
});

describe('adjudication', () => {
  it('lists the items people differ on side by side, stores the adjudicated label as such and uses it as the reference', async () => {
    const set = await core.call('annotation.createSet', {
      experimentId,
      size: 12,
      seed: 5,
      name: 'two raters',
    });
    const ann = await core.call('annotation.session', { setId: set.id, annotator: 'ann' });
    const units = [...ann.items.map((i) => i.unitUid)].sort();
    // ann gives 3 everywhere; bo agrees on the first eight units and gives 5 on the last four.
    for (const [i, u] of units.entries()) {
      await core.call('annotation.label', { setId: set.id, annotator: 'ann', unitUid: u, value: 3 });
      await core.call('annotation.label', {
        setId: set.id,
        annotator: 'bo',
        unitUid: u,
        value: i < 8 ? 3 : 5,
      });
    }
    const differ = await core.call('annotation.disagreements', { setId: set.id });
    expect(differ.map((d) => d.unitUid).sort()).toEqual(units.slice(8));
    expect(differ[0].labels.map((l) => [l.annotator, l.value])).toEqual([
      ['ann', 3],
      ['bo', 5],
    ]);
    expect(differ[0].majority).toBe(median([3, 5]));
    expect(differ[0].adjudication).toBeNull();
    expect(differ[0].view.prompt.length).toBeGreaterThan(0);

    await expect(
      core.call('annotation.adjudicate', {
        setId: set.id,
        unitUid: units[8],
        value: 9,
        adjudicator: 'chair',
      }),
    ).rejects.toThrow(/"9" is not on this set's scale \(an integer 1–5\)/);
    const after = await core.call('annotation.adjudicate', {
      setId: set.id,
      unitUid: units[8],
      value: 5,
      adjudicator: 'chair',
      note: 'bo read the rubric right',
    });
    const settled = after.find((d) => d.unitUid === units[8])!;
    expect(settled.adjudication).toMatchObject({
      value: 5,
      adjudicator: 'chair',
      note: 'bo read the rubric right',
    });
    expect(settled.adjudication!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The adjudicator is not an annotator: the labels and people's agreement are unchanged.
    expect(labelsOf(core.db, set.id).some((l) => l.annotator === 'chair')).toBe(false);
    const report = await core.call('annotation.agreement', { setId: set.id });
    expect(report.adjudicated_items).toBe(1);
    expect(report.inter_annotator.annotators).toEqual(['ann', 'bo']);
    // Four differing units had a median of 4; the adjudicated one now counts as 5.
    const humans = report.points.filter((p) => p.variant === 'raw').map((p) => p.human);
    expect(humans.filter((h) => h === 4)).toHaveLength(3);
    expect(humans.filter((h) => h === 5)).toHaveLength(1);
    expect((await core.call('annotation.getSet', { setId: set.id })).adjudicated).toBe(1);

    // Withdrawn: the median is the reference again.
    await core.call('annotation.adjudicate', {
      setId: set.id,
      unitUid: units[8],
      value: null,
      adjudicator: 'chair',
    });
    const again = await core.call('annotation.agreement', { setId: set.id });
    expect(again.adjudicated_items).toBe(0);
    expect(again.points.filter((p) => p.variant === 'raw' && p.human === 4)).toHaveLength(4);
    await core.call('annotation.adjudicate', {
      setId: set.id,
      unitUid: units[9],
      value: 3,
      adjudicator: 'chair',
    });
  });

  it('travel in the package with the guidelines, and stay after the store is reopened', async () => {
    const sets = await core.call('annotation.listSets', { experimentId });
    const withGuidelines = sets.find((s) => s.guidelinesVersion === 2)!;
    const adjudicated = sets.find((s) => s.name === 'two raters')!;
    const other = tempDir();
    const colleague = new Core({ dataDir: other.dir, door: 'cli', keys: keys() });
    try {
      for (const set of [withGuidelines, adjudicated]) {
        const pkg = await core.call('annotation.exportPackage', { setId: set.id });
        const opened = imported(
          await colleague.call('annotation.importPackage', {
            fileName: pkg.fileName,
            contentBase64: pkg.contentBase64,
            asNewSet: true,
          }),
        );
        const here = labelsOf(core.db, set.id).map((l) => [l.annotator, l.value, l.guidelinesVersion]);
        const there = labelsOf(colleague.db, opened.set.id).map((l) => [
          l.annotator,
          l.value,
          l.guidelinesVersion,
        ]);
        expect(there.sort()).toEqual(here.sort());
        expect(await colleague.call('annotation.guidelines', { setId: opened.set.id })).toEqual(
          await core.call('annotation.guidelines', { setId: set.id }),
        );
        const theirs = await colleague.call('annotation.disagreements', { setId: opened.set.id });
        const ours = await core.call('annotation.disagreements', { setId: set.id });
        expect(theirs.map((d) => d.adjudication)).toEqual(ours.map((d) => d.adjudication));
      }
    } finally {
      colleague.close();
      other.cleanup();
    }
    // A reopened store holds the same versions and the adjudication.
    const before = await core.call('annotation.disagreements', { setId: adjudicated.id });
    core.close();
    core = new Core({ dataDir: dir, door: 'cli', keys: keys() });
    expect(await core.call('annotation.disagreements', { setId: adjudicated.id })).toEqual(before);
    expect(before.filter((d) => d.adjudication)).toHaveLength(1);
    expect((await core.call('annotation.guidelines', { setId: withGuidelines.id })).length).toBe(2);
    const zip = unzipSync(
      Buffer.from(
        (await core.call('annotation.exportZip', { setId: withGuidelines.id })).contentBase64,
        'base64',
      ),
    );
    const [, json] = Object.entries(zip).find(([n]) => n.endsWith('/guidelines.json'))!;
    expect(JSON.parse(Buffer.from(json).toString('utf8')).map((g: { version: number }) => g.version)).toEqual(
      [1, 2],
    );
  });
});
