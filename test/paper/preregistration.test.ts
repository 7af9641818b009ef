// Preregistration (issue 24 part 2) through the real core on a SQLite file: a Judge-LS study on the
// simulated provider locks its plan from the config before it runs; the lock's SHA-256 is
// recomputed here from its stored content; the store refuses to edit a lock; a new version needs a
// reason and is shown beside the old one; changes after the lock (items, judges, a text edited by
// hand, failed answers) come back as deviations in the view, the manifest, methods.md (EN and 中文)
// and the checklist; the study bundle carries the locks and `verify` refuses a changed one. Opened
// in the app (issue 38 §8), the bundle's replay answers the pages' reads with its own locks marking
// its rows and its hand edit in place; it answers nothing else, survives bundles refused after
// it, and its folder goes when it is closed or replaced.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/main/base/errors';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { BundleJson } from '../../src/shared/paper/bundle';
import type { ExperimentResults } from '../../src/shared/experiments';
import { ANALYSIS_COLUMN } from '../../src/shared/paper/confirmatory';
import { JUDGMENTS_VIEW, VARIANTS_VIEW, judgeLsRows } from '../../src/shared/protocols/judge-ls/views';
import type { PreregistrationLock } from '../../src/shared/paper/preregistration';
import type { Refusal } from '../../src/shared/refusals';
import { refusalResources } from '../../src/renderer/src/refusals/i18n';
import { tempDir } from '../helpers/tmp';

let core: Core;
let dir: string;
let cleanup: () => void;
let datasetId: number;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({ dataDir: join(dir, 'store'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  datasetId = (await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' })).dataset.id;
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

const sim = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 8 } };
const judge = (model: string, label = model) => ({ label, provider: 'sim', model });

function config(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    protocol: 'judge-ls',
    dataset: datasetId,
    limit: 4,
    providers: sim,
    transform: { provider: 'sim', model: 'sim-translator' },
    judges: [judge('sim-judge-weak', 'J')],
    ...extra,
  };
}

/** The SHA-256 recomputed independently: JSON with keys sorted at every depth, as the lock documents. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
function expectedSha(experiment: string, l: PreregistrationLock): string {
  const body = {
    experiment,
    version: l.version,
    plan: l.plan,
    snapshot: l.snapshot,
    reason: l.reason,
    lockedAt: l.lockedAt,
  };
  return createHash('sha256').update(sortedJson(body), 'utf8').digest('hex');
}

async function comparisonIds(cfg: Record<string, unknown>): Promise<string[]> {
  const estimate = await core.call('experiments.estimate', { config: cfg });
  return estimate.power!.comparisons.map((c) => c.id);
}

/** A refusal's English words as the renderer's `refusals` namespace writes them. */
function refusalText(r: Refusal): string {
  return refusalResources.en[r.key].replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(r.params?.[k]));
}

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a refusal');
}

describe('preregistration', () => {
  let id: number;
  let ids: string[];
  let plan: Record<string, unknown>;

  it('locks the config plan at create, before any answer, with a SHA-256 over its content and time', async () => {
    ids = await comparisonIds(config('prereg'));
    expect(ids.length).toBeGreaterThan(1);
    plan = {
      confirmatory: [ids[0], ids[1]],
      primary: ids[1],
      alpha: 0.01,
      correction: 'bonferroni',
      exclusions: 'items the audit flags are left out',
      stopping: 'all planned items; no interim look',
      hypotheses: 'The judge is less accurate on the Chinese texts.',
    };
    id = (await core.call('experiments.create', { config: config('prereg', { preregistration: plan }) })).id;
    const view = await core.call('experiments.preregistration', { experimentId: id });
    expect(view.locks).toHaveLength(1);
    const lock = view.active!;
    expect(lock.version).toBe(1);
    expect(lock.reason).toBeNull();
    expect(lock.plan).toEqual({ ...plan });
    expect(lock.snapshot.items).toBe(4);
    expect(lock.snapshot.judges).toEqual(['simulated / sim-judge-weak']);
    expect(lock.snapshot.answersAtLock).toBe(0);
    expect(lock.snapshot.comparisons.map((c) => c.id)).toEqual([ids[0], ids[1]]);
    // The power at the lock is the power plan's at the plan's α.
    const estimate = await core.call('experiments.estimate', { config: config('prereg') });
    expect(estimate.power!.alpha).toBe(0.05);
    expect(lock.snapshot.comparisons[0].n).toBe(estimate.power!.comparisons[0].n);
    expect(lock.sha256).toBe(expectedSha('prereg', lock));
    expect(view.deviations).toEqual([]);
    expect(view.markdown).toContain(lock.sha256);
    expect(view.markdown).toContain('Version 1 (in force)');
    const zh = await core.call('experiments.preregistration', { experimentId: id, lang: 'zh' });
    expect(zh.markdown).toContain('第 1 版（现行）');
    expect(zh.markdown).toContain('排除规则：items the audit flags are left out');
  }, 120_000);

  it('refuses a plan naming a comparison the power plan does not make, and a primary outside it', async () => {
    const bad = await refusal(
      core.call('experiments.create', {
        config: config('prereg-bad', {
          preregistration: { ...plan, confirmatory: ['no-such'], primary: undefined },
        }),
      }),
    );
    expect(bad.message).toMatch(/preregistration\.confirmatory\[0\]: "no-such" is not a comparison/);
    // The refusal's stable key and params cross the door; the page's English text equals the message.
    expect(bad.toPayload().refusal).toEqual({
      key: 'prereg.unknownComparison',
      params: { field: 'preregistration.confirmatory[0]', id: 'no-such', have: ids.join(', ') },
    });
    expect(refusalText(bad.toPayload().refusal!)).toBe(bad.message);
    expect(bad.issues[0].refusal).toEqual({ key: 'prereg.notInPowerPlan' });
    expect(refusalText(bad.issues[0].refusal!)).toBe(bad.issues[0].message);
    const primary = await refusal(
      core.call('experiments.create', {
        config: config('prereg-bad', { preregistration: { ...plan, primary: 'elsewhere' } }),
      }),
    );
    expect(primary.message).toMatch(/preregistration\.primary/);
    expect((await core.call('experiments.list', undefined)).some((e) => e.name === 'prereg-bad')).toBe(false);
  });

  it('runs; the store never edits a lock; a new version needs a reason and keeps the old one', async () => {
    const final = await core.experiments.runToEnd(id);
    expect(final.status).toBe('finished');
    const db = new BetterSqlite3(join(dir, 'store', 'judge-lab.sqlite'));
    try {
      expect(() =>
        db.prepare("UPDATE preregistrations SET plan_json = '{}' WHERE experiment_id = ?").run(id),
      ).toThrow(/never edited/);
    } finally {
      db.close();
    }
    const again = await refusal(core.call('experiments.preregister', { experimentId: id, plan }));
    expect(again.code).toBe('conflict');
    expect(again.message).toMatch(/never edited/);
    expect(again.refusal?.key).toBe('prereg.supersedeNeedsReason');
    expect(refusalText(again.refusal!)).toBe(again.message);
    const v1 = (await core.call('experiments.preregistration', { experimentId: id })).active!;
    const view = await core.call('experiments.preregister', {
      experimentId: id,
      plan: { ...plan, alpha: 0.05, correction: 'holm' },
      reason: 'The journal asks for α = 0.05 with Holm.',
    });
    expect(view.locks.map((l) => l.version)).toEqual([1, 2]);
    expect(view.locks[0]).toEqual(v1);
    expect(view.active!.reason).toBe('The journal asks for α = 0.05 with Holm.');
    expect(view.active!.snapshot.answersAtLock).toBeGreaterThan(0);
    expect(view.active!.sha256).toBe(expectedSha('prereg', view.active!));
    expect(view.deviations.map((d) => d.kind)).toContain('amended');
  }, 300_000);

  it('lists what changed after the lock as deviations: the sample size, the judges, the config, an edited text', async () => {
    // A changed plan in the config, without saying why: refused, and the config stays as it was.
    const changedPlan = await refusal(() =>
      core.experiments.createOrUpdate(config('prereg', { preregistration: { ...plan, alpha: 0.1 } })),
    );
    expect(changedPlan.message).toMatch(/amendment/);
    expect(changedPlan.refusal?.key).toBe('prereg.amendmentRequired');
    expect(refusalText(changedPlan.refusal!)).toBe(changedPlan.message);
    const stored = (await core.call('experiments.get', { experimentId: id })).config as { limit?: number };
    expect(stored.limit).toBe(4);

    core.experiments.createOrUpdate(
      config('prereg', {
        preregistration: plan,
        limit: 5,
        judges: [judge('sim-judge-weak', 'J'), judge('sim-judge-strong', 'K')],
      }),
    );
    await core.experiments.runToEnd(id);
    const variants = (await core.call('experiments.protocolView', {
      experimentId: id,
      view: 'variants',
    })) as {
      itemId: number;
      language: string;
    }[];
    const zhText = variants.find((v) => v.language === 'ZH')!;
    await core.call('experiments.protocolEdit', {
      experimentId: id,
      edit: 'variant',
      fields: {
        itemId: zhText.itemId,
        language: 'ZH',
        instruction: '人工修改',
        output1: '一',
        output2: '二',
      },
    });
    await core.experiments.runToEnd(id);
    const view = await core.call('experiments.preregistration', { experimentId: id });
    const kinds = view.deviations.map((d) => d.kind);
    const counts = (await core.call('experiments.results', { experimentId: id })).counts;
    expect(kinds).toEqual([
      'amended',
      'sample_size',
      'judges',
      'config',
      'texts_edited',
      ...(counts.failed > 0 ? ['answers_missing'] : []),
    ]);
    const byKind = Object.fromEntries(view.deviations.map((d) => [d.kind, d]));
    expect(byKind.sample_size.params).toEqual({ registered: 4, used: 5 });
    expect(byKind.judges.params).toEqual({ added: 'simulated / sim-judge-strong', removed: '' });
    expect(byKind.config.params).toEqual({ keys: 'judges, limit' });
    expect(byKind.texts_edited.params).toEqual({ count: 1 });

    // The export: the manifest names the lock in force, methods.md and the checklist state it.
    const out = join(dir, 'export');
    await core.experiments.export(id, out);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      preregistration: {
        sha256: string;
        locked_at: string;
        confirmatory: string[];
        superseded: { sha256: string }[];
      };
    };
    expect(manifest.preregistration.sha256).toBe(view.active!.sha256);
    expect(manifest.preregistration.locked_at).toBe(view.active!.lockedAt);
    expect(manifest.preregistration.confirmatory).toEqual([ids[0], ids[1]]);
    expect(manifest.preregistration.superseded.map((s) => s.sha256)).toEqual([view.locks[0].sha256]);
    const methods = readFileSync(join(out, 'methods.md'), 'utf8');
    const section = methods.slice(methods.indexOf('## Deviations from the preregistration'));
    expect(section).toContain(view.active!.sha256);
    expect(section).toContain('The plan registered 4 items; the experiment uses 5.');
    expect(section).toContain('1 texts were edited by hand after the lock.');
    expect(section).not.toContain('No preregistration was locked');
    // The English .tex with the plan's text in it (α, quotes, ids with _ and :) still compiles.
    const tex = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'methods.tex'], {
      cwd: out,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(tex.status, `pdflatex failed:\n${tex.stdout.slice(-3000)}`).toBe(0);
    const zh = await core.call('experiments.methods', { experimentId: id, lang: 'zh' });
    expect(zh.markdown).toContain('计划登记了 4 个条目；实验使用了 5 个。');
    expect(zh.markdown).toContain('评审模型与登记的不同：新增 simulated / sim-judge-strong；移除 无。');
    const checklist = readFileSync(join(out, 'checklist.md'), 'utf8');
    expect(checklist).toContain(`- [x] Preregistration: version 2 locked ${view.active!.lockedAt}`);
    // The power plan in the checklist: each comparison's smallest detectable effect for the items used.
    const power = (
      await core.call('experiments.estimate', {
        config: (await core.call('experiments.get', { experimentId: id })).config,
      })
    ).power!;
    const first = power.comparisons[0];
    expect(checklist).toContain(
      `${first.label}: ${first.n} ${first.unit}, MDE ${first.mde === null ? 'undefined' : first.mde.toFixed(3)}`,
    );
  }, 300_000);

  it('marks the rows the confirmatory comparisons read, in the results and every table export; nothing without a lock', async () => {
    expect(ids.slice(0, 2)).toEqual(['accuracy_change:EN-ZH', 'flip_rate:EN-ZH']);
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.confirmatory?.version).toBe(2);
    const table = (tid: string) => results.tables.find((t) => t.id === tid)!;
    const roles = (tid: string, key: string) => table(tid).rows.map((r) => [String(r[key]), r.analysis]);
    // Both comparisons read the EN-ZH invariance rows; the accuracy change also its McNemar rows.
    const invariance = roles('invariance', 'comparison');
    expect(invariance.length).toBeGreaterThan(0);
    for (const [comparison, role] of invariance)
      expect(role).toBe(comparison === 'EN-ZH' ? 'confirmatory' : 'exploratory');
    expect(invariance.some(([c]) => c === 'EN-LS')).toBe(true);
    for (const r of table('significance').rows)
      expect(r.analysis).toBe(
        r.test === 'McNemar (exact)' && r.comparison === 'EN-ZH' ? 'confirmatory' : 'exploratory',
      );
    expect(table('invariance').caption).toContain(
      'Analysis: confirmatory rows are those read by the comparisons preregistered in lock version 2 (accuracy_change:EN-ZH, flip_rate:EN-ZH)',
    );
    expect(table('significance').caption).toContain('lock version 2 (accuracy_change:EN-ZH)');
    // A table no confirmatory comparison reads is left as it is.
    expect(table('quality').columns.map((c) => c.key)).not.toContain('analysis');

    // The exports carry the same column: CSV (the results button and the export folder), XLSX, LaTeX.
    const file = async (format: 'csv' | 'xlsx' | 'tex') =>
      Buffer.from(
        (
          await core.call('experiments.exportFile', {
            experimentId: id,
            target: { table: 'invariance', format },
          })
        ).contentBase64,
        'base64',
      );
    const csv = (await file('csv')).toString('utf8');
    const csvRows = csv.trim().split(/\r?\n/);
    expect(csvRows[0].split(',').at(-1)).toBe('Analysis');
    expect(csvRows.filter((l) => l.includes('EN-ZH')).every((l) => l.endsWith(',confirmatory'))).toBe(true);
    expect(csvRows.filter((l) => l.includes('EN-LS')).every((l) => l.endsWith(',exploratory'))).toBe(true);
    expect(readFileSync(join(dir, 'export', 'tables', 'invariance.csv'), 'utf8')).toBe(csv);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await file('xlsx')) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const analysisCol = header.indexOf('Analysis');
    expect(analysisCol).toBeGreaterThan(0);
    const cells: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(analysisCol).value) cells.push(String(row.getCell(analysisCol).value));
    });
    expect(new Set(cells)).toEqual(new Set(['confirmatory', 'exploratory']));
    expect((await file('tex')).toString('utf8')).toMatch(/Analysis[\s\S]*confirmatory[\s\S]*exploratory/);

    // Another experiment with no lock: no column, no caption sentence, no marks in the results.
    const plain = (await core.call('experiments.create', { config: config('no-lock') })).id;
    await core.experiments.runToEnd(plain);
    const unlocked = await core.call('experiments.results', { experimentId: plain });
    expect(unlocked.confirmatory).toBeUndefined();
    for (const t of unlocked.tables) {
      expect(t.columns.map((c) => c.key)).not.toContain('analysis');
      expect(t.caption).not.toContain('Analysis:');
    }
  }, 300_000);

  it('bundles every lock; verify checks each SHA-256 and refuses a changed plan naming the entry', async () => {
    const bundle = await core.call('experiments.exportBundle', { experimentId: id });
    const bytes = Buffer.from(bundle.contentBase64, 'base64');
    const files = unzipSync(bytes);
    const entry = JSON.parse(new TextDecoder().decode(files['preregistration.json'])) as {
      locks: PreregistrationLock[];
    };
    expect(entry.locks.map((l) => l.version)).toEqual([1, 2]);
    // A replay folder of a process that is gone: removed when the next bundle opens.
    const exportsDir = join(dir, 'store', 'exports');
    const openFolders = () => readdirSync(exportsDir).filter((n) => n.startsWith('.bundle-open-'));
    mkdirSync(join(exportsDir, '.bundle-open-999999999-stale'), { recursive: true });
    // Opened as the app opens it: verified as `bundles.verify` does, its replay kept for the pages.
    const report = await core.call('bundles.open', {
      fileName: bundle.fileName,
      contentBase64: bundle.contentBase64,
    });
    expect(openFolders()).toEqual([expect.stringMatching(new RegExp(`^\\.bundle-open-${process.pid}-`))]);
    const check = report.checks.find((c) => c.file === 'preregistration.json')!;
    expect(check).toEqual({ file: 'preregistration.json', equal: true, differences: [] });
    // The text edited by hand travels in edits.json and is put back before the replay runs: every
    // metric, table, workbook cell and figure is identical (without it the audit, its sensitivity
    // analysis and the edited item's verdicts differed).
    expect(JSON.parse(new TextDecoder().decode(files['edits.json']))).toEqual([
      expect.objectContaining({ language: 'ZH', instruction: '人工修改', output_1: '一', output_2: '二' }),
    ]);
    expect(report.checks.filter((c) => !c.equal)).toEqual([]);
    expect(report.checks.find((c) => c.file === 'export/tables/tables.xlsx')?.equal).toBe(true);
    expect(report.identical).toBe(true);
    expect(report.preregistration).toMatchObject({
      manifestMatches: true,
      manifestSha256: entry.locks[1].sha256,
    });
    expect(report.preregistration!.locks.map((l) => l.sha256)).toEqual(entry.locks.map((l) => l.sha256));

    // The pages' reads, answered by the replay whatever experiment or item ids a page sends.
    const read = (method: string, params: Record<string, unknown> = {}) =>
      core.call('bundles.read', { session: report.session, method: method as never, params });
    const results = (await read('experiments.results', { experimentId: 987_654 })) as ExperimentResults;
    expect(results.simulated).toBe(true);
    expect(results.confirmatory?.version).toBe(2);
    expect(results.tables.flatMap((t) => t.rows.map((r) => r[ANALYSIS_COLUMN]))).toContain('confirmatory');
    expect(
      judgeLsRows.judgments(await read('experiments.protocolView', { view: JUDGMENTS_VIEW })).length,
    ).toBeGreaterThan(0);
    const variants = judgeLsRows.variants(await read('experiments.protocolView', { view: VARIANTS_VIEW }));
    const edited = variants.find((v) => v.manual)!;
    expect(edited).toMatchObject({ language: 'ZH', instruction: '人工修改' });
    expect(((await read('items.get', { itemId: edited.itemId })) as { datasetId: number }).datasetId).toBe(
      ((await read('experiments.get', { experimentId: 1 })) as { datasetId: number }).datasetId,
    );
    expect(((await read('experiments.get')) as { name: string }).name).toBe('prereg');
    expect(((await read('experiments.verdicts')) as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    expect(((await read('experiments.verdictLinks')) as { links: unknown[] }).links.length).toBeGreaterThan(
      0,
    );
    await expect(read('items.get', { itemId: 1_000_000 })).rejects.toMatchObject({ code: 'not_found' });
    // Nothing that writes, runs or exports.
    await expect(read('experiments.protocolEdit', { edit: 'variant', fields: {} })).rejects.toMatchObject({
      code: 'invalid_params',
    });

    // α of version 1 changed and bundle.json's hash updated to match: the lock's own hash refuses it.
    entry.locks[0].plan.alpha = 0.2;
    const changed = new TextEncoder().encode(
      JSON.stringify({ ...entry, experiment: 'prereg' }, null, 2) + '\n',
    );
    const meta = JSON.parse(new TextDecoder().decode(files['bundle.json'])) as BundleJson;
    meta.entries['preregistration.json'] = createHash('sha256').update(changed).digest('hex');
    const forged = zipSync({
      ...files,
      'preregistration.json': changed,
      'bundle.json': new TextEncoder().encode(JSON.stringify(meta)),
    });
    const refused = await refusal(
      core.call('bundles.open', {
        fileName: 'forged.judgelab',
        contentBase64: Buffer.from(forged).toString('base64'),
      }),
    );
    expect(refused.message).toMatch(
      /forged\.judgelab: preregistration\.json: version 1 does not match its SHA-256/,
    );

    // An edit naming an item the dataset does not have is refused, naming the entry and field.
    const badEdits = new TextEncoder().encode(
      JSON.stringify([
        { ...JSON.parse(new TextDecoder().decode(files['edits.json']))[0], source_id: 'nope' },
      ]),
    );
    const meta2 = JSON.parse(new TextDecoder().decode(files['bundle.json'])) as BundleJson;
    meta2.entries['edits.json'] = createHash('sha256').update(badEdits).digest('hex');
    const badBundle = zipSync({
      ...files,
      'edits.json': badEdits,
      'bundle.json': new TextEncoder().encode(JSON.stringify(meta2)),
    });
    const badRefused = await refusal(
      core.call('bundles.open', {
        fileName: 'edited.judgelab',
        contentBase64: Buffer.from(badBundle).toString('base64'),
      }),
    );
    expect(badRefused.message).toBe(
      'edited.judgelab:edits.json: entry 1: source_id: item "nope" is not part of the experiment',
    );
    expect(badRefused.issues).toEqual([
      {
        file: 'edited.judgelab:edits.json',
        field: '[0].source_id',
        message: 'item "nope" is not part of the experiment',
      },
    ]);

    // Both refused, one before its replay and one by it: the bundle already open still answers.
    expect(((await read('experiments.get')) as { name: string }).name).toBe('prereg');
    // Another bundle opened replaces it; closing that one leaves no folder behind.
    const again = await core.call('bundles.open', {
      fileName: 'again.judgelab',
      contentBase64: bundle.contentBase64,
    });
    await expect(read('experiments.get')).rejects.toMatchObject({ code: 'not_found' });
    expect(openFolders()).toHaveLength(1);
    expect(await core.call('bundles.close', { session: again.session })).toEqual({ closed: true });
    expect(await core.call('bundles.close', { session: again.session })).toEqual({ closed: false });
    expect(openFolders()).toEqual([]);
  }, 600_000);
});
