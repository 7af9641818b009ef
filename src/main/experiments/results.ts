// An experiment's metrics, tables and exports, computed from stored results only (no provider).
// Protocol-neutral: the protocol's plug-in turns its stored results into metrics and report
// content; this module gathers what every protocol needs (results, usage, failures).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { APP_VERSION } from '../base/version';
import { localizeFigure, type FigureLanguage } from '../../shared/report/figure-i18n';
import type { ExperimentResults, FailedCallView, FlaggedItem, ResultCounts } from '../../shared/experiments';
import type { FigureSpec } from '../../shared/report/chart-kit';
import { markSimulatedFigure, markSimulatedTable } from '../../shared/report/simulated';
import type { Table } from '../../shared/report/table';
import type { MethodsFiles } from '../../shared/paper/methods';
import { manifestPreregistration, type PaperInputs } from '../../shared/paper/preregistration';
import type { MetricsContext, TaskCall, TaskResult, UsageRow } from '../protocols/plugin';
import { anyRecorded, anySimulated } from '../providers/config';
import { recordedSummary } from './recorded';
import { costOf } from '../providers/pricing';
import { writeExportFolder } from '../report/export-folder';
import type { Database } from '../store/db';
import { plannedCount } from '../store/experiments';
import { answeredTaskUsage, getAnswerRows, getRequests, type AnsweredTaskUsage } from '../store/ledger';
import { listResults, scanResults, type ResultsScan } from '../store/results';
import { planFingerprint, readStoredResults, writeStoredResults } from '../store/results-cache';
import { loadExperiment, modelsOf, type LoadedExperiment } from './load';
import { storeAnswers } from './stages';
import { methodsFiles } from '../paper/methods';
import { confirmatoryMarks } from '../paper/confirmatory';
import { markConfirmatory, type ConfirmatoryMarks } from '../../shared/paper/confirmatory';
import { readLocks } from '../paper/prereg-locks';

/**
 * Usage per model role. A request first planned by an earlier experiment was paid there:
 * here it is a cache hit and costs nothing.
 */
export function usageRows(
  db: Database,
  exp: LoadedExperiment,
  /** The plan's answered tasks, when the caller read them already (scanResults). */
  answered: readonly AnsweredTaskUsage[] = answeredTaskUsage(db, exp.row.id),
): UsageRow[] {
  const paidElsewhere = new Set(
    // Only an earlier experiment's plan can have paid: without one the join (~0.15 CPU-s at
    // 92,000 tasks) finds nothing.
    db.prepare('SELECT 1 FROM experiment_tasks WHERE experiment_id < ? LIMIT 1').get(exp.row.id)
      ? (
          db
            .prepare(
              `SELECT DISTINCT t.request_id FROM experiment_tasks t JOIN experiment_tasks o
                 ON o.request_id = t.request_id AND o.experiment_id < t.experiment_id
               WHERE t.experiment_id = ?`,
            )
            .all(exp.row.id) as { request_id: number }[]
        ).map((r) => r.request_id)
      : [],
  );
  const out = new Map<string, UsageRow>();
  const seen = new Set<number>();
  const row = (role: string, label: string, model: string) => {
    const key = `${role}\u0000${label}`;
    let r = out.get(key);
    if (!r) {
      r = {
        role,
        judge: label,
        model,
        calls: 0,
        cache_hits: 0,
        input_tokens: 0,
        output_tokens: 0,
        cached_input_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: 0,
      };
      out.set(key, r);
    }
    return r;
  };
  for (const m of modelsOf(exp)) row(m.role, m.label, m.model);
  const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
  for (const req of answered) {
    const stage = stages.get(req.stage);
    if (!stage) continue;
    const who = stage.describe(req);
    const r = row(who.role, who.label, req.model);
    // The same request in two slots of one plan is one call.
    if (seen.has(req.id) || paidElsewhere.has(req.id)) {
      r.cache_hits++;
      continue;
    }
    seen.add(req.id);
    r.calls++;
    r.input_tokens += req.inputTokens ?? 0;
    r.output_tokens += req.outputTokens ?? 0;
    r.cached_input_tokens += req.cachedTokens ?? 0;
    r.cache_write_tokens += req.cacheWriteTokens ?? 0;
    r.cost_usd +=
      req.costUsd ??
      costOf(
        req.model,
        {
          inputTokens: req.inputTokens ?? 0,
          outputTokens: req.outputTokens ?? 0,
          cachedInputTokens: req.cachedTokens ?? 0,
          cacheWriteTokens: req.cacheWriteTokens ?? 0,
        },
        exp.prices,
      ).usd;
  }
  return [...out.values()];
}

/** The plan's state: answered (usable or not) and still open. */
export function resultCounts(db: Database, experimentId: number): ResultCounts {
  // Every task's request exists (a foreign key), so the plan's size needs no join with the ledger.
  const planned = plannedCount(db, experimentId);
  const r = db
    .prepare(
      `SELECT COALESCE(SUM(x.status = 'ok'), 0) AS ok, COALESCE(SUM(x.status = 'failed'), 0) AS failed
       FROM task_results x JOIN experiment_tasks t ON t.experiment_id = x.experiment_id AND t.task_key = x.task_key
       WHERE x.experiment_id = ?`,
    )
    .get(experimentId) as { ok: number; failed: number };
  return { planned, ok: r.ok, failed: r.failed, pending: planned - r.ok - r.failed };
}

/** resultCounts, from a read of the plan. */
function countsOf(scan: ResultsScan): ResultCounts {
  const { planned, ok, failed } = scan;
  return { planned, ok, failed, pending: planned - ok - failed };
}

/** What a protocol's metrics, tables and exports are computed from. */
export function metricsContext(
  db: Database,
  exp: LoadedExperiment,
  excludeFlagged: boolean,
  /** The plan as read after the answers were stored (storedScan), when the caller has it. */
  scan?: ResultsScan,
  /** Leave out, too, the items the protocol's verification did not pass (its `unverified` hook). */
  verifiedOnly = false,
): MetricsContext {
  const s = scan ?? storedScan(db, exp);
  const flagged = exp.protocol.flagged?.(exp.view, db) ?? [];
  const ctx: MetricsContext = {
    exp: exp.view,
    results: exp.protocol.editedResults?.(db, exp.view, s.results) ?? s.results,
    usage: usageRows(db, exp, s.usage),
    excluded: new Set(excludeFlagged ? flagged.map((f) => f.item_id) : []),
    flagged: excludeFlagged ? [] : flagged,
  };
  if (!verifiedOnly) return ctx;
  const unverified = exp.protocol.unverified?.(ctx) ?? [];
  return { ...ctx, excluded: new Set([...ctx.excluded, ...unverified.map((u) => u.item_id)]) };
}

/**
 * The plan's results, usage and counts with every answer stored: storeAnswers runs only when
 * the read shows something it would store or drop (when nothing is, it neither writes nor
 * calls the protocol's hook), and the plan is read again after it. A store open read-only (a
 * newer release made it) is shown as its results table holds it.
 */
export function storedScan(db: Database, exp: LoadedExperiment): ResultsScan {
  const scan = scanResults(db, exp.row.id);
  if (db.readonly || !scan.unsynced) return scan;
  storeAnswers(db, exp);
  return scanResults(db, exp.row.id);
}

/**
 * Every call of the experiment that ended without a usable answer, stage by stage in the
 * protocol's order, each with the model's raw answer when one came.
 */
export function failedCalls(db: Database, experimentId: number): FailedCallView[] {
  const exp = loadExperiment(db, experimentId);
  storeAnswers(db, exp);
  const failed = listResults(db, experimentId).filter((r) => r.status === 'failed');
  const raw = getRequests(
    db,
    failed.map((r) => r.requestId),
  );
  const stages = new Map(exp.protocol.stages.map((s, i) => [s.name, { s, i }]));
  const sourceOf = new Map(exp.items.map((i) => [i.id, i.sourceId]));
  return failed
    .map((r) => {
      const who = stages.get(r.stage)!.s.describe(r);
      const meta = (r.meta ?? {}) as Record<string, unknown>;
      const itemId = typeof meta.itemId === 'number' ? meta.itemId : 0;
      return {
        order: stages.get(r.stage)!.i,
        view: {
          stage: r.stage,
          judge: who.role === 'judge' ? who.label : null,
          sourceId: typeof meta.sourceId === 'string' ? meta.sourceId : (sourceOf.get(itemId) ?? ''),
          itemId,
          language: typeof meta.language === 'string' ? meta.language : '',
          order: typeof meta.order === 'string' ? meta.order : null,
          kind: who.kind,
          reason: r.reason ?? 'failed',
          rawText: raw.get(r.requestId)?.responseText ?? null,
          attempts: r.attempts,
        } satisfies FailedCallView,
      };
    })
    .sort((a, b) => a.order - b.order)
    .map((x) => x.view);
}

/**
 * The protocol's tables, their rows marked confirmatory or exploratory when a preregistration is
 * in force (`marks`), and marked "Simulated — " when the simulated provider answered.
 */
export function reportTables(
  exp: LoadedExperiment,
  metrics: unknown,
  marks: ConfirmatoryMarks | null,
  /** A bundle's replay answers from recorded files but draws as the simulated run did. */
  simulated = anySimulated(exp.providers),
): Table[] {
  const tables = markConfirmatory(exp.protocol.tables(metrics), marks);
  return simulated ? tables.map(markSimulatedTable) : tables;
}

/**
 * What the lock in force (the newest) makes confirmatory in these metrics' tables; null: none.
 * A store holding a tampered lock (its content no longer hashes to its SHA-256) marks nothing
 * confirmatory: the plan it would read cannot be relied on (issue 40 item 5).
 */
export function marksInForce(
  db: Database,
  exp: LoadedExperiment,
  metrics: unknown,
): ConfirmatoryMarks | null {
  const locks = readLocks(db, exp.row.id, exp.row.name);
  if (locks.some((l) => l.tampered)) return null;
  return confirmatoryMarks(exp.protocol, metrics, locks);
}

/**
 * The protocol's figures, marked "Simulated — " when the simulated provider answered, with
 * their words in `lang` (the protocol's figure dictionary; English when it has none).
 */
export function reportFigures(
  exp: LoadedExperiment,
  metrics: unknown,
  lang: FigureLanguage = 'en',
  simulated = anySimulated(exp.providers),
): FigureSpec[] {
  const figures = exp.protocol.figures(metrics);
  const marked = simulated ? figures.map(markSimulatedFigure) : figures;
  const dict = exp.protocol.figureText?.[lang];
  return dict ? marked.map((f) => localizeFigure(f, lang, [dict])) : marked;
}

/** The store's state as this connection sees it: another connection's commits and its own changes. */
function storeStamp(db: Database): string {
  const dataVersion = db.pragma('data_version', { simple: true }) as number;
  const ownChanges = db.prepare('SELECT total_changes()').pluck().get() as number;
  return `${dataVersion}:${ownChanges}`;
}

/**
 * Whether anything results are computed from may have changed, in O(1): SQLite's data_version
 * (changes committed by any other connection, e.g. a CLI run in another process) and this
 * connection's total_changes() cover the whole store (plan, ledger, stored results, other
 * experiments); the rest is what loading reads from outside it: the options (config and files it
 * names, e.g. imported answers), the items and the flagged ones. Any write anywhere is a miss,
 * which is right while something runs and free when nothing does.
 */
function resultsSignature(
  db: Database,
  exp: LoadedExperiment,
  excludeFlagged: boolean,
  flagged: readonly FlaggedItem[],
  verifiedOnly = false,
): string {
  const options = createHash('sha256')
    .update(JSON.stringify([exp.row.updatedAt, exp.config, exp.view.options, flagged]))
    .digest('hex');
  return JSON.stringify([excludeFlagged, verifiedOnly, storeStamp(db), exp.items.length, options]);
}

interface CachedResults {
  signature: string;
  results: ExperimentResults;
}

// Computed results per database and (experiment, sensitivity switch): a results page asks again
// and again (reloads, exports, the switch) while nothing changed, and at the paper's scale one
// computation reads and parses ~90,000 stored answers. A few entries: pages look at one or two.
const resultsCache = new WeakMap<Database, Map<string, CachedResults>>();
const CACHED_EXPERIMENTS = 4;

/** Moved when stored results of this release must not be read (their shape or meaning changed). */
const STORED_RESULTS_FORMAT = 1;
let codeStamp: string | undefined;

/**
 * The code results are computed by: the release, and the digest of the file this module was
 * loaded from (the built core chunk, ~1 MB, ~3 ms: a rebuild of a development checkout changes it,
 * the release number does not; its time would differ between two builds of the same code).
 */
function codeVersion(): string {
  if (codeStamp === undefined) {
    let file = '';
    try {
      file = createHash('sha256')
        .update(readFileSync(fileURLToPath(import.meta.url)))
        .digest('hex');
    } catch {
      // No file behind the module: the release alone tells the code.
    }
    codeStamp = `${APP_VERSION}:${STORED_RESULTS_FORMAT}:${file}`;
  }
  return codeStamp;
}

/**
 * The signature kept beside stored results, which any later process can take again: the code,
 * the switches, everything loading read (config, options, items, providers, prices), the flagged
 * items, the preregistration locks (a tampered one marks nothing confirmatory), the hand edits, and the plan's,
 * its results' and its requests' fingerprint (store/results-cache.ts).
 */
function storedSignature(
  db: Database,
  exp: LoadedExperiment,
  variant: string,
  flagged: readonly FlaggedItem[],
): string {
  const inputs = createHash('sha256')
    .update(
      JSON.stringify([
        exp.row.protocol,
        exp.row.configJson,
        exp.view,
        flagged,
        readLocks(db, exp.row.id, exp.row.name),
        // Hand edits (translations, rewrites): an edit that re-plans no call still changes what
        // the results report of it (who edited what, the edited text).
        exp.protocol.bundleEdits?.list(db, exp.view) ?? [],
      ]),
    )
    .digest('hex');
  return JSON.stringify([codeVersion(), variant, inputs, planFingerprint(db, exp.row.id)]);
}

/**
 * Results as computeResultsUncached makes them, reused while the signature is unchanged. It is
 * taken after answers are stored (storing writes), and checked before storing: when nothing
 * changed since, storing would find nothing to store (and is skipped: at scale it scans the plan).
 * A process's first call reads them from the store when their stored signature still holds
 * (issue 39); computed results are kept there unless the experiment is running (`persist`: the
 * runner's last step, whose status is still "running"), where every call would write them.
 */
export function computeResults(
  db: Database,
  experimentId: number,
  excludeFlagged = false,
  verifiedOnly = false,
  persist: 'unless running' | 'always' = 'unless running',
): ExperimentResults {
  const exp = loadExperiment(db, experimentId);
  // The flagged items are part of both signatures and cost an audit of every variant: taken once
  // per state of the store (its own and others' writes), not once per signature.
  let flaggedMemo: { at: string; flagged: readonly FlaggedItem[] } | undefined;
  const flaggedNow = () => {
    const at = storeStamp(db);
    if (flaggedMemo?.at !== at) flaggedMemo = { at, flagged: exp.protocol.flagged?.(exp.view, db) ?? [] };
    return flaggedMemo.flagged;
  };
  let cache = resultsCache.get(db);
  if (!cache) resultsCache.set(db, (cache = new Map()));
  const variant = `${excludeFlagged}:${verifiedOnly}`;
  const key = `${experimentId}:${variant}`;
  const hit = cache.get(key);
  if (hit && hit.signature === resultsSignature(db, exp, excludeFlagged, flaggedNow(), verifiedOnly)) {
    // Most recently used last, so the oldest is the one dropped.
    cache.delete(key);
    cache.set(key, hit);
    return structuredClone(hit.results);
  }
  // `flagged` as taken before a write of the stored results (which changes no flag): the in-memory
  // signature is taken after that write, since it holds the store's change counters.
  const remember = (results: ExperimentResults, flagged: readonly FlaggedItem[]) => {
    cache.delete(key);
    cache.set(key, {
      signature: resultsSignature(db, exp, excludeFlagged, flagged, verifiedOnly),
      results: structuredClone(results),
    });
    while (cache.size > CACHED_EXPERIMENTS) cache.delete(cache.keys().next().value!);
    return results;
  };
  const kept = readStoredResults(db, experimentId, variant);
  if (kept && kept.signature === storedSignature(db, exp, variant, flaggedNow())) {
    try {
      return remember(deserialize(kept.results) as ExperimentResults, flaggedNow());
    } catch {
      // Written by another V8 (the app's Electron, the CLI's Node): computed again below.
    }
  }
  // Storing (when anything is to store) writes: the signatures are taken after it.
  const scan = storedScan(db, exp);
  const results = resultsOf(db, exp, excludeFlagged, scan, verifiedOnly);
  const flagged = flaggedNow();
  if (!db.readonly && (persist === 'always' || exp.row.status !== 'running'))
    writeStoredResults(
      db,
      experimentId,
      variant,
      storedSignature(db, exp, variant, flagged),
      serialize(results),
    );
  return remember(results, flagged);
}

/** Metrics, tables, flagged items and counts, computed from the store every time. */
export function computeResultsUncached(
  db: Database,
  experimentId: number,
  excludeFlagged = false,
): ExperimentResults {
  const exp = loadExperiment(db, experimentId);
  return resultsOf(db, exp, excludeFlagged, storedScan(db, exp));
}

function resultsOf(
  db: Database,
  exp: LoadedExperiment,
  excludeFlagged: boolean,
  scan: ResultsScan,
  verifiedOnly = false,
): ExperimentResults {
  const ctx = metricsContext(db, exp, excludeFlagged, scan, verifiedOnly);
  const metrics = exp.protocol.computeMetrics(ctx);
  // What the verified-only switch leaves out, counted on the items the flagged switch keeps (so
  // the page can say how many and why whichever way the switch stands).
  const unverified = exp.protocol.unverified?.(
    verifiedOnly ? metricsContext(db, exp, excludeFlagged, scan) : ctx,
  );
  const marks = marksInForce(db, exp, metrics);
  return {
    protocol: exp.protocol.id,
    metrics,
    tables: reportTables(exp, metrics, marks),
    // Only with a lock: a page that rebuilds a table (another interval) marks it the same way.
    ...(marks ? { confirmatory: marks } : {}),
    flagged: exp.protocol.flagged?.(exp.view, db) ?? [],
    ...(unverified ? { unverified } : {}),
    counts: countsOf(scan),
    simulated: anySimulated(exp.providers),
  };
}

/** methods.md, methods.tex and checklist.md of an experiment, as its export folder holds them. */
export function experimentMethods(
  db: Database,
  experimentId: number,
  lang: FigureLanguage,
  paper: PaperInputs,
): MethodsFiles {
  const exp = loadExperiment(db, experimentId);
  const ctx = metricsContext(db, exp, false);
  const metrics = exp.protocol.computeMetrics(ctx);
  const tables = reportTables(exp, metrics, marksInForce(db, exp, metrics));
  return methodsFiles(db, exp, ctx, metrics, tables, lang, paper);
}

/**
 * Writes the export folder of DESIGN.md section 8 for any protocol. `paper`: the preregistration
 * and power plan (paper/preregistration.ts `paperInputs`), handed in since they read these results.
 */
/**
 * The results in one fixed order (stage by stage, then by task key) for the export's per-answer
 * files: stored order is the order tasks were recorded, and a stage that plans as earlier answers
 * arrive (a verdict on a translation, a rewrite, a generated answer) records them in the order of
 * arrival, so judgments.csv of the same answers came out in another order from run to run.
 */
function canonicalOrder<C extends { results: readonly TaskResult[] }>(
  protocol: { stages: readonly { name: string }[] },
  ctx: C,
): C {
  const stage = new Map(protocol.stages.map((s, i) => [s.name, i]));
  const results = [...ctx.results].sort(
    (a, b) =>
      (stage.get(a.stage) ?? 0) - (stage.get(b.stage) ?? 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return { ...ctx, results };
}

export async function exportExperiment(
  db: Database,
  experimentId: number,
  outDir: string,
  lang: FigureLanguage,
  paper: PaperInputs,
) {
  // The metrics and tables as the results page has them (computeResults: the same computation
  // from the same stored answers), so an export right after a run reuses what the run's last step
  // computed instead of computing the study again (issue 39: ~1 CPU-s of a 419 × 3 study's export).
  const exp = loadExperiment(db, experimentId);
  const results = computeResults(db, experimentId);
  const metrics = results.metrics as ReturnType<typeof exp.protocol.computeMetrics>;
  const tables = results.tables;
  const ctx = metricsContext(db, exp, false);
  const lastStage = exp.protocol.stages.at(-1)?.name;
  const answers = ctx.results.filter((r) => r.stage === lastStage);
  const preregistration = manifestPreregistration(paper.preregistration);
  return writeExportFolder(outDir, {
    protocol: exp.protocol.id,
    metrics,
    metricsKeys: exp.protocol.metricsKeys,
    tables,
    figures: reportFigures(exp, metrics, lang),
    // Made when the folder writes them, after the figures it draws on this thread: the per-answer
    // files (texts.csv alone ~1.2 MiB of the position study's heap), the raw answers behind them
    // and the methods texts were otherwise held under resvg's canvases, the export's peak (issue 39).
    files: () => {
      const ledger = getAnswerRows(
        db,
        ctx.results.map((r) => r.requestId),
      );
      const calls = new Map<number, TaskCall>(
        [...ledger].map(([id, r]) => [
          id,
          { rawText: r.responseText, inputTokens: r.inputTokens, outputTokens: r.outputTokens },
        ]),
      );
      const methods = methodsFiles(db, exp, ctx, metrics, tables, lang, paper);
      return [
        ...(exp.protocol.exportFiles?.(canonicalOrder(exp.protocol, ctx), calls, db) ?? []),
        { name: 'methods.md', content: methods.markdown },
        { name: 'methods.tex', content: methods.latex },
        { name: 'checklist.md', content: methods.checklist },
      ];
    },
    manifest: {
      experiment: { id: exp.row.id, name: exp.row.name },
      simulated: anySimulated(exp.providers),
      ...(anyRecorded(exp.providers) ? { recorded: recordedSummary(db, exp) } : {}),
      // Only when a plan was locked: exports of other experiments stay byte-identical.
      ...(preregistration ? { preregistration } : {}),
      config: exp.config,
      promptTemplates: exp.protocol.promptTemplates(exp.view, db),
      models: modelsOf(exp).map((m) => ({
        role: m.role,
        label: m.label,
        provider: m.provider,
        model: m.model,
      })),
      counts: {
        items: exp.items.length,
        requests: plannedCount(db, experimentId),
        judgments: answers.length,
        failed_judgments: answers.filter((r) => r.status === 'failed').length,
        // Texts a person edited by hand, as a study bundle lists them: only when there are any,
        // so other manifests are as before.
        ...handEditCount(db, exp),
      },
      time: { startedAt: exp.row.createdAt, finishedAt: exp.row.updatedAt },
    },
  });
}

function handEditCount(db: Database, exp: LoadedExperiment): { hand_edits?: number } {
  const n = exp.protocol.bundleEdits?.list(db, exp.view).length ?? 0;
  return n ? { hand_edits: n } : {};
}
