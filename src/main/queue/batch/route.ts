// Which jobs of a round go through a Batch API, and how the live and batch sides' progress
// reads as one.
import { endpointId, isBatchMode, type ProviderConfig } from '../../providers/config';
import type { Database } from '../../store/db';
import { getRequests } from '../../store/ledger';
import type { Job } from '../engine';
import { emptyGroup, type GroupProgress, type RunProgress, type RunSummary } from '../progress';
import type { BatchJob } from './executor';

/**
 * Splits jobs by their provider's mode. `tasks[i]` planned `jobs[i]`; jobs past the plan
 * (tasks stored outside it) take the first provider serving their endpoint.
 */
export function splitByMode(
  db: Database,
  providers: Record<string, ProviderConfig>,
  jobs: readonly Job[],
  tasks: readonly { request: { provider: string } }[],
): { live: Job[]; batch: BatchJob[] } {
  const live: Job[] = [];
  const batch: BatchJob[] = [];
  if (!Object.values(providers).some(isBatchMode)) return { live: [...jobs], batch };
  const extra = getRequests(
    db,
    jobs.slice(tasks.length).map((j) => j.requestId),
  );
  const byEndpoint = new Map<string, string>();
  for (const [name, cfg] of Object.entries(providers))
    if (!byEndpoint.has(endpointId(cfg, name))) byEndpoint.set(endpointId(cfg, name), name);
  jobs.forEach((j, i) => {
    const provider =
      i < tasks.length ? tasks[i].request.provider : byEndpoint.get(extra.get(j.requestId)?.endpoint ?? '');
    const cfg = provider === undefined ? undefined : providers[provider];
    if (provider !== undefined && cfg && isBatchMode(cfg)) batch.push({ ...j, provider });
    else live.push(j);
  });
  return { live, batch };
}

const COUNTS = ['total', 'done', 'failed', 'cacheHits', 'inFlight', 'pending'] as const;

function addGroups(into: Record<string, GroupProgress>, from: Record<string, GroupProgress>) {
  for (const [k, g] of Object.entries(from)) {
    const t = (into[k] ??= emptyGroup());
    for (const c of COUNTS) t[c] += g[c];
  }
}

type Outcome = RunSummary['outcome'];
const outcomeOf = (p: RunProgress | null): Outcome | undefined =>
  p && 'outcome' in p ? (p as RunSummary).outcome : undefined;

/**
 * Two sides of one round as one: counts, tokens, spend and failures add up. With `overlay`,
 * `b` re-sends jobs `a` already counts (the live fallback of batch entries): its finished
 * jobs move out of `a`'s pending instead of adding to the totals.
 */
export function combineProgress(
  a: RunProgress | null,
  b: RunProgress | null,
  opts: { overlay?: boolean } = {},
): RunSummary {
  const base = a ?? b;
  if (!base) throw new Error('combineProgress: nothing to combine');
  const other = a ? b : null;
  const groups: Record<string, GroupProgress> = {};
  addGroups(groups, base.groups);
  const overall = { ...base.overall };
  if (other) {
    if (opts.overlay) {
      for (const [k, g] of Object.entries(other.groups)) {
        const t = (groups[k] ??= emptyGroup());
        t.pending -= g.total;
        for (const c of COUNTS) if (c !== 'total') t[c] += g[c];
      }
      overall.pending -= other.overall.total;
      for (const c of COUNTS) if (c !== 'total') overall[c] += other.overall[c];
    } else {
      addGroups(groups, other.groups);
      for (const c of COUNTS) overall[c] += other.overall[c];
    }
  }
  const failures = { ...base.failuresByReason };
  for (const [k, n] of Object.entries(other?.failuresByReason ?? {})) failures[k] = (failures[k] ?? 0) + n;
  const outcomes = [outcomeOf(base), outcomeOf(other)];
  const outcome: Outcome = outcomes.includes('cancelled')
    ? 'cancelled'
    : outcomes.includes('blocked')
      ? 'blocked'
      : 'finished';
  const etas = [base.etaSeconds, other?.etaSeconds].filter((e): e is number => typeof e === 'number');
  return {
    ...base,
    state: other && base.state !== other.state && other.state !== 'finished' ? other.state : base.state,
    elapsedMs: Math.max(base.elapsedMs, other?.elapsedMs ?? 0),
    overall,
    groups,
    callsPerMinute: base.callsPerMinute + (other?.callsPerMinute ?? 0),
    etaSeconds: etas.length ? Math.max(...etas) : null,
    tokens: {
      input: base.tokens.input + (other?.tokens.input ?? 0),
      output: base.tokens.output + (other?.tokens.output ?? 0),
      cached: base.tokens.cached + (other?.tokens.cached ?? 0),
    },
    costUsd: base.costUsd + (other?.costUsd ?? 0),
    unpricedModels: [...new Set([...base.unpricedModels, ...(other?.unpricedModels ?? [])])],
    failuresByReason: failures,
    calls: base.calls + (other?.calls ?? 0),
    rateLimited: base.rateLimited + (other?.rateLimited ?? 0),
    cutOffReads: base.cutOffReads + (other?.cutOffReads ?? 0),
    retries: base.retries + (other?.retries ?? 0),
    pausedLanes: [...base.pausedLanes, ...(other?.pausedLanes ?? [])],
    outcome,
  };
}
