// A study bundle opened in the app (issue 38 §8): `bundles.open` verifies it as `bundles.verify`
// does and keeps its replay open, so `bundles.read` answers the results page's and the protocol's
// pages' reads from the bundle alone: here the study and its dataset are deleted from the store
// first, and the reads still answer, the locked plan marking its rows. Only the listed reads are
// answered; a tampered bundle is refused and leaves the open one as it was; another bundle
// opened closes it; closing removes the scratch folder, and a folder a dead process left
// behind is removed at the next open.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { ExperimentResults } from '../../src/shared/experiments';
import type { Item, ItemRow } from '../../src/shared/domain';
import { ANALYSIS_COLUMN } from '../../src/shared/paper/confirmatory';
import { JUDGMENTS_VIEW, judgeLsRows } from '../../src/shared/protocols/judge-ls/views';
import { tempDir } from '../helpers/tmp';

let core: Core;
let dir: string;
let cleanup: () => void;
let bundle: Buffer;
let sha256: string;
let firstItem: Item;

const exportsDir = () => join(dir, 'store', 'exports');
const openFolders = () => readdirSync(exportsDir()).filter((n) => n.startsWith('.bundle-open-'));

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({ dataDir: join(dir, 'store'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const { id } = await core.call('experiments.create', {
    config: {
      name: 'open-me',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 3,
      providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'Sim noisy', provider: 'sim', model: 'sim-judge-weak-flip20' }],
    },
  });
  const plan = await core.call('experiments.preregistration', { experimentId: id });
  const flips = plan.comparisons.find((c) => c.id.startsWith('flip_rate:'))!.id;
  const locked = await core.call('experiments.preregister', {
    experimentId: id,
    plan: {
      confirmatory: [flips],
      alpha: 0.05,
      correction: 'holm',
      exclusions: 'none',
      stopping: 'all items',
    },
  });
  sha256 = locked.active!.sha256;
  expect((await core.experiments.runToEnd(id)).status).toBe('finished');
  const rows = await core.call('items.list', { datasetId: dataset.id });
  firstItem = await core.call('items.get', { itemId: rows[0].id });
  bundle = Buffer.from(
    (await core.call('experiments.exportBundle', { experimentId: id })).contentBase64,
    'base64',
  );
  // Nothing of the study is left in the store: whatever the bundle's reads answer is its own.
  await core.call('experiments.delete', { experimentId: id });
  await core.call('datasets.delete', { datasetId: dataset.id });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

const open = (bytes: Uint8Array, fileName = 'open-me.judgelab') =>
  core.call('bundles.open', { fileName, contentBase64: Buffer.from(bytes).toString('base64') });

describe('bundles.open / bundles.read / bundles.close', () => {
  it('answers the results and pages from the bundle alone, the plan marking its rows', async () => {
    // A replay folder of a process that is gone: removed when the next bundle opens.
    mkdirSync(join(exportsDir(), '.bundle-open-999999999-stale'), { recursive: true });
    const report = await open(bundle);
    expect(report.identical, JSON.stringify(report.checks.filter((c) => !c.equal))).toBe(true);
    expect(report.preregistration).toMatchObject({ manifestMatches: true, manifestSha256: sha256 });
    expect(report.preregistration!.locks.map((l) => l.sha256)).toEqual([sha256]);
    expect(openFolders()).toHaveLength(1);
    expect(openFolders()[0]).toMatch(new RegExp(`^\\.bundle-open-${process.pid}-`));

    const read = (method: string, params: Record<string, unknown> = {}) =>
      core.call('bundles.read', { session: report.session, method: method as never, params });
    // Whatever experiment id a page sends, the bundle's replay answers.
    const results = (await read('experiments.results', { experimentId: 987_654 })) as ExperimentResults;
    expect(results.protocol).toBe('judge-ls');
    expect(results.simulated).toBe(true);
    expect(results.confirmatory?.version).toBe(1);
    const invariance = results.tables.find((t) => t.id === 'invariance')!;
    expect(invariance.title).toMatch(/^Simulated — /);
    expect(invariance.rows.map((r) => r[ANALYSIS_COLUMN])).toContain('confirmatory');
    const judgments = judgeLsRows.judgments(
      await read('experiments.protocolView', { experimentId: 1, view: JUDGMENTS_VIEW }),
    );
    expect(judgments.length).toBeGreaterThan(0);
    const items = (await read('items.list', { datasetId: 424_242 })) as ItemRow[];
    // The bundle carries the whole dataset, in its order.
    expect(items.length).toBeGreaterThanOrEqual(3);
    const item = (await read('items.get', { itemId: items[0].id })) as Item;
    expect(item.instruction).toBe(firstItem.instruction);
    expect(((await read('experiments.get', { experimentId: 3 })) as { name: string }).name).toBe('open-me');

    // Nothing else: not a write, not an export, not another item.
    await expect(
      core.call('bundles.read', {
        session: report.session,
        method: 'experiments.protocolEdit' as never,
        params: {},
      }),
    ).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(read('items.get', { itemId: 1_000_000 })).rejects.toMatchObject({ code: 'not_found' });

    // A changed byte: refused, and the bundle already open still answers.
    const entries = unzipSync(new Uint8Array(bundle));
    entries['answers.jsonl'][10] ^= 1;
    await expect(open(zipSync(entries), 'changed.judgelab')).rejects.toThrow(/answers\.jsonl/);
    expect(((await read('experiments.get')) as { name: string }).name).toBe('open-me');

    // Opening another bundle closes this one; closing that one removes its folder too.
    const second = await open(bundle, 'again.judgelab');
    await expect(read('experiments.get')).rejects.toMatchObject({ code: 'not_found' });
    expect(openFolders()).toHaveLength(1);
    expect(await core.call('bundles.close', { session: second.session })).toEqual({ closed: true });
    expect(await core.call('bundles.close', { session: second.session })).toEqual({ closed: false });
    expect(openFolders()).toEqual([]);
    expect(existsSync(join(exportsDir(), '.bundle-open-999999999-stale'))).toBe(false);
  }, 120_000);
});
