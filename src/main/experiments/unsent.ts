// An experiment whose plan still has calls that were never sent (a translation edited after
// its run ended, or during the run's last round) is not finished: it shows as paused, with
// a message, and resuming sends exactly those calls.
import type { ExperimentStatus } from '../../shared/experiments';
import type { Database } from '../store/db';
import { planCounts } from '../store/experiments';

/** Planned calls with neither an answer nor a final failure. */
export function unsentCalls(db: Database, experimentId: number): number {
  const c = planCounts(db, experimentId);
  return c.planned - c.done - c.failed;
}

/** The status to show when no run is live: "finished" only when nothing planned is left. */
export function shownStatus(stored: ExperimentStatus, unsent: number): ExperimentStatus {
  return stored === 'finished' && unsent > 0 ? 'paused' : stored;
}

export function unsentMessage(unsent: number): string {
  return `${unsent} planned call${unsent === 1 ? ' was' : 's were'} never sent (for example after a translation was edited). Resume sends ${unsent === 1 ? 'it' : 'them'}; results leave ${unsent === 1 ? 'it' : 'them'} out until then.`;
}
