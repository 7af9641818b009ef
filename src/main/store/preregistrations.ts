// Repository for preregistration locks (migration 12). Rows are only ever inserted: the table's
// trigger refuses an update, so a lock stays what it was; a new version supersedes it.
import type {
  PreregistrationLock,
  PreregistrationPlan,
  PreregSnapshot,
} from '../../shared/paper/preregistration';
import type { Database } from './db';

interface RawLock {
  version: number;
  plan_json: string;
  snapshot_json: string;
  reason: string | null;
  locked_at: string;
  sha256: string;
}

/** Every lock of an experiment, oldest first. */
export function listPreregistrations(db: Database, experimentId: number): PreregistrationLock[] {
  const rows = db
    .prepare(
      `SELECT version, plan_json, snapshot_json, reason, locked_at, sha256
         FROM preregistrations WHERE experiment_id = ? ORDER BY version`,
    )
    .all(experimentId) as RawLock[];
  return rows.map((r) => ({
    version: r.version,
    plan: JSON.parse(r.plan_json) as PreregistrationPlan,
    snapshot: JSON.parse(r.snapshot_json) as PreregSnapshot,
    reason: r.reason,
    lockedAt: r.locked_at,
    sha256: r.sha256,
  }));
}

/** Stores a lock; the primary key refuses a version that exists (two lockers racing). */
export function insertPreregistration(db: Database, experimentId: number, lock: PreregistrationLock): void {
  db.prepare(
    `INSERT INTO preregistrations (experiment_id, version, plan_json, snapshot_json, reason, locked_at, sha256)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    experimentId,
    lock.version,
    JSON.stringify(lock.plan),
    JSON.stringify(lock.snapshot),
    lock.reason,
    lock.lockedAt,
    lock.sha256,
  );
}
