// Leases on ledger rows in flight (migration 3). The desktop app, `judge-lab serve` and CLI
// runs may share one store and even one request (two experiments on the same items and
// judges). A row in flight belongs to the run that claimed it; another run may take it
// back only when that run is gone: its process is dead, or it stopped renewing the lease.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from './db';
import { processAlive } from './process-alive';

/** How long a lease lasts without renewal; the engine renews it every LEASE_RENEW_MS. */
export const LEASE_MS = 60_000;
export const LEASE_RENEW_MS = 15_000;

export interface Lease {
  /** Unique per run: two runs in one process must not take each other's rows either. */
  owner: string;
  pid: number;
  host: string;
}

/** The lease columns of a requests row. */
export interface LeaseColumns {
  lease_owner: string | null;
  lease_pid: number | null;
  lease_host: string | null;
  lease_expires_at: number | null;
}

/**
 * A row's lease alone: what a state kept per row (planning rows, batch polls) holds, so the rest of
 * the row it was read with is not kept alive beside it.
 */
export function leaseOf(r: LeaseColumns): LeaseColumns {
  return {
    lease_owner: r.lease_owner,
    lease_pid: r.lease_pid,
    lease_host: r.lease_host,
    lease_expires_at: r.lease_expires_at,
  };
}

// Runs of this process that have not ended. A row whose lease names this pid but none of
// these owners was left by an earlier process that had the same pid (pids are reused,
// and in a container every start may be pid 1).
const liveHere = new Set<string>();
const HOST = hostname();

export function takeLease(): Lease {
  const lease = { owner: randomUUID(), pid: process.pid, host: HOST };
  liveHere.add(lease.owner);
  return lease;
}

export function endLease(lease: Lease): void {
  liveHere.delete(lease.owner);
}

/**
 * Whether the owner of an in-flight row may still be sending it. A row without an owner
 * was claimed before leases existed (or by a tool that takes none): nobody is sending it.
 * On another host the pid means nothing, so only the expiry counts.
 */
export function leaseHeld(row: LeaseColumns, now: number): boolean {
  if (!row.lease_owner || row.lease_expires_at === null || row.lease_expires_at <= now) return false;
  // A provider batch holds its rows until they are read back, whichever process reads them.
  if (isBatchOwner(row.lease_owner)) return true;
  if (row.lease_host !== HOST) return true;
  if (row.lease_pid === process.pid) return liveHere.has(row.lease_owner);
  return row.lease_pid !== null && processAlive(row.lease_pid);
}

/** Extends the lease on every row the owner has in flight; returns how many. */
export function renewLeases(db: Database, lease: Lease, expiresAt: number): number {
  return db
    .prepare(`UPDATE requests SET lease_expires_at = ? WHERE status = 'in_flight' AND lease_owner = ?`)
    .run(expiresAt, lease.owner).changes;
}

/** The lease owner of rows in a provider batch (migration 7): the batch, not a process. */
export function batchOwner(batchId: number): string {
  return `batch:${batchId}`;
}

export function isBatchOwner(owner: string | null): boolean {
  return owner !== null && owner.startsWith('batch:');
}
