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

/** A new setup for an experiment (name, protocol, dataset and config at once). */
export function replaceExperimentSetup(
  db: Database,
  id: number,
  e: { name: string; protocol: string; datasetId: number; configJson: string },
): void {
  db.prepare(
    `UPDATE experiments SET name = ?, protocol = ?, dataset_id = ?, config_json = ?,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`,
  ).run(e.name, e.protocol, e.datasetId, e.configJson, id);
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

/**
 * The experiment's tasks whose request is neither answered nor failed, in plan order: those a
 * run still has to send (a whole plan adds the ones it did not make itself, e.g. after an edit).
 */
export function openTasksOf(db: Database, experimentId: number): TaskRow[] {
  const rows = db
    .prepare(
      `SELECT t.task_key, t.stage, t.request_id, t.meta_json FROM experiment_tasks t
       JOIN requests r ON r.id = t.request_id
       WHERE t.experiment_id = ? AND r.status NOT IN ('done', 'failed') ORDER BY t.rowid`,
    )
    .all(experimentId) as { task_key: string; stage: string; request_id: number; meta_json: string }[];
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

/**
 * Drops the plan's slots of items the experiment no longer uses (a lower `limit`, other subsets
 * or sample): a slot names its item by the store's item id in its meta (`itemId`), and slots
 * naming none (not about one item) are kept. Only the plan and its parsed results go: the
 * answers stay in the ledger, so a plan that takes the items again finds them as stored answers
 * and pays nothing. Returns how many slots were dropped.
 */
export function pruneTasksToItems(db: Database, experimentId: number, itemIds: readonly number[]): number {
  const outside = `experiment_id = ? AND task_key IN (
       SELECT task_key FROM experiment_tasks WHERE experiment_id = ?
          AND json_type(meta_json, '$.itemId') = 'integer'
          AND json_extract(meta_json, '$.itemId') NOT IN (SELECT value FROM json_each(?)))`;
  const ids = JSON.stringify(itemIds);
  return db.transaction(() => {
    db.prepare(`DELETE FROM task_results WHERE ${outside}`).run(experimentId, experimentId, ids);
    return db.prepare(`DELETE FROM experiment_tasks WHERE ${outside}`).run(experimentId, experimentId, ids)
      .changes;
  })();
}

/** The ledger endpoint each task's request goes to, by task key. */
export function taskEndpoints(db: Database, experimentId: number): Map<string, string> {
  const rows = db
    .prepare(
      `SELECT t.task_key, r.endpoint FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
       WHERE t.experiment_id = ?`,
    )
    .raw()
    .all(experimentId) as [string, string][];
  return new Map(rows);
}

/**
 * How many of the plan's slots have an answer stored: answered, or failed with the answer that
 * could not be read (data seen all the same); failures that got no answer do not count.
 */
export function storedAnswerCount(db: Database, experimentId: number): number {
  return db
    .prepare(
      `SELECT COUNT(*) FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
       WHERE t.experiment_id = ? AND (r.status = 'done' OR (r.status = 'failed' AND r.response_text IS NOT NULL))`,
    )
    .pluck()
    .get(experimentId) as number;
}

/** How many tasks the plan has (the index alone: planCounts also reads each task's request). */
export function plannedCount(db: Database, experimentId: number): number {
  return db
    .prepare('SELECT COUNT(*) FROM experiment_tasks WHERE experiment_id = ?')
    .pluck()
    .get(experimentId) as number;
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

/** The experiment's tasks a ledger request (by hash) answers: one, unless two slots ask alike. */
export function tasksOfRequestHash(db: Database, experimentId: number, hash: string): TaskRow[] {
  const rows = db
    .prepare(
      `SELECT t.task_key, t.stage, t.request_id, t.meta_json FROM experiment_tasks t
       JOIN requests r ON r.id = t.request_id WHERE t.experiment_id = ? AND r.hash = ? ORDER BY t.rowid`,
    )
    .all(experimentId, hash) as { task_key: string; stage: string; request_id: number; meta_json: string }[];
  return rows.map((r) => ({
    key: r.task_key,
    stage: r.stage,
    requestId: r.request_id,
    meta: JSON.parse(r.meta_json),
  }));
}
