// Recomputes a study bundle offline (issue 24): a new store in a scratch folder, the bundle's
// dataset put in with the same item ids, its config run again with every provider replaced by
// the `recorded` provider answering from the bundle's answers.jsonl (no key, no network), and
// metrics.json, every table (.csv, .tex) and every figure (.svg) of its export folder made again
// and compared byte for byte with the stored ones (an SVG up to the chart library's instance
// counter in its class and clip-path names). Knows no protocol.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUNDLE_ENTRIES as E,
  DIFFERENCES_LISTED,
  type BundleCheck,
  type BundlePlan,
  type BundleVerifyReport,
} from '../../shared/paper/bundle';
import type { manifestPreregistration } from '../../shared/paper/preregistration';
import { AppError } from '../base/errors';
import { ExperimentService } from '../experiments/service';
import { getProtocol } from '../protocols/registry';
import { loadExperiment } from '../experiments/load';
import { computeResultsUncached, reportFigures, reportTables } from '../experiments/results';
import { EnvOnlyKeyStore } from '../providers/key-store';
import { tableToCsv } from '../report/csv';
import { metricsJson } from '../report/export-folder';
import { canonicalSvg, renderFigure } from '../report/figures';
import { tableToLatex } from '../report/latex';
import { DB_FILE_NAME, openDatabase } from '../store/db';
import { insertDataset } from '../store/datasets';
import { insertPreregistration } from '../store/preregistrations';
import type { PreregistrationLock } from '../../shared/paper/preregistration';
import { bundleRefusal, type OpenedBundle } from './bundle-read';
import { confirmatoryMarks } from './confirmatory';
import { lockSha256, preregistrationView } from './preregistration';
import { pngCheck, xlsxCheck } from './bundle-recompare';
import type { BundleDataset } from './bundle-write';

type ManifestPreregistration = NonNullable<ReturnType<typeof manifestPreregistration>>;

/** Where two JSON values differ, as paths (`quality[2].accuracy`), the first DIFFERENCES_LISTED of them. */
function jsonDifferences(a: unknown, b: unknown, path = '', out: BundleCheck['differences'] = []) {
  if (out.length >= DIFFERENCES_LISTED) return out;
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object';
  if (bothObjects && Array.isArray(a) === Array.isArray(b)) {
    const keys = Array.isArray(a)
      ? [...Array(Math.max(a.length, (b as unknown[]).length)).keys()].map(String)
      : [...new Set([...Object.keys(a), ...Object.keys(b as object)])];
    for (const k of keys) {
      const sub = Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
      jsonDifferences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], sub, out);
    }
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push({
      where: path || '(whole file)',
      stored: JSON.stringify(a) ?? 'absent',
      recomputed: JSON.stringify(b) ?? 'absent',
    });
  }
  return out;
}

/** The first differing line of two texts (enough to find it in the files). */
function textDifferences(stored: string, recomputed: string): BundleCheck['differences'] {
  const a = stored.split('\n');
  const b = recomputed.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (a[i] !== b[i])
      return [{ where: `line ${i + 1}`, stored: a[i] ?? 'absent', recomputed: b[i] ?? 'absent' }];
  return [];
}

function check(file: string, stored: string, recomputed: string, json = false): BundleCheck {
  if (stored === recomputed) return { file, equal: true, differences: [] };
  let differences: BundleCheck['differences'] | undefined;
  if (json) {
    try {
      differences = jsonDifferences(JSON.parse(stored), JSON.parse(recomputed));
    } catch {
      // Not JSON on one side: compared as text below.
    }
  }
  if (!differences?.length) differences = textDifferences(stored, recomputed);
  return { file, equal: false, differences };
}

function parseJson<T>(bundle: OpenedBundle, name: string): T {
  try {
    return JSON.parse(bundle.text(name)) as T;
  } catch (err) {
    throw new AppError('invalid_input', `${bundle.file}: ${name}: not JSON (${(err as Error).message})`, [
      { file: `${bundle.file}:${name}`, message: 'not JSON' },
    ]);
  }
}

// Bundles written before figures were renumbered at render time still carry the library's own
// names, so both sides are compared in canonical form.
export { canonicalSvg };

/**
 * The bundle's locked plans: each lock's SHA-256 recomputed from its content (a lock that does not
 * match is refused, naming the entry and version), and the lock in force is the one the export's
 * manifest.json names. Null when no plan was locked.
 */
function preregistrationCheck(
  bundle: OpenedBundle,
): { check: BundleCheck; locks: PreregistrationLock[] } | null {
  if (!bundle.entries.has(E.preregistration)) return null;
  const entry = parseJson<{ experiment: string; locks: PreregistrationLock[] }>(bundle, E.preregistration);
  const locks = Array.isArray(entry.locks) ? entry.locks : [];
  locks.forEach((lock, i) => {
    const { sha256, ...body } = lock;
    const recomputed = lockSha256(bundle.meta.experiment.name, body);
    if (recomputed !== sha256)
      throw new AppError(
        'invalid_input',
        `${bundle.file}: ${E.preregistration}: version ${lock.version} does not match its SHA-256 (listed ${sha256}, recomputed ${recomputed}): the locked plan was changed`,
        [
          {
            file: `${bundle.file}:${E.preregistration}`,
            field: `locks[${i}].sha256`,
            message: 'does not match the lock',
          },
        ],
      );
  });
  const manifestFile = `${E.exportDir}manifest.json`;
  const manifest = bundle.entries.has(manifestFile)
    ? parseJson<{ preregistration?: { sha256?: string } }>(bundle, manifestFile)
    : {};
  const named = manifest.preregistration?.sha256 ?? 'absent';
  const active = locks.at(-1)?.sha256 ?? 'absent';
  return {
    check: {
      file: E.preregistration,
      equal: named === active,
      differences:
        named === active
          ? []
          : [{ where: `${manifestFile} preregistration.sha256`, stored: named, recomputed: active }],
    },
    locks,
  };
}

function refuseConfig(bundle: OpenedBundle, field: string, message: string): never {
  throw new AppError('invalid_input', `${bundle.file}: ${E.config}: ${field}: ${message}`, [
    { file: `${bundle.file}:${E.config}`, field, message },
  ]);
}

/**
 * The bundle's config, checked against bundle.json (the same experiment, protocol and simulated
 * mark) and refused when a field names a file by path: a bundle carries its files, and verify
 * never opens one of the reviewer's disk (nor names it, nor quotes it). `dataset` and each
 * provider's `file` are never read either: the replay replaces them with the bundle's dataset
 * and answers.
 */
function bundleConfig(bundle: OpenedBundle): Record<string, unknown> {
  const config = parseJson<unknown>(bundle, E.config);
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    refuseConfig(bundle, '(top level)', 'not a config (a JSON object)');
  const c = config as Record<string, unknown>;
  const { meta } = bundle;
  const where = (field: string) => ({ file: `${bundle.file}:${E.config}`, field });
  const mismatch = (field: string, inConfig: unknown, inMeta: unknown) => {
    const params = {
      file: bundle.file,
      field,
      inConfig: JSON.stringify(inConfig) ?? 'absent',
      inMeta: JSON.stringify(inMeta),
    };
    throw bundleRefusal('bundle.configMismatch', params, where(field));
  };
  if (c.name !== meta.experiment.name) mismatch('name', c.name, meta.experiment.name);
  if (c.protocol !== meta.experiment.protocol) mismatch('protocol', c.protocol, meta.experiment.protocol);
  const providers = c.providers;
  if (typeof providers !== 'object' || providers === null || Array.isArray(providers))
    refuseConfig(bundle, 'providers', 'missing or not an object');
  const simulated = Object.values(providers).some(
    (p) => typeof p === 'object' && p !== null && (p as { kind?: unknown }).kind === 'simulated',
  );
  if (simulated !== meta.simulated)
    throw bundleRefusal(
      simulated ? 'bundle.simulatedInConfig' : 'bundle.notSimulatedInConfig',
      { file: bundle.file },
      where('providers'),
    );
  const protocol = getProtocol(meta.experiment.protocol);
  const named = protocol.configPaths?.(c) ?? [];
  if (named.length)
    throw bundleRefusal(
      'bundle.configPath',
      { file: bundle.file, field: named[0].field },
      where(named[0].field),
    );
  return c;
}

/** Replays the bundle in `scratch` (an empty folder the caller removes) and compares. */
export async function verifyBundle(bundle: OpenedBundle, scratch: string): Promise<BundleVerifyReport> {
  const replay = await replayBundle(bundle, scratch);
  await replay.close();
  return replay.report;
}

/**
 * A bundle replayed and compared, its store still open: what the app reads the bundle's pages
 * from (paper/bundle-session.ts) until `close`. The store is the scratch folder's own, never the
 * user's.
 */
export interface ReplayedBundle {
  report: BundleVerifyReport;
  db: ReturnType<typeof openDatabase>;
  service: ExperimentService;
  experimentId: number;
  close(): Promise<void>;
}

export async function replayBundle(bundle: OpenedBundle, scratch: string): Promise<ReplayedBundle> {
  const config = bundleConfig(bundle);
  // Before the replay: a changed lock refuses the bundle outright.
  const prereg = preregistrationCheck(bundle);
  const dataset = parseJson<BundleDataset>(bundle, E.dataset);
  const answersFile = join(scratch, E.answers);
  writeFileSync(answersFile, bundle.entries.get(E.answers) ?? '');

  const db = openDatabase(join(scratch, DB_FILE_NAME));
  // No key reaches the replay: the recorded provider needs none, and none is there to leak.
  const service = new ExperimentService({
    db,
    dataDir: scratch,
    keys: new EnvOnlyKeyStore({}),
    emit: () => {},
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await service.shutdown();
    } finally {
      db.close();
    }
  };
  try {
    const ds = insertDataset(db, {
      name: dataset.name,
      sourceFile: dataset.source_file,
      format: dataset.format as never,
      kind: dataset.kind as never,
      contentHash: dataset.content_hash,
      items: dataset.items.map((i) => ({
        sourceId: i.source_id,
        subset: i.subset,
        instruction: i.instruction,
        output1: i.output_1,
        output2: i.output_2,
        label: i.label,
        extra: i.extra,
      })),
    });
    const providers = Object.fromEntries(
      Object.keys((config.providers as Record<string, unknown> | undefined) ?? {}).map((name) => [
        name,
        { kind: 'recorded', file: answersFile },
      ]),
    );
    // The plan a config names is not locked again at replay time: the bundle's own locks (their
    // hashes checked above) are put in below, as the study locked them.
    const { preregistration: _plan, ...replayed } = config;
    const summary = service.createOrUpdate({ ...replayed, dataset: ds.id, providers });
    if (bundle.entries.has(E.edits)) {
      const edits = parseJson<unknown>(bundle, E.edits);
      const where = `${bundle.file}:${E.edits}`;
      const created = loadExperiment(db, summary.id);
      if (!Array.isArray(edits) || !created.protocol.bundleEdits)
        throw new AppError(
          'invalid_input',
          `${where}: ${Array.isArray(edits) ? `protocol ${created.protocol.id} has no hand edits` : 'not a list'}`,
          [{ file: where, message: 'not replayable' }],
        );
      // Before the run: the replay judges the edited texts, as the study did after the edit.
      created.protocol.bundleEdits.apply(db, created.view, edits, where);
    }
    const final = await service.runToEnd(summary.id);
    if (final.status !== 'finished')
      throw new AppError(
        'invalid_input',
        `${bundle.file}: the replay of ${E.answers} did not finish (${final.message ?? final.status})`,
      );

    const exp = loadExperiment(db, summary.id);
    const { metrics, counts } = computeResultsUncached(db, summary.id);
    const checks: BundleCheck[] = [];
    const stored = (name: string) => (bundle.entries.has(name) ? bundle.text(name) : null);
    const metricsFile = `${E.exportDir}metrics.json`;
    const storedMetrics = stored(metricsFile);
    if (storedMetrics === null)
      throw new AppError('invalid_input', `${bundle.file}: ${metricsFile}: missing from the bundle`);
    checks.push(
      check(metricsFile, storedMetrics, metricsJson(metrics as object, exp.protocol.metricsKeys), true),
    );
    const simulated = bundle.meta.simulated;
    // The replay locks nothing: the bundle's lock in force marks the rows, as it did at export.
    const tables = reportTables(
      exp,
      metrics,
      confirmatoryMarks(exp.protocol, metrics, prereg?.locks ?? []),
      simulated,
    );
    for (const table of tables) {
      for (const [ext, text] of [
        ['csv', tableToCsv(table)],
        ['tex', tableToLatex(table, exp.protocol.id)],
      ] as const) {
        const name = `${E.exportDir}tables/${table.id}.${ext}`;
        const s = stored(name);
        checks.push(
          s === null
            ? {
                file: name,
                equal: false,
                differences: [{ where: '(file)', stored: 'absent', recomputed: 'present' }],
              }
            : check(name, s, text),
        );
      }
    }
    const notRecompared: BundleVerifyReport['notRecompared'] = [];
    const unreadable = (file: string, err: unknown) =>
      notRecompared.push({
        file,
        reason: 'unreadable',
        detail: err instanceof Error ? err.message : String(err),
      });
    const xlsxName = `${E.exportDir}tables/tables.xlsx`;
    const xlsx = bundle.entries.get(xlsxName);
    if (xlsx) {
      try {
        checks.push(await xlsxCheck(xlsxName, xlsx, tables));
      } catch (err) {
        unreadable(xlsxName, err);
      }
    }
    for (const spec of reportFigures(exp, metrics, 'en', simulated)) {
      const name = `${E.exportDir}figures/${spec.id}.svg`;
      const s = stored(name);
      // A figure the export could not draw is listed in its manifest, not in the bundle: not compared.
      if (s === null) continue;
      const figure = renderFigure(spec);
      checks.push(check(name, canonicalSvg(s), canonicalSvg(figure.svg)));
      const pngName = `${E.exportDir}figures/${spec.id}.png`;
      const png = bundle.entries.get(pngName);
      if (!png) continue;
      try {
        checks.push(await pngCheck(pngName, png, figure.svg, figure.width));
      } catch (err) {
        unreadable(pngName, err);
      }
    }
    if (prereg) {
      checks.push(prereg.check);
      // The replay's store holds the bundle's locks (their hashes checked above), so its results
      // and pages mark confirmatory and exploratory rows as the study's own store did.
      for (const lock of prereg.locks) {
        const { tampered: _tampered, ...stored } = lock;
        insertPreregistration(db, summary.id, stored);
      }
    }
    // Every other file of the export folder is said not to be recompared, never counted as equal.
    const compared = new Set([...checks.map((c) => c.file), ...notRecompared.map((n) => n.file)]);
    for (const name of [...bundle.entries.keys()].sort()) {
      if (!name.startsWith(E.exportDir) || compared.has(name)) continue;
      const rel = name.slice(E.exportDir.length);
      notRecompared.push({
        file: name,
        reason:
          rel === 'manifest.json'
            ? 'manifest'
            : ['methods.md', 'methods.tex', 'checklist.md'].includes(rel)
              ? 'methods'
              : 'protocolFile',
      });
    }
    const report: BundleVerifyReport = {
      file: bundle.file,
      experiment: bundle.meta.experiment,
      entries: bundle.entries.size,
      replayed: counts.planned - counts.pending,
      checks,
      identical: checks.every((c) => c.equal),
      notRecompared,
      simulated,
      tables,
      // The comparisons' names as the replay's power plan gives them (keys the page translates).
      preregistration: prereg
        ? { ...bundlePlan(bundle, prereg), comparisons: preregistrationView(db, exp).comparisons }
        : null,
    };
    return { report, db, service, experimentId: summary.id, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The bundle's locked plans as it holds them (their hashes checked above) and what its export's
 * manifest said of them: the lock it names, the deviations found when it was exported.
 */
function bundlePlan(
  bundle: OpenedBundle,
  prereg: { check: BundleCheck; locks: PreregistrationLock[] },
): Omit<BundlePlan, 'comparisons'> {
  const manifestFile = `${E.exportDir}manifest.json`;
  const manifest = bundle.entries.has(manifestFile)
    ? parseJson<{ preregistration?: ManifestPreregistration | null }>(bundle, manifestFile)
    : {};
  const named = manifest.preregistration ?? null;
  return {
    locks: prereg.locks,
    manifestMatches: prereg.check.equal,
    manifestSha256: named?.sha256 ?? null,
    deviations: Array.isArray(named?.deviations)
      ? named.deviations.map((d) => ({ kind: String(d.kind), text: String(d.text) }))
      : [],
  };
}
