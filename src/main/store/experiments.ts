// Repository for experiments, their plan (tasks), variants and judgments.
import type { ExperimentStatus } from '../../shared/experiments';
import type { Database } from './db';

export interface ExperimentRow {
  id: number;
  name: string;
  protocol: string;
  datasetId: number;
  configJson: string;
  status: ExperimentStatus;
  createdAt: string;
  updatedAt: string;
}

interface RawExperiment {
  id: number;
  name: string;
  protocol: string;
  dataset_id: number;
  config_json: string;
  status: ExperimentStatus;
  created_at: string;
  updated_at: string;
}

const toExperiment = (r: RawExperiment): ExperimentRow => ({
  id: r.id,
  name: r.name,
  protocol: r.protocol,
  datasetId: r.dataset_id,
  configJson: r.config_json,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function insertExperiment(
  db: Database,
  e: { name: string; protocol: string; datasetId: number; configJson: string },
): number {
  const info = db
    .prepare('INSERT INTO experiments (name, protocol, dataset_id, config_json) VALUES (?, ?, ?, ?)')
    .run(e.name, e.protocol, e.datasetId, e.configJson);
  return Number(info.lastInsertRowid);
}

export function getExperiment(db: Database, id: number): ExperimentRow | undefined {
  const r = db.prepare('SELECT * FROM experiments WHERE id = ?').get(id) as RawExperiment | undefined;
  return r && toExperiment(r);
}

export function getExperimentByName(db: Database, name: string): ExperimentRow | undefined {
  const r = db.prepare('SELECT * FROM experiments WHERE name = ?').get(name) as RawExperiment | undefined;
  return r && toExperiment(r);
}

export function listExperiments(db: Database): ExperimentRow[] {
  return (db.prepare('SELECT * FROM experiments ORDER BY id').all() as RawExperiment[]).map(toExperiment);
}

export function setExperimentStatus(db: Database, id: number, status: ExperimentStatus): void {
  db.prepare(
    "UPDATE experiments SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?",
  ).run(status, id);
}

export function setExperimentConfig(db: Database, id: number, configJson: string): void {
  db.prepare(
    "UPDATE experiments SET config_json = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?",
  ).run(configJson, id);
}

export function deleteExperiment(db: Database, id: number): boolean {
  return db.prepare('DELETE FROM experiments WHERE id = ?').run(id).changes > 0;
}

/**
 * Runs left 'running' by a crash or a quit are shown as paused, to be resumed by a person;
 * `except` are running in another live process.
 */
export function markInterruptedRuns(db: Database, except: readonly number[] = []): number {
  const keep = except.length ? ` AND id NOT IN (${except.map(() => '?').join(',')})` : '';
  return db.prepare(`UPDATE experiments SET status = 'paused' WHERE status = 'running'${keep}`).run(...except)
    .changes;
}

// ---- plan -------------------------------------------------------------------------

export interface TaskRow {
  key: string;
  stage: string;
  requestId: number;
  meta: unknown;
}

/**
 * Records the plan: new slots are added, a slot whose request changed is re-pointed.
 * Returns how many slots are new or re-pointed.
 */
export function upsertTasks(db: Database, experimentId: number, tasks: readonly TaskRow[]): number {
  const find = db.prepare('SELECT request_id FROM experiment_tasks WHERE experiment_id = ? AND task_key = ?');
  const put = db.prepare(
    `INSERT INTO experiment_tasks (experiment_id, task_key, stage, request_id, meta_json) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (experiment_id, task_key) DO UPDATE SET request_id = excluded.request_id, meta_json = excluded.meta_json`,
  );
  return db.transaction(() => {
    let changed = 0;
    for (const t of tasks) {
      const old = find.get(experimentId, t.key) as { request_id: number } | undefined;
      if (old?.request_id === t.requestId) continue;
      put.run(experimentId, t.key, t.stage, t.requestId, JSON.stringify(t.meta));
      changed++;
    }
    return changed;
  })();
}

export function tasksOf(db: Database, experimentId: number, stage?: string): TaskRow[] {
  const rows = (
    stage
      ? db
          .prepare('SELECT * FROM experiment_tasks WHERE experiment_id = ? AND stage = ? ORDER BY rowid')
          .all(experimentId, stage)
      : db.prepare('SELECT * FROM experiment_tasks WHERE experiment_id = ?').all(experimentId)
  ) as { task_key: string; stage: string; request_id: number; meta_json: string }[];
  return rows.map((r) => ({
    key: r.task_key,
    stage: r.stage,
    requestId: r.request_id,
    meta: JSON.parse(r.meta_json),
  }));
}

export function deleteTasks(db: Database, experimentId: number, keys: readonly string[]): void {
  const del = db.prepare('DELETE FROM experiment_tasks WHERE experiment_id = ? AND task_key = ?');
  db.transaction(() => keys.forEach((k) => del.run(experimentId, k)))();
}

export function planCounts(
  db: Database,
  experimentId: number,
): { planned: number; done: number; failed: number } {
  const r = db
    .prepare(
      `SELECT COUNT(*) AS planned,
              COALESCE(SUM(r.status = 'done'), 0) AS done,
              COALESCE(SUM(r.status = 'failed'), 0) AS failed
       FROM experiment_tasks t JOIN requests r ON r.id = t.request_id WHERE t.experiment_id = ?`,
    )
    .get(experimentId) as { planned: number; done: number; failed: number };
  return r;
}

// ---- variants ---------------------------------------------------------------------

export interface VariantRow {
  itemId: number;
  language: 'ZH' | 'LS';
  instruction: string;
  output1: string;
  output2: string;
  model: string | null;
  promptHash: string | null;
  requestId: number | null;
  reasons: string[];
  manual: boolean;
}

export function upsertVariant(db: Database, experimentId: number, v: VariantRow): void {
  db.prepare(
    `INSERT INTO variants (experiment_id, item_id, language, instruction, output_1, output_2, model, prompt_hash,
                           request_id, audit_json, manual)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (experiment_id, item_id, language) DO UPDATE SET
       instruction = excluded.instruction, output_1 = excluded.output_1, output_2 = excluded.output_2,
       model = excluded.model, prompt_hash = excluded.prompt_hash, request_id = excluded.request_id,
       audit_json = excluded.audit_json, manual = excluded.manual,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`,
  ).run(
    experimentId,
    v.itemId,
    v.language,
    v.instruction,
    v.output1,
    v.output2,
    v.model,
    v.promptHash,
    v.requestId,
    JSON.stringify(v.reasons),
    v.manual ? 1 : 0,
  );
}

export function setVariantReasons(
  db: Database,
  experimentId: number,
  itemId: number,
  language: string,
  reasons: string[],
): void {
  db.prepare(
    'UPDATE variants SET audit_json = ? WHERE experiment_id = ? AND item_id = ? AND language = ?',
  ).run(JSON.stringify(reasons), experimentId, itemId, language);
}

export function listVariants(db: Database, experimentId: number): VariantRow[] {
  const rows = db
    .prepare('SELECT * FROM variants WHERE experiment_id = ? ORDER BY item_id, language')
    .all(experimentId) as {
    item_id: number;
    language: 'ZH' | 'LS';
    instruction: string;
    output_1: string;
    output_2: string;
    model: string | null;
    prompt_hash: string | null;
    request_id: number | null;
    audit_json: string;
    manual: number;
  }[];
  return rows.map((r) => ({
    itemId: r.item_id,
    language: r.language,
    instruction: r.instruction,
    output1: r.output_1,
    output2: r.output_2,
    model: r.model,
    promptHash: r.prompt_hash,
    requestId: r.request_id,
    reasons: JSON.parse(r.audit_json) as string[],
    manual: r.manual === 1,
  }));
}

// ---- judgments --------------------------------------------------------------------

export interface JudgmentRow {
  judge: string;
  itemId: number;
  kind: 'quality' | 'tie_probe';
  language: string;
  order: string;
  requestId: number;
  status: 'ok' | 'failed';
  winner: 'A' | 'B' | 'tie' | null;
  confidence: number | null;
  reason: string | null;
  failureReason: string | null;
  attempts: number;
}

/** Replaces the experiment's judgments with the given set, in one transaction. */
export function replaceJudgments(db: Database, experimentId: number, rows: readonly JudgmentRow[]): void {
  const ins = db.prepare(
    `INSERT INTO judgments (experiment_id, judge, item_id, kind, language, ord, request_id, status, winner,
                            confidence, reason, failure_reason, attempts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    db.prepare('DELETE FROM judgments WHERE experiment_id = ?').run(experimentId);
    for (const j of rows) {
      ins.run(
        experimentId,
        j.judge,
        j.itemId,
        j.kind,
        j.language,
        j.order,
        j.requestId,
        j.status,
        j.winner,
        j.confidence,
        j.reason,
        j.failureReason,
        j.attempts,
      );
    }
  })();
}

export interface JudgmentJoined extends JudgmentRow {
  sourceId: string;
  subset: string | null;
  gold: 1 | 2;
  rawText: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface JudgmentFilter {
  judge?: string;
  itemId?: number;
  status?: 'ok' | 'failed';
  kind?: 'quality' | 'tie_probe';
}

export function listJudgments(db: Database, experimentId: number, f: JudgmentFilter = {}): JudgmentJoined[] {
  const where = ['j.experiment_id = ?'];
  const args: (string | number)[] = [experimentId];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(clause);
    args.push(value);
  };
  add('j.judge = ?', f.judge);
  add('j.item_id = ?', f.itemId);
  add('j.status = ?', f.status);
  add('j.kind = ?', f.kind);
  const rows = db
    .prepare(
      `SELECT j.*, i.source_id, i.subset, i.label, r.response_text, r.input_tokens, r.output_tokens
       FROM judgments j JOIN items i ON i.id = j.item_id LEFT JOIN requests r ON r.id = j.request_id
       WHERE ${where.join(' AND ')} ORDER BY j.id`,
    )
    .all(...args) as {
    judge: string;
    item_id: number;
    kind: 'quality' | 'tie_probe';
    language: string;
    ord: string;
    request_id: number;
    status: 'ok' | 'failed';
    winner: 'A' | 'B' | 'tie' | null;
    confidence: number | null;
    reason: string | null;
    failure_reason: string | null;
    attempts: number;
    source_id: string;
    subset: string | null;
    label: 1 | 2;
    response_text: string | null;
    input_tokens: number | null;
    output_tokens: number | null;
  }[];
  return rows.map((r) => ({
    judge: r.judge,
    itemId: r.item_id,
    kind: r.kind,
    language: r.language,
    order: r.ord,
    requestId: r.request_id,
    status: r.status,
    winner: r.winner,
    confidence: r.confidence,
    reason: r.reason,
    failureReason: r.failure_reason,
    attempts: r.attempts,
    sourceId: r.source_id,
    subset: r.subset,
    gold: r.label,
    rawText: r.response_text,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
  }));
}
