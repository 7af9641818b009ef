// Provider batches in the store (migration 7). A batch's rows are claimed in the ledger
// (in flight, lease owner 'batch:<id>', their custom id recorded) before the provider is told,
// and stay so until its results are read, so a batch survives quitting the app: the next run
// finds it open here and polls it instead of submitting its requests again.
import type { BatchProgress } from '../../shared/experiments';
import type { Database } from './db';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { batchOwner, leaseOf, type LeaseColumns } from './leases';
import { processAlive } from './process-alive';

export type LocalBatchStatus = 'submitting' | 'open' | 'cancelling' | 'ended' | 'failed';

export interface LocalBatch {
  id: number;
  provider: string;
  endpoint: string;
  model: string;
  remoteId: string | null;
  status: LocalBatchStatus;
  remoteStatus: string | null;
  requestCount: number;
  finishedCount: number;
  error: string | null;
  createdAt: string;
  endedAt: string | null;
  ownerPid: number | null;
  ownerHost: string | null;
  /** Random, in the batch's metadata and custom ids (migration 10; null for older batches). */
  nonce: string | null;
}

interface Raw {
  id: number;
  provider: string;
  endpoint: string;
  model: string;
  remote_id: string | null;
  status: LocalBatchStatus;
  remote_status: string | null;
  request_count: number;
  finished_count: number;
  error: string | null;
  created_at: string;
  ended_at: string | null;
  owner_pid: number | null;
  owner_host: string | null;
  nonce: string | null;
}

const toBatch = (r: Raw): LocalBatch => ({
  id: r.id,
  provider: r.provider,
  endpoint: r.endpoint,
  model: r.model,
  remoteId: r.remote_id,
  status: r.status,
  remoteStatus: r.remote_status,
  requestCount: r.request_count,
  finishedCount: r.finished_count,
  error: r.error,
  createdAt: r.created_at,
  endedAt: r.ended_at,
  ownerPid: r.owner_pid,
  ownerHost: r.owner_host,
  nonce: r.nonce,
});

/** A batch left 'submitting' whose process is gone (or, on another host, after an hour) was never sent. */
export function abandonedSubmit(b: LocalBatch, now: number = Date.now()): boolean {
  if (b.status !== 'submitting') return false;
  if (b.ownerHost === hostname() && b.ownerPid !== null)
    return b.ownerPid !== process.pid && !processAlive(b.ownerPid);
  return now - Date.parse(b.createdAt) > 3600_000;
}

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ','now')`;
/** Results stay readable for 29 days (Anthropic; OpenAI keeps files longer): the claim lasts as long. */
export const BATCH_CLAIM_MS = 29 * 24 * 3600 * 1000;

/**
 * The custom id of a request in a batch: within ^[a-zA-Z0-9_-]{1,64}$, and carrying the
 * batch's nonce, so results of a batch that is not this one (another data folder on the same
 * key) can never be stored as this request's answer.
 */
export function customIdOf(requestId: number, nonce: string | null): string {
  return nonce ? `r${requestId}_${nonce}` : `r${requestId}`;
}

/** True when some batch of this store already holds this provider batch id. */
export function remoteIdTaken(db: Database, remoteId: string): boolean {
  return db.prepare('SELECT 1 FROM provider_batches WHERE remote_id = ?').get(remoteId) !== undefined;
}

/**
 * Records a new batch and claims its requests (pending → in flight under the batch) in one
 * transaction. Rows no longer pending (another run took or finished them) are left out;
 * returns the batch (null when nothing was left to claim) and the ids claimed.
 */
export function createLocalBatch(
  db: Database,
  b: { provider: string; endpoint: string; model: string; requestIds: readonly number[] },
  now: number = Date.now(),
): { batch: LocalBatch | null; claimed: number[] } {
  return db
    .transaction(() => {
      // 48 random bits: two batches of one key sharing a nonce is not a practical concern.
      const nonce = randomBytes(6).toString('hex');
      const info = db
        .prepare(
          `INSERT INTO provider_batches (provider, endpoint, model, request_count, owner_pid, owner_host, nonce)
           VALUES (?, ?, ?, 0, ?, ?, ?)`,
        )
        .run(b.provider, b.endpoint, b.model, process.pid, hostname(), nonce);
      const id = Number(info.lastInsertRowid);
      const claim = db.prepare(
        `UPDATE requests SET status = 'in_flight', attempts = attempts + 1,
           lease_owner = ?, lease_pid = NULL, lease_host = NULL, lease_expires_at = ?,
           batch_id = ?, batch_custom_id = ?, updated_at = ${NOW}
         WHERE id = ? AND status = 'pending'`,
      );
      const claimed = b.requestIds.filter(
        (rid) =>
          claim.run(batchOwner(id), now + BATCH_CLAIM_MS, id, customIdOf(rid, nonce), rid).changes === 1,
      );
      if (!claimed.length) {
        db.prepare('DELETE FROM provider_batches WHERE id = ?').run(id);
        return { batch: null, claimed };
      }
      db.prepare('UPDATE provider_batches SET request_count = ? WHERE id = ?').run(claimed.length, id);
      return { batch: getBatch(db, id)!, claimed };
    })
    .immediate();
}

export function getBatch(db: Database, id: number): LocalBatch | undefined {
  const r = db.prepare('SELECT * FROM provider_batches WHERE id = ?').get(id) as Raw | undefined;
  return r && toBatch(r);
}

export function setRemoteId(db: Database, id: number, remoteId: string): void {
  db.prepare(
    `UPDATE provider_batches SET remote_id = ?, status = 'open', updated_at = ${NOW} WHERE id = ?`,
  ).run(remoteId, id);
}

export function setBatchState(
  db: Database,
  id: number,
  patch: { status?: LocalBatchStatus; remoteStatus?: string; finished?: number; error?: string },
): void {
  db.prepare(
    `UPDATE provider_batches SET status = COALESCE(?, status), remote_status = COALESCE(?, remote_status),
       finished_count = COALESCE(?, finished_count), error = COALESCE(?, error), updated_at = ${NOW},
       ended_at = CASE WHEN ? IN ('ended', 'failed') THEN ${NOW} ELSE ended_at END
     WHERE id = ?`,
  ).run(
    patch.status ?? null,
    patch.remoteStatus ?? null,
    patch.finished ?? null,
    patch.error ?? null,
    patch.status ?? null,
    id,
  );
}

/** Batches not finished yet (submitting, open or being cancelled), oldest first. */
export function openBatches(db: Database): LocalBatch[] {
  return (
    db
      .prepare(
        `SELECT * FROM provider_batches WHERE status IN ('submitting','open','cancelling') ORDER BY id`,
      )
      .all() as Raw[]
  ).map(toBatch);
}

/** The batches that hold (or held) any of these requests, newest first. */
export function batchesOf(db: Database, requestIds: readonly number[]): LocalBatch[] {
  if (!requestIds.length) return [];
  const ids = new Set<number>();
  const stmt = db.prepare('SELECT batch_id FROM requests WHERE id = ? AND batch_id IS NOT NULL').pluck();
  for (const rid of requestIds) {
    const b = stmt.get(rid) as number | undefined;
    if (b !== undefined) ids.add(b);
  }
  return [...ids]
    .sort((a, b) => b - a)
    .map((id) => getBatch(db, id))
    .filter((b): b is LocalBatch => b !== undefined);
}

/** The requests a batch still holds in flight: id, custom id, stored request. */
export function heldRequests(
  db: Database,
  batchId: number,
): { id: number; customId: string; requestJson: string; model: string; attempts: number }[] {
  return db
    .prepare(
      `SELECT id, batch_custom_id AS customId, request_json AS requestJson, model, attempts
       FROM requests WHERE batch_id = ? AND status = 'in_flight' AND lease_owner = ?`,
    )
    .all(batchId, batchOwner(batchId)) as {
    id: number;
    customId: string;
    requestJson: string;
    model: string;
    attempts: number;
  }[];
}

/** Gives the batch's unanswered rows back (in flight → pending); returns their ids. */
export function releaseHeld(db: Database, batchId: number, ids?: readonly number[]): number[] {
  const owner = batchOwner(batchId);
  const stmt = db.prepare(
    `UPDATE requests SET status = 'pending', lease_owner = NULL, lease_pid = NULL, lease_host = NULL,
       lease_expires_at = NULL, updated_at = ${NOW}
     WHERE id = ? AND status = 'in_flight' AND lease_owner = ?`,
  );
  return db.transaction(() => {
    const list = ids ?? heldRequests(db, batchId).map((r) => r.id);
    return list.filter((id) => stmt.run(id, owner).changes === 1);
  })();
}

/** Experiments with requests held by a batch not finished yet. */
export function experimentsWithOpenBatches(db: Database): number[] {
  return db
    .prepare(
      `SELECT DISTINCT t.experiment_id FROM experiment_tasks t
       JOIN requests r ON r.id = t.request_id
       JOIN provider_batches b ON b.id = r.batch_id
       WHERE r.status = 'in_flight' AND b.status IN ('submitting','open','cancelling')
       ORDER BY t.experiment_id`,
    )
    .pluck()
    .all() as number[];
}

/** An experiment's provider batches, newest first, as progress shows them. */
export function batchesOfExperiment(db: Database, experimentId: number): BatchProgress[] {
  return (
    db
      .prepare(
        `SELECT * FROM provider_batches WHERE id IN (
           SELECT DISTINCT r.batch_id FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
           WHERE t.experiment_id = ? AND r.batch_id IS NOT NULL)
         ORDER BY id DESC`,
      )
      .all(experimentId) as Raw[]
  ).map((r) => batchProgressOf(toBatch(r)));
}

/** A batch as progress shows it (a run's live view and the stored experiment's agree). */
export function batchProgressOf(b: LocalBatch): BatchProgress {
  return {
    id: b.id,
    provider: b.provider,
    model: b.model,
    remoteId: b.remoteId,
    status: b.status,
    remoteStatus: b.remoteStatus,
    requests: b.requestCount,
    finished: b.finishedCount,
    createdAt: b.createdAt,
  };
}

/** Not ended nor failed: a batch still to poll (or to look for, or being cancelled). */
export function isOpenBatch(b: Pick<LocalBatch, 'status'>): boolean {
  return b.status !== 'ended' && b.status !== 'failed';
}

export interface RequestState {
  status: 'pending' | 'in_flight' | 'done' | 'failed';
  model: string;
  lease: LeaseColumns;
}

/**
 * Status, model and lease of many rows, without their request and response texts: what a
 * batch run checks every poll (20,000 full rows each time would cost far more memory).
 */
export function requestStates(db: Database, ids: readonly number[]): Map<number, RequestState> {
  const stmt = db.prepare(
    'SELECT status, model, lease_owner, lease_pid, lease_host, lease_expires_at FROM requests WHERE id = ?',
  );
  const out = new Map<number, RequestState>();
  db.transaction(() => {
    for (const id of ids) {
      if (out.has(id)) continue;
      const r = stmt.get(id) as
        (LeaseColumns & { status: RequestState['status']; model: string }) | undefined;
      if (r)
        out.set(id, {
          status: r.status,
          model: r.model,
          lease: leaseOf(r),
        });
    }
  })();
  return out;
}
