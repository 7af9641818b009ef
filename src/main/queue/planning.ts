// Jobs into a run: each is counted in its group; one already stored in the ledger counts at
// once (a cache hit, or a failure), the others wait in their lane's queue, except rows another
// live run is sending now, whose answer this run waits for instead of paying twice.
import { estimateInputTokens } from '../providers/tokens';
import { getPlanRows, getRequestJson, recoverInFlight } from '../store/ledger';
import type { EngineContext } from './engine-context';
import type { Job } from './engine-types';
import type { Lane } from './lane';
import { kindOfReason, newUnit, type RunState, type Unit } from './run-state';

/** Counts the jobs into the run and queues those still to send; returns the new units. */
export function plan(ctx: EngineContext, r: RunState, jobs: readonly Job[]): Unit[] {
  const rows = getPlanRows(
    ctx.db,
    jobs.map((j) => j.requestId),
  );
  const units = new Map<number, Unit>();
  const added: Unit[] = [];
  const checked = new Set<Lane<Unit>>();
  for (const job of jobs) {
    r.jobPlanned(job.requestId, job.group);
    const row = rows.get(job.requestId);
    if (!row) throw new Error(`RequestEngine: no ledger row with id ${job.requestId}`);
    if (row.status === 'done') {
      r.countFinished([job.group], 'done', true);
      ctx.warning.watchStored(r, job.group, row.id, true);
      continue;
    }
    if (row.status === 'failed') {
      const kind = kindOfReason(row.failureReason);
      r.countFinished([job.group], 'failed', false, kind);
      if (kind === 'unparseable') ctx.warning.watchStored(r, job.group, row.id, false);
      continue;
    }
    const existing = units.get(row.id);
    if (existing) {
      existing.groups.push(job.group);
      continue;
    }
    const lane = ctx.lanes.laneFor(row);
    if (!checked.has(lane)) {
      checked.add(lane);
      ctx.lanes.checkProvider(lane);
    }
    const unit = newUnit(row.id, lane, job.group, estimate(ctx, row.id, lane));
    units.set(row.id, unit);
    r.unitAdded(unit);
    added.push(unit);
  }
  // Rows in flight: resent only when the run that claimed them is gone (a crash); another
  // live run is sending them now, so this one waits for its answer instead of paying twice.
  const inFlight = added.filter((u) => rows.get(u.id)?.status === 'in_flight').map((u) => u.id);
  const recovered = new Set(inFlight.length ? recoverInFlight(ctx.db, inFlight) : []);
  let foreign = 0;
  for (const u of added) {
    if (rows.get(u.id)?.status === 'in_flight' && !recovered.has(u.id)) {
      r.foreignAwaited(u);
      foreign++;
    } else u.lane.push(u);
  }
  if (foreign) ctx.logger.info(`${foreign} calls are being sent by another run; waiting for their answers`);
  return added;
}

/** Tokens a request takes from a TPM budget; only such a budget needs it (tokenizing is skipped otherwise). */
function estimate(ctx: EngineContext, id: number, lane: Lane<Unit>): number {
  if (!lane.tpm) return 0;
  const spec = ctx.lanes.specFor(getRequestJson(ctx.db, id) ?? '', lane);
  return estimateInputTokens(spec) + (spec.maxOutputTokens ?? 0);
}
