// One budget per endpoint + model across processes (store/rate-shares.ts): a run holds a share
// of every lane that still has work and takes 1/n of its limits, n being the runs holding one.
import type { Database } from '../store/db';
import type { Lease } from '../store/leases';
import { dropShares, holdShares, releaseShares, shareCounts } from '../store/rate-shares';
import type { EngineLogger } from './engine-types';
import type { Lane } from './lane';
import type { RunState, Unit } from './run-state';

/**
 * Holds this run's share of every lane that still has work (and gives back the others), then
 * takes 1/n of each lane's limits. Returns whether a share grew (there is more to send now).
 */
export function refreshShares(
  db: Database,
  holder: Lease,
  r: RunState,
  now: number,
  logger: EngineLogger,
): boolean {
  const joining = r.sharesRefreshed(now);
  const mine = new Set(r.units.map((u) => u.lane));
  const busy = [...mine].filter((l) => l.readyCount + l.delayedCount + l.inFlight > 0).map((l) => l.key);
  const idle = [...mine].filter((l) => !busy.includes(l.key)).map((l) => l.key);
  holdShares(db, holder, busy);
  if (idle.length) dropShares(db, holder, idle);
  const counts = shareCounts(db, busy);
  let grew = false;
  for (const lane of mine) {
    const share = 1 / (counts.get(lane.key) ?? 1);
    if (share === lane.share) continue;
    grew ||= share > lane.share;
    lane.setShare(share, now);
    // Joining runs already sending: they notice us within SHARE_REFRESH_MS; until then our
    // first burst would come on top of their full rate, so we start with empty buckets.
    if (joining && share < 1) {
      lane.rpm?.drain(now);
      lane.tpm?.drain(now);
    }
    logger.info(`${lane.model} at ${lane.endpoint}: ${counts.get(lane.key)} runs share its limits`);
  }
  return grew;
}

/** The run is over: its shares go back and every lane has its whole budget again. */
export function endShares(db: Database, holder: Lease, lanes: Iterable<Lane<Unit>>, now: number): void {
  try {
    releaseShares(db, holder);
  } catch {
    // The store is gone (closing): the share expires by itself.
  }
  for (const lane of lanes) if (lane.share !== 1) lane.setShare(1, now);
}
