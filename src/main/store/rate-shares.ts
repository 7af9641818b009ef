// One rate budget per endpoint+model across processes (issue 14). The desktop app, `judge-lab
// serve` and CLI runs may send to the same model from one data folder at once; each run that
// sends to a lane holds a share row here, renews it while it runs, and takes 1/n of the lane's
// RPM, TPM and concurrency, n being the live shares. A crashed process stops renewing: its
// share expires (or its pid is gone) and the others take the whole budget again.
import { hostname } from 'node:os';
import type { Database } from './db';
import type { Lease } from './leases';
import { processAlive } from './process-alive';

/** A share not renewed for this long is gone (its process crashed or hangs). */
export const SHARE_MS = 10_000;
/** How often a run renews its shares and reads the others' (a newcomer is noticed this fast). */
export const SHARE_REFRESH_MS = 250;
/**
 * A share given back lingers this long: a run between two rounds of its plan (a few ms) or a
 * lane idle until the next round's work keeps its part, so the other process does not take
 * the whole budget for an instant and then overshoot when it is back.
 */
export const SHARE_GRACE_MS = 1_500;

const HOST = hostname();

/** One statement run for each lane, in one transaction (a lane list is all or nothing). */
function forEachLane(db: Database, lanes: readonly string[], sql: string, args: (lane: string) => unknown[]) {
  const stmt = db.prepare(sql);
  db.transaction(() => lanes.forEach((lane) => stmt.run(...args(lane))))();
}

/** Holds (or renews) this run's share of each lane. */
export function holdShares(db: Database, lease: Lease, lanes: readonly string[], now = Date.now()): void {
  forEachLane(
    db,
    lanes,
    `INSERT INTO rate_shares (lane, owner, pid, host, expires_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(lane, owner) DO UPDATE SET expires_at = excluded.expires_at`,
    (lane) => [lane, lease.owner, lease.pid, lease.host, now + SHARE_MS],
  );
}

/**
 * A write that needs room on the store's disk and leaves nothing behind: a share row no lane
 * has ('' is no lane key) put and taken away in one transaction, which no other process sees.
 * The engine's store retry proves with it that the store takes writes again when it has no
 * answers to commit (an UPDATE that matches no row, or sets what is there, writes no page).
 */
export function probeWrite(db: Database, lease: Lease): void {
  const put = db.prepare(
    'INSERT INTO rate_shares (lane, owner, pid, host, expires_at) VALUES (?, ?, ?, ?, 0)',
  );
  const take = db.prepare("DELETE FROM rate_shares WHERE lane = '' AND owner = ?");
  db.transaction(() => {
    put.run('', lease.owner, lease.pid, lease.host);
    take.run(lease.owner);
  })();
}

/** Gives back this run's shares of lanes it has no more work for. */
export function dropShares(db: Database, lease: Lease, lanes: readonly string[], now = Date.now()): void {
  forEachLane(
    db,
    lanes,
    'UPDATE rate_shares SET expires_at = MIN(expires_at, ?) WHERE lane = ? AND owner = ?',
    (lane) => [now + SHARE_GRACE_MS, lane, lease.owner],
  );
}

/** Gives this run's shares back (its run ended): the others take the whole budget at once. */
export function releaseShares(db: Database, lease: Lease, now: number = Date.now()): void {
  db.prepare('UPDATE rate_shares SET expires_at = MIN(expires_at, ?) WHERE owner = ?').run(
    now + SHARE_GRACE_MS,
    lease.owner,
  );
}

/**
 * Live shares per lane (this run's included), after dropping expired ones and those of dead
 * processes on this host. A lane nobody holds counts 1.
 */
export function shareCounts(
  db: Database,
  lanes: readonly string[],
  now: number = Date.now(),
): Map<string, number> {
  const out = new Map<string, number>();
  if (!lanes.length) return out;
  const rows = db
    .prepare(
      `SELECT lane, owner, pid, host, expires_at FROM rate_shares WHERE lane IN (${lanes.map(() => '?').join(',')})`,
    )
    .all(...lanes) as { lane: string; owner: string; pid: number; host: string; expires_at: number }[];
  const gone: { lane: string; owner: string }[] = [];
  for (const r of rows) {
    const dead = r.expires_at <= now || (r.host === HOST && r.pid !== process.pid && !processAlive(r.pid));
    if (dead) gone.push(r);
    else out.set(r.lane, (out.get(r.lane) ?? 0) + 1);
  }
  if (gone.length) {
    const del = db.prepare('DELETE FROM rate_shares WHERE lane = ? AND owner = ?');
    db.transaction(() => gone.forEach((g) => del.run(g.lane, g.owner)))();
  }
  for (const l of lanes) if (!out.has(l)) out.set(l, 1);
  return out;
}
