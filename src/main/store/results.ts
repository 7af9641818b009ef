// The protocol-neutral results store: one row per answered task (parsed value or failure
// reason), written as answers arrive: the engine's group commit writes them with their ledger
// rows (`writeArrivedResults`; the answer is parsed once, when it arrives). Rows are derived
// from the plan and the ledger, which stay the source of truth: `syncResults` only repairs,
// adding what is missing (answers stored another way: cache hits, a crash between, batches,
// a migration) and dropping rows whose slot now points at another request (a person edited
// its input), so it is safe to call at any time.
import type { TaskResult } from '../protocols/plugin';
import type { ParseResult } from '../protocols/types';
import type { Statement } from 'better-sqlite3';
import type { Database } from './db';
import type { AnsweredTaskUsage, RequestStatus } from './ledger';

export type ResultParser = (
  stage: string,
  json: unknown,
  task: { key: string; meta: unknown },
) => ParseResult<unknown>;

/** Parses and stores every answered task that has no current result row; returns how many per stage. */
export function syncResults(db: Database, experimentId: number, parse: ResultParser): Map<string, number> {
  const stale = db.prepare(
    `DELETE FROM task_results WHERE experiment_id = ? AND NOT EXISTS (
       SELECT 1 FROM experiment_tasks t WHERE t.experiment_id = task_results.experiment_id
         AND t.task_key = task_results.task_key AND t.request_id = task_results.request_id)`,
  );
  // Two steps, so the wide ledger rows (request and answer texts) are read only for the
  // answers still to store: which slots lack a result (from indexes alone), then their rows.
  // The ledger is joined by primary key, only for slots with no result: \`IN (SELECT … WHERE
  // status …)\` listed every answered request of the store at each call (92,000 done: 105 ms
  // against 40 ms; the runner syncs at every plan).
  const missing = db.prepare(
    `SELECT t.task_key, t.stage, t.meta_json, t.request_id
     FROM experiment_tasks t
     LEFT JOIN task_results x ON x.experiment_id = t.experiment_id AND x.task_key = t.task_key
     JOIN requests r ON r.id = t.request_id
     WHERE t.experiment_id = ? AND x.task_key IS NULL AND r.status IN ('done', 'failed')
     ORDER BY t.rowid`,
  );
  const answer = db.prepare(
    'SELECT status, response_json, failure_reason, attempts FROM requests WHERE id = ?',
  );
  const insert = db.prepare(
    `INSERT INTO task_results (experiment_id, task_key, stage, request_id, status, value_json, reason, attempts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return db.transaction(() => {
    const added = new Map<string, number>();
    const dropped = stale.run(experimentId).changes;
    const slots = missing.all(experimentId) as {
      task_key: string;
      stage: string;
      meta_json: string;
      request_id: number;
    }[];
    for (const slot of slots) {
      const r = {
        ...slot,
        ...(answer.get(slot.request_id) as {
          status: 'done' | 'failed';
          response_json: string | null;
          failure_reason: string | null;
          attempts: number;
        }),
      };
      let status: 'ok' | 'failed' = 'failed';
      let value: string | null = null;
      let reason = r.failure_reason ?? 'failed';
      if (r.status === 'done') {
        const json = r.response_json === null ? null : (JSON.parse(r.response_json) as unknown);
        const parsed = parse(r.stage, json, { key: r.task_key, meta: JSON.parse(r.meta_json) });
        if (parsed.ok) {
          status = 'ok';
          value = JSON.stringify(parsed.value);
          reason = '';
        } else reason = `unparseable: ${parsed.error}`;
      }
      insert.run(
        experimentId,
        r.task_key,
        r.stage,
        r.request_id,
        status,
        value,
        status === 'ok' ? null : reason,
        r.attempts,
      );
      added.set(r.stage, (added.get(r.stage) ?? 0) + 1);
    }
    // A slot re-pointed at a new request (an edited input) changes that stage's results too.
    if (dropped > 0) added.set('', dropped);
    return added;
  })();
}

/** An outcome the engine stores with its ledger row (the group commit). */
export interface ArrivedResult {
  key: string;
  requestId: number;
  status: 'ok' | 'failed';
  value: unknown;
  reason: string | null;
}

const writeStatements = new WeakMap<Database, Statement>();

/**
 * Writes the results of answers as they arrive, in the caller's transaction (the one that
 * completes their ledger rows), so each answer is parsed once. A slot that no longer points
 * at the request is left alone (syncResults drops and repairs such rows).
 */
export function writeArrivedResults(
  db: Database,
  experimentId: number,
  rows: readonly ArrivedResult[],
): void {
  let stmt = writeStatements.get(db);
  if (!stmt) {
    stmt = db.prepare(
      `INSERT OR REPLACE INTO task_results
         (experiment_id, task_key, stage, request_id, status, value_json, reason, attempts)
       SELECT t.experiment_id, t.task_key, t.stage, r.id, ?, ?, ?, r.attempts
       FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
       WHERE t.experiment_id = ? AND t.task_key = ? AND t.request_id = ?`,
    );
    writeStatements.set(db, stmt);
  }
  for (const x of rows)
    stmt.run(
      x.status,
      x.status === 'ok' && x.value !== undefined ? JSON.stringify(x.value) : null,
      x.status === 'ok' ? null : (x.reason ?? 'failed'),
      experimentId,
      x.key,
      x.requestId,
    );
}

/**
 * Stored results in plan order (the order exports list them), optionally of one stage. With
 * `keep`, a row is returned only if it keeps it, judged before its value is read (a hook that
 * runs every second while a run goes and needs only the few rows it has not handled yet).
 */
export function listResults(
  db: Database,
  experimentId: number,
  stage?: string,
  keep?: (row: Pick<TaskResult, 'key' | 'meta' | 'requestId' | 'status'>) => boolean,
): TaskResult[] {
  // With `keep`, values are read only for the rows it keeps (a translation's value is its texts).
  const rows = db
    .prepare(
      `SELECT x.task_key, x.stage, t.meta_json, x.request_id, x.status, ${keep ? 'NULL AS value_json' : 'x.value_json'}, x.reason, x.attempts
       FROM task_results x JOIN experiment_tasks t
         ON t.experiment_id = x.experiment_id AND t.task_key = x.task_key
       WHERE x.experiment_id = ?${stage === undefined ? '' : ' AND x.stage = ?'}
       ORDER BY t.rowid`,
    )
    .all(...(stage === undefined ? [experimentId] : [experimentId, stage])) as {
    task_key: string;
    stage: string;
    meta_json: string;
    request_id: number;
    status: 'ok' | 'failed';
    value_json: string | null;
    reason: string | null;
    attempts: number;
  }[];
  const out: TaskResult[] = [];
  const valueOf = keep
    ? db.prepare('SELECT value_json FROM task_results WHERE experiment_id = ? AND task_key = ?').pluck()
    : null;
  for (const r of rows) {
    const head = {
      key: r.task_key,
      meta: JSON.parse(r.meta_json) as unknown,
      requestId: r.request_id,
      status: r.status,
    };
    if (keep && !keep(head)) continue;
    const json = valueOf ? (valueOf.get(experimentId, r.task_key) as string | null) : r.value_json;
    out.push({
      ...head,
      stage: r.stage,
      value: json === null ? null : (JSON.parse(json) as unknown),
      reason: r.reason,
      attempts: r.attempts,
    });
  }
  return out;
}

/** What the results page reads of a plan, in one pass (`scanResults`). */
export interface ResultsScan {
  /** As listResults gives them: plan order. */
  results: TaskResult[];
  /** As answeredTaskUsage gives them: task-key order. */
  usage: AnsweredTaskUsage[];
  /** As resultCounts counts them: the plan's size, and its slots' results by status. */
  planned: number;
  ok: number;
  failed: number;
  /**
   * Whether syncResults would change anything: an answered slot without a result, or a result
   * whose slot now points at another request or is gone.
   */
  unsynced: boolean;
}

const SCAN_COLUMNS = `t.rowid, t.task_key, t.stage, t.meta_json, t.request_id,
                  x.stage, x.request_id, x.status, x.value_json, x.reason, x.attempts,
                  r.status, r.model, r.input_tokens, r.output_tokens, r.cached_tokens,
                  r.cache_write_tokens, r.cost_usd`;

/** One task of the plan as the scan read it, its JSON parsed. */
interface PlanEntry {
  n: number;
  key: string;
  result: TaskResult | null;
  usage: AnsweredTaskUsage | null;
  /** Its result is for the request its slot points at now. */
  current: boolean;
  /** Answered in the ledger, with no result stored. */
  missing: boolean;
}

function entryOf(row: ScanRow): PlanEntry {
  const [n, key, stage, metaJson, requestId, xStage, xRequest, xStatus, value, reason, attempts] = row;
  const rStatus = row[11];
  const meta = JSON.parse(metaJson) as unknown;
  const answered = rStatus === 'done' || rStatus === 'failed';
  const usage: AnsweredTaskUsage | null = answered
    ? {
        key,
        stage,
        id: requestId,
        status: rStatus,
        model: row[12]!,
        inputTokens: row[13],
        outputTokens: row[14],
        cachedTokens: row[15],
        cacheWriteTokens: row[16],
        costUsd: row[17],
        meta,
      }
    : null;
  if (xStatus === null) return { n, key, result: null, usage, current: false, missing: answered };
  return {
    n,
    key,
    usage,
    current: xRequest === requestId,
    missing: false,
    result: {
      key,
      stage: xStage!,
      meta,
      requestId: xRequest!,
      status: xStatus,
      value: value === null ? null : (JSON.parse(value) as unknown),
      reason,
      attempts: attempts!,
    },
  };
}

/**
 * An experiment's plan as last read, kept up to date from the connection's change log: `keys`
 * in task-key order (SQLite's, i.e. UTF-8 byte order), `plan` in plan order (rowid).
 */
interface PlanState {
  dataVersion: number;
  /** The change log's rows up to this one are in `entries`. */
  seq: number;
  entries: Map<string, PlanEntry>;
  keys: string[];
  plan: string[];
}

interface Tracking {
  scan: Statement;
  stored: Statement;
  /** Null: the connection cannot keep a change log (read-only): every scan reads the plan. */
  log: {
    maxSeq: Statement;
    changed: Statement;
    prune: Statement;
  } | null;
  plans: Map<number, PlanState>;
}

const tracking = new WeakMap<Database, Tracking>();
// Plans kept per connection: a results page looks at one or two experiments at a time.
const TRACKED_PLANS = 4;

/**
 * Temp triggers (this connection's only; nothing is written to the store's file) log every
 * change this connection makes to what a scan reads: plan rows, result rows, and the ledger
 * columns the usage reads. Changes by other connections move `data_version` instead, and a
 * plan is then read whole again.
 */
function changeLog(db: Database): Tracking['log'] {
  if (db.readonly) return null;
  try {
    db.exec(`
      CREATE TEMP TABLE IF NOT EXISTS results_changes (
        seq INTEGER PRIMARY KEY, experiment_id INTEGER, task_key TEXT, request_id INTEGER);
      CREATE TEMP TRIGGER IF NOT EXISTS results_changes_task_ins AFTER INSERT ON main.experiment_tasks BEGIN
        INSERT INTO results_changes (experiment_id, task_key) VALUES (new.experiment_id, new.task_key); END;
      CREATE TEMP TRIGGER IF NOT EXISTS results_changes_task_upd AFTER UPDATE ON main.experiment_tasks BEGIN
        INSERT INTO results_changes (experiment_id, task_key) VALUES (old.experiment_id, old.task_key), (new.experiment_id, new.task_key); END;
      CREATE TEMP TRIGGER IF NOT EXISTS results_changes_task_del AFTER DELETE ON main.experiment_tasks BEGIN
        INSERT INTO results_changes (experiment_id, task_key) VALUES (old.experiment_id, old.task_key); END;
      CREATE TEMP TRIGGER IF NOT EXISTS results_changes_result_ins AFTER INSERT ON main.task_results BEGIN
        INSERT INTO results_changes (experiment_id, task_key) VALUES (new.experiment_id, new.task_key); END;
      CREATE TEMP TRIGGER IF NOT EXISTS results_changes_result_upd AFTER UPDATE ON main.task_results BEGIN
        INSERT INTO results_changes (experiment_id, task_key) VALUES (old.experiment_id, old.task_key), (new.experiment_id, new.task_key); END;
      CREATE TEMP TRIGGER IF NOT EXISTS results_changes_result_del AFTER DELETE ON main.task_results BEGIN
        INSERT INTO results_changes (experiment_id, task_key) VALUES (old.experiment_id, old.task_key); END;
      CREATE TEMP TRIGGER IF NOT EXISTS results_changes_request_upd
        AFTER UPDATE OF status, model, input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost_usd
        ON main.requests BEGIN
        INSERT INTO results_changes (request_id) VALUES (new.id); END;`);
  } catch {
    return null;
  }
  return {
    maxSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) FROM temp.results_changes').pluck(),
    // The changed tasks' rows now; a key with no task row (rowid null) left the plan.
    changed: db
      .prepare(
        `WITH c(task_key) AS (
           SELECT task_key FROM temp.results_changes
            WHERE seq > @from AND seq <= @to AND experiment_id = @exp AND task_key IS NOT NULL
           UNION
           SELECT t.task_key FROM main.experiment_tasks t
            WHERE t.experiment_id = @exp AND t.request_id IN (
              SELECT request_id FROM temp.results_changes
               WHERE seq > @from AND seq <= @to AND request_id IS NOT NULL))
         SELECT c.task_key AS changed_key, ${SCAN_COLUMNS}
           FROM c
           LEFT JOIN main.experiment_tasks t ON t.experiment_id = @exp AND t.task_key = c.task_key
           LEFT JOIN main.task_results x ON x.experiment_id = t.experiment_id AND x.task_key = t.task_key
           LEFT JOIN main.requests r ON r.id = t.request_id`,
      )
      .raw(),
    // Rows every kept plan has read; the newest stays, so MAX(seq) never goes back.
    prune: db.prepare('DELETE FROM temp.results_changes WHERE seq < ?'),
  };
}

function trackingOf(db: Database): Tracking {
  let tr = tracking.get(db);
  if (!tr) {
    tr = {
      scan: db
        .prepare(
          `SELECT ${SCAN_COLUMNS}
             FROM experiment_tasks t
             LEFT JOIN task_results x ON x.experiment_id = t.experiment_id AND x.task_key = t.task_key
             LEFT JOIN requests r ON r.id = t.request_id
            WHERE t.experiment_id = ?
            ORDER BY t.task_key`,
        )
        .raw(),
      stored: db.prepare('SELECT COUNT(*) FROM task_results WHERE experiment_id = ?').pluck(),
      log: changeLog(db),
      plans: new Map(),
    };
    tracking.set(db, tr);
  }
  return tr;
}

/** The whole plan read: task-key order is the primary key's, so it is read without a sort. */
function readPlan(tr: Tracking, experimentId: number, dataVersion: number, seq: number): PlanState {
  const entries = new Map<string, PlanEntry>();
  const keys: string[] = [];
  // Row by row (not .all()): each row's array dies young instead of 92,000 of them reaching
  // the old generation, which cost more in garbage collection than reading them.
  for (const row of tr.scan.iterate(experimentId) as IterableIterator<ScanRow>) {
    const e = entryOf(row);
    entries.set(e.key, e);
    keys.push(e.key);
  }
  const plan = keys.slice();
  sortByRowid(plan, entries);
  return { dataVersion, seq, entries, keys, plan };
}

function sortByRowid(keys: string[], entries: Map<string, PlanEntry>): void {
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++)
    sorted = entries.get(keys[i - 1])!.n < entries.get(keys[i])!.n;
  if (!sorted) keys.sort((a, b) => entries.get(a)!.n - entries.get(b)!.n);
}

/** SQLite's text order (UTF-8 bytes): UTF-16 code units agree except from U+D800 on. */
function byteOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (/[\uD800-\uFFFF]/.test(a) || /[\uD800-\uFFFF]/.test(b))
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return a < b ? -1 : 1;
}

/** `sorted` with `add` (sorted too) merged in. */
function merge(sorted: string[], add: string[], cmp: (a: string, b: string) => number): string[] {
  if (!add.length) return sorted;
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < sorted.length && j < add.length) out.push(cmp(sorted[i], add[j]) <= 0 ? sorted[i++] : add[j++]);
  while (i < sorted.length) out.push(sorted[i++]);
  while (j < add.length) out.push(add[j++]);
  return out;
}

/** Applies the logged changes after `state.seq` up to `seq`: only the changed tasks are read. */
function applyChanges(tr: Tracking, experimentId: number, state: PlanState, seq: number): void {
  const { entries } = state;
  const added: string[] = [];
  const removed = new Set<string>();
  let moved = false;
  for (const row of tr.log!.changed.iterate({
    exp: experimentId,
    from: state.seq,
    to: seq,
  }) as IterableIterator<[string, ...ScanRow]>) {
    const key = row[0];
    const before = entries.get(key);
    if (row[1] === null) {
      if (before) {
        entries.delete(key);
        removed.add(key);
      }
      continue;
    }
    const e = entryOf(row.slice(1) as ScanRow);
    entries.set(key, e);
    if (!before) added.push(key);
    else if (before.n !== e.n) moved = true;
  }
  if (removed.size) {
    state.keys = state.keys.filter((k) => !removed.has(k));
    state.plan = state.plan.filter((k) => !removed.has(k));
  }
  if (added.length) {
    added.sort(byteOrder);
    state.keys = merge(state.keys, added, byteOrder);
    added.sort((a, b) => entries.get(a)!.n - entries.get(b)!.n);
    state.plan = merge(state.plan, added, (a, b) => entries.get(a)!.n - entries.get(b)!.n);
  }
  if (moved) sortByRowid(state.plan, entries);
  state.seq = seq;
}

/**
 * The experiment's plan as the store holds it now: read whole the first time, or when another
 * connection wrote; after that only the tasks this connection's writes touched since are read.
 * Null inside a transaction (what it reads may yet be rolled back) or without a change log.
 */
function trackedPlan(db: Database, tr: Tracking, experimentId: number): PlanState | null {
  if (!tr.log || db.inTransaction) return null;
  const dataVersion = db.pragma('data_version', { simple: true }) as number;
  const seq = tr.log.maxSeq.get() as number;
  let state = tr.plans.get(experimentId);
  if (state && state.dataVersion === dataVersion) applyChanges(tr, experimentId, state, seq);
  else state = readPlan(tr, experimentId, dataVersion, seq);
  // Most recently used last, so the oldest is the one dropped.
  tr.plans.delete(experimentId);
  tr.plans.set(experimentId, state);
  while (tr.plans.size > TRACKED_PLANS) tr.plans.delete(tr.plans.keys().next().value!);
  let oldest = seq;
  for (const s of tr.plans.values()) oldest = Math.min(oldest, s.seq);
  tr.log.prune.run(oldest);
  return state;
}

/**
 * listResults, answeredTaskUsage and the counts in one pass over the plan, each task's meta
 * parsed once: at the paper's scale (92,000 tasks) the three reads and the repair scan cost
 * ~2 CPU-s apart. The parsed plan is kept per connection and brought up to date from a log of
 * this connection's changes (`trackedPlan`), so a scan after a few new answers reads only
 * those. The rows handed out are shared between scans: callers must not change them.
 */
export function scanResults(db: Database, experimentId: number): ResultsScan {
  const tr = trackingOf(db);
  const state =
    trackedPlan(db, tr, experimentId) ??
    readPlan(tr, experimentId, db.pragma('data_version', { simple: true }) as number, 0);
  const usage: AnsweredTaskUsage[] = [];
  const results: TaskResult[] = [];
  let ok = 0;
  let failed = 0;
  let current = 0;
  let missing = 0;
  for (const k of state.keys) {
    const e = state.entries.get(k)!;
    if (e.usage) usage.push(e.usage);
    if (e.missing) missing++;
    if (e.current) current++;
  }
  for (const k of state.plan) {
    const r = state.entries.get(k)!.result;
    if (!r) continue;
    if (r.status === 'ok') ok++;
    else failed++;
    results.push(r);
  }
  const stored = tr.stored.get(experimentId) as number;
  return {
    results,
    usage,
    planned: state.keys.length,
    ok,
    failed,
    unsynced: missing > 0 || current !== stored,
  };
}

type ScanRow = [
  n: number,
  key: string,
  stage: string,
  metaJson: string,
  requestId: number,
  xStage: string | null,
  xRequest: number | null,
  xStatus: 'ok' | 'failed' | null,
  value: string | null,
  reason: string | null,
  attempts: number | null,
  rStatus: RequestStatus | null,
  model: string | null,
  inputTokens: number | null,
  outputTokens: number | null,
  cachedTokens: number | null,
  cacheWriteTokens: number | null,
  costUsd: number | null,
];
