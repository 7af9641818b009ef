// What one run of the engine holds: the units (ledger requests) it sends, the outcomes waiting
// for their group commit, the store's stall, and the counts that progress reports.
import type { ChatRequestSpec, Usage } from '../providers/types';
import type { Lease } from '../store/leases';
import type { RunOptions } from './engine-types';
import type { Lane } from './lane';
import type { FinalCompletion, SideReserve } from './pending-answers';
import { emptyGroup, SlidingCounter, type GroupProgress, type RunSummary } from './progress';

export interface Unit {
  id: number;
  groups: string[];
  lane: Lane<Unit>;
  /**
   * Loaded from the ledger with the claim and dropped once the outcome is stored: a run holds
   * the requests on the wire in memory, not the whole study's (20,000 prompts of a few KB).
   */
  spec: ChatRequestSpec | null;
  estimate: number;
  claimed: boolean;
  /** Sends since the claim (the claim itself counted one attempt in the ledger). */
  sends: number;
  /** Sends, usage and cost not written to the ledger yet: the next write adds them. */
  owedAttempts: number;
  owedUsage: Usage;
  owedCost: number;
  /** Sent as the one probe of a lane in an outage. */
  probe: boolean;
  transient: number;
  parse: number;
  rateLimits: number;
}

export const ZERO_USAGE = (): Usage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

export function newUnit(id: number, lane: Lane<Unit>, group: string, estimate: number): Unit {
  return {
    id,
    groups: [group],
    lane,
    spec: null,
    estimate,
    claimed: false,
    sends: 0,
    owedAttempts: 0,
    owedUsage: ZERO_USAGE(),
    owedCost: 0,
    probe: false,
    transient: 0,
    parse: 0,
    rateLimits: 0,
  };
}

/** A claimed unit's request; a unit sent or judged unclaimed is a bug. */
export function specOf(u: Unit): ChatRequestSpec {
  if (!u.spec) throw new Error(`RequestEngine: request ${u.id} has no loaded spec (not claimed)`);
  return u.spec;
}

/** A final outcome waiting for the group commit, with the value read from its answer. */
export interface PendingWrite {
  unit: Unit;
  c: FinalCompletion;
  value?: unknown;
}

export class RunState {
  state: 'running' | 'paused' | 'cancelling' = 'running';
  readonly units: Unit[] = [];
  /** Every request id given to this run (sent, queued, or stored already): add() skips them. */
  readonly known = new Set<number>();
  /** hold()s not released yet: the run does not end while the caller may add jobs. */
  holds = 0;
  /** Rows another live run has in flight: their outcome is awaited, not paid for again. */
  readonly foreign = new Map<number, Unit>();
  /** Final outcomes received this turn of the event loop, stored together before they count. */
  writes: PendingWrite[] = [];
  /** The store cannot be written: nothing is sent; the commit is tried again at `timer`. */
  stall: { reason: string; since: number; attempt: number; timer: NodeJS.Timeout | null } | null = null;
  /** Outcomes of `writes` that are in the side file too, and that file. */
  readonly spilled = new Set<number>();
  spillFile: string | null = null;
  spillFailed = false;
  /** Room set aside on the store's disk for the side file (pending-answers.ts). */
  reserve: SideReserve | null = null;
  readonly groups = new Map<string, GroupProgress>();
  readonly overall = emptyGroup();
  active = 0;
  calls = 0;
  rateLimited = 0;
  cutOffReads = 0;
  retries = 0;
  skipped = 0;
  costUsd = 0;
  readonly tokens = { input: 0, output: 0, cached: 0 };
  readonly unpriced = new Set<string>();
  readonly failuresByReason: Record<string, number> = {};
  readonly callWindow = new SlidingCounter(60);
  readonly completionWindow = new SlidingCounter(60);
  pumpQueued = false;
  timer: NodeJS.Timeout | null = null;
  timerAt = 0;
  ticker: NodeJS.Timeout | null = null;
  leaseRenewedAt = Date.now();
  watchedAt = 0;
  /** When this run last renewed its rate shares and read the other processes'. */
  sharedAt = 0;
  settled = false;
  /** The store failed: the run ends with this error once calls on the wire are back. */
  fatal: unknown = undefined;
  resolve!: (s: RunSummary) => void;
  reject!: (err: unknown) => void;
  readonly finished: Promise<RunSummary>;

  constructor(
    readonly startedAt: number,
    readonly opts: RunOptions,
    readonly lease: Lease,
  ) {
    this.finished = new Promise((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
  }

  group(name: string): GroupProgress {
    let g = this.groups.get(name);
    if (!g) {
      g = emptyGroup();
      this.groups.set(name, g);
    }
    return g;
  }

  /** A unit claimed (true) or given back (false): it counts in flight in each of its groups. */
  countInFlight(u: Unit, delta: 1 | -1): void {
    for (const g of u.groups) this.group(g).inFlight += delta;
    this.overall.inFlight += delta * u.groups.length;
  }

  /** Jobs of these groups finished (a cache hit: found done in the ledger, no call). */
  countFinished(
    groups: readonly string[],
    status: 'done' | 'failed',
    cacheHit: boolean,
    kind?: string,
  ): void {
    for (const g of [...groups.map((name) => this.group(name)), this.overall]) {
      const n = g === this.overall ? groups.length : 1;
      if (status === 'done') {
        g.done += n;
        if (cacheHit) g.cacheHits += n;
      } else g.failed += n;
    }
    if (status === 'failed') {
      const k = kind ?? 'failed';
      this.failuresByReason[k] = (this.failuresByReason[k] ?? 0) + groups.length;
    }
  }
}

/** Failure reasons are stored as "<kind>: <message>". */
export function kindOfReason(reason: string | null | undefined): string {
  const m = /^([a-z_]+):/.exec(reason ?? '');
  return m ? m[1] : 'failed';
}
