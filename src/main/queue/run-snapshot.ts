// A run's progress as reported (RunProgress): counts, rates, the slowest lane's time left, and
// the lanes that do not send (paused, or waiting out an outage).
import { laneEtaSeconds } from './eta';
import type { Lane } from './lane';
import type { GroupProgress, PausedLane, RunProgress } from './progress';
import type { RunState, Unit } from './run-state';

function withPending(g: GroupProgress): GroupProgress {
  return { ...g, pending: Math.max(0, g.total - g.done - g.failed - g.inFlight) };
}

export function snapshot(
  r: RunState,
  lanes: Iterable<Lane<Unit>>,
  state: RunProgress['state'],
  now: number,
): RunProgress {
  const elapsedMs = now - r.startedAt;
  const windowSec = Math.min(60, Math.max(1, elapsedMs / 1000));
  const callsPerMinute = (r.callsInWindow(now) / windowSec) * 60;
  const overall = withPending(r.overall);
  const remaining = overall.pending + overall.inFlight;
  const groups: Record<string, GroupProgress> = {};
  for (const [k, g] of r.groups) groups[k] = withPending(g);
  const pausedLanes: PausedLane[] = [];
  // The slowest lane decides; a paused lane sends nothing until resumed, so it has no time left.
  let etaSeconds: number | null = remaining === 0 ? 0 : null;
  for (const lane of lanes) {
    const left = lane.readyCount + lane.delayedCount + lane.inFlight;
    if (left > 0 && !lane.paused && remaining !== 0) {
      const secs = laneEtaSeconds(left, lane.completions.sum(now) / windowSec, {
        rpm: lane.limits.rpm,
        tpm: lane.limits.tpm,
        concurrency: lane.cap,
      });
      etaSeconds = Math.max(etaSeconds ?? 0, Math.round(secs));
    }
    if (lane.paused) pausedLanes.push({ endpoint: lane.endpoint, model: lane.model, ...lane.paused });
    else if (lane.outage)
      pausedLanes.push({
        endpoint: lane.endpoint,
        model: lane.model,
        kind: 'outage',
        reason: lane.outage.describe(),
      });
  }
  return {
    state,
    elapsedMs,
    overall,
    groups,
    callsPerMinute: Math.round(callsPerMinute * 10) / 10,
    etaSeconds,
    tokens: { ...r.tokens },
    costUsd: r.costUsd,
    unpricedModels: [...r.unpriced],
    failuresByReason: { ...r.failuresByReason },
    calls: r.calls,
    rateLimited: r.rateLimited,
    cutOffReads: r.cutOffReads,
    retries: r.retries,
    pausedLanes,
    storeProblem: r.stall ? `store write failed: ${r.stall.reason}; retrying` : null,
  };
}
