// Computed results kept in the store (issue 39): the first results call of a new process at the
// paper's scale (92,000 answers) read and parsed the whole plan again (~1.5 CPU-s). A row is
// used only while its signature matches one taken now (experiments/results.ts `storedSignature`),
// so a stale row is never shown, only recomputed and replaced.
import type { Database } from './db';

/** The stored results of one experiment and variant (its switches), or undefined. */
export function readStoredResults(
  db: Database,
  experimentId: number,
  variant: string,
): { signature: string; results: Buffer } | undefined {
  return db
    .prepare('SELECT signature, results FROM results_cache WHERE experiment_id = ? AND variant = ?')
    .get(experimentId, variant) as { signature: string; results: Buffer } | undefined;
}

export function writeStoredResults(
  db: Database,
  experimentId: number,
  variant: string,
  signature: string,
  results: Buffer,
): void {
  db.prepare(
    `INSERT OR REPLACE INTO results_cache (experiment_id, variant, signature, results) VALUES (?, ?, ?, ?)`,
  ).run(experimentId, variant, signature, results);
}

/**
 * What the signature reads of the plan, its stored results and their requests, in two index
 * reads (the ledger through the index covering status and usage, migration 14): any task added,
 * dropped or re-pointed, any result stored or replaced (a new rowid), any request answered or
 * retried, and any plan of an earlier experiment (which decides what was paid there) moves them.
 */
export function planFingerprint(db: Database, experimentId: number): unknown[] {
  const plan = db
    .prepare(
      `SELECT count(*), total(t.rowid), total(t.request_id), total(r.status = 'done'), total(r.status = 'failed'),
              total(r.input_tokens), total(r.output_tokens), total(r.cached_tokens), total(r.cache_write_tokens),
              total(r.cost_usd), count(r.cost_usd)
         FROM experiment_tasks t LEFT JOIN requests r INDEXED BY requests_answer ON r.id = t.request_id
        WHERE t.experiment_id = ?`,
    )
    .raw()
    .get(experimentId) as unknown[];
  const results = db
    .prepare('SELECT count(*), total(rowid), max(rowid) FROM task_results WHERE experiment_id = ?')
    .raw()
    .get(experimentId) as unknown[];
  const earlier = db
    .prepare('SELECT count(*), total(rowid), max(rowid) FROM experiment_tasks WHERE experiment_id < ?')
    .raw()
    .get(experimentId) as unknown[];
  return [plan, results, earlier];
}
