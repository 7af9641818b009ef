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
 * `keep`, a row is returned only if it keeps it, judged by key before its meta and value are
 * read (a hook that runs every second while a run goes and needs only the few rows it has not
 * handled yet).
 */
export function listResults(
  db: Database,
  experimentId: number,
  stage?: string,
  keep?: (row: Pick<TaskResult, 'key' | 'requestId' | 'status'>) => boolean,
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
    const head = { key: r.task_key, requestId: r.request_id, status: r.status };
    if (keep && !keep(head)) continue;
    const json = valueOf ? (valueOf.get(experimentId, r.task_key) as string | null) : r.value_json;
    out.push({
      ...head,
      meta: JSON.parse(r.meta_json) as unknown,
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

const scanStatements = new WeakMap<Database, { scan: Statement; stored: Statement }>();

/**
 * listResults, answeredTaskUsage and the counts in one pass over the plan, each task's meta
 * parsed once: at the paper's scale (92,000 tasks) the three reads and the repair scan cost
 * ~2 CPU-s apart. Task-key order is the primary key's, so the plan is read without a sort;
 * plan order is restored by rowid.
 */
export function scanResults(db: Database, experimentId: number): ResultsScan {
  let st = scanStatements.get(db);
  if (!st) {
    st = {
      scan: db
        .prepare(
          `SELECT t.rowid, t.task_key, t.stage, t.meta_json, t.request_id,
                  x.stage, x.request_id, x.status, x.value_json, x.reason, x.attempts,
                  r.status, r.model, r.input_tokens, r.output_tokens, r.cached_tokens,
                  r.cache_write_tokens, r.cost_usd
             FROM experiment_tasks t
             LEFT JOIN task_results x ON x.experiment_id = t.experiment_id AND x.task_key = t.task_key
             LEFT JOIN requests r INDEXED BY requests_answer ON r.id = t.request_id
            WHERE t.experiment_id = ?
            ORDER BY t.task_key`,
        )
        .raw(),
      stored: db.prepare('SELECT COUNT(*) FROM task_results WHERE experiment_id = ?').pluck(),
    };
    scanStatements.set(db, st);
  }
  const usage: AnsweredTaskUsage[] = [];
  const results: TaskResult[] = [];
  const order: number[] = [];
  let planned = 0;
  let ok = 0;
  let failed = 0;
  let current = 0;
  let missing = 0;
  // Row by row (not .all()): each row's array dies young instead of 92,000 of them reaching
  // the old generation, which cost more in garbage collection than reading them.
  for (const row of st.scan.iterate(experimentId) as IterableIterator<ScanRow>) {
    planned++;
    const [n, key, stage, metaJson, requestId, xStage, xRequest, xStatus, value, reason, attempts] = row;
    const rStatus = row[11];
    const meta = JSON.parse(metaJson) as unknown;
    const answered = rStatus === 'done' || rStatus === 'failed';
    if (answered)
      usage.push({
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
      });
    if (xStatus === null) {
      if (answered) missing++;
      continue;
    }
    if (xStatus === 'ok') ok++;
    else failed++;
    if (xRequest === requestId) current++;
    order.push(n);
    results.push({
      key,
      stage: xStage!,
      meta,
      requestId: xRequest!,
      status: xStatus,
      value: value === null ? null : (JSON.parse(value) as unknown),
      reason,
      attempts: attempts!,
    });
  }
  const stored = st.stored.get(experimentId) as number;
  return {
    results: inPlanOrder(results, order),
    usage,
    planned,
    ok,
    failed,
    unsynced: missing > 0 || current !== stored,
  };
}

/** `results` sorted by their tasks' rowids (`order`, same length). */
function inPlanOrder(results: TaskResult[], order: number[]): TaskResult[] {
  let sorted = true;
  for (let i = 1; i < order.length && sorted; i++) sorted = order[i - 1] < order[i];
  if (sorted) return results;
  const idx = Array.from(order.keys()).sort((a, b) => order[a] - order[b]);
  return idx.map((i) => results[i]);
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
