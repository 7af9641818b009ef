// What one run of the engine holds: the units (ledger requests) it sends, the outcomes waiting
// for their group commit, the store's stall, and the counts that progress reports. RunState
// owns it: its fields are private, read through views and changed by named transitions.
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

export type RunMode = 'running' | 'paused' | 'cancelling';

/** The store cannot be written: nothing is sent; the commit is tried again at `timer`. */
export interface StoreStall {
  reason: string;
  since: number;
  attempt: number;
  timer: NodeJS.Timeout | null;
}

/**
 * One run's state, owned here: the engine's parts read it through read-only views and change
 * it only through the named transitions below, so every way a count, the run's mode or a timer
 * can change is listed in this one class (and a part cannot, say, end a run without rejecting
 * or resolving it).
 */
export class RunState {
  readonly finished: Promise<RunSummary>;
  #resolve!: (s: RunSummary) => void;
  #reject!: (err: unknown) => void;
  #state: RunMode = 'running';
  #settled = false;
  /** The store failed: the run ends with this error once calls on the wire are back. */
  #fatal: unknown = undefined;
  readonly #units: Unit[] = [];
  /** Every request id given to this run (sent, queued, or stored already): add() skips them. */
  readonly #known = new Set<number>();
  /** hold()s not released yet: the run does not end while the caller may add jobs. */
  #holds = 0;
  /** Rows another live run has in flight: their outcome is awaited, not paid for again. */
  readonly #foreign = new Map<number, Unit>();
  /** Final outcomes received this turn of the event loop, stored together before they count. */
  #writes: PendingWrite[] = [];
  #stall: StoreStall | null = null;
  /** Outcomes of `writes` that are in the side file too, and that file. */
  readonly #spilled = new Set<number>();
  #spillFile: string | null = null;
  #spillFailed = false;
  /** Room set aside on the store's disk for the side file (pending-answers.ts). */
  #reserve: SideReserve | null = null;
  readonly #groups = new Map<string, GroupProgress>();
  readonly #overall = emptyGroup();
  /** Calls on the wire (sent, not settled). */
  #active = 0;
  #calls = 0;
  #rateLimited = 0;
  #cutOffReads = 0;
  #retries = 0;
  #skipped = 0;
  #costUsd = 0;
  readonly #tokens = { input: 0, output: 0, cached: 0 };
  readonly #unpriced = new Set<string>();
  readonly #failuresByReason: Record<string, number> = {};
  readonly #callWindow = new SlidingCounter(60);
  #pumpQueued = false;
  #timer: NodeJS.Timeout | null = null;
  #timerAt = 0;
  #ticker: NodeJS.Timeout | null = null;
  #leaseRenewedAt = Date.now();
  #watchedAt = 0;
  /** When this run last renewed its rate shares and read the other processes'. */
  #sharedAt = 0;

  constructor(
    readonly startedAt: number,
    readonly opts: RunOptions,
    readonly lease: Lease,
  ) {
    this.finished = new Promise((res, rej) => {
      this.#resolve = res;
      this.#reject = rej;
    });
  }

  // --- read-only views ---
  get state(): RunMode {
    return this.#state;
  }
  get settled(): boolean {
    return this.#settled;
  }
  get fatal(): unknown {
    return this.#fatal;
  }
  get units(): readonly Unit[] {
    return this.#units;
  }
  get known(): ReadonlySet<number> {
    return this.#known;
  }
  get holds(): number {
    return this.#holds;
  }
  get foreign(): ReadonlyMap<number, Unit> {
    return this.#foreign;
  }
  get writes(): readonly PendingWrite[] {
    return this.#writes;
  }
  get stall(): Readonly<StoreStall> | null {
    return this.#stall;
  }
  get spillFile(): string | null {
    return this.#spillFile;
  }
  get reserve(): SideReserve | null {
    return this.#reserve;
  }
  get groups(): ReadonlyMap<string, Readonly<GroupProgress>> {
    return this.#groups;
  }
  get overall(): Readonly<GroupProgress> {
    return this.#overall;
  }
  get active(): number {
    return this.#active;
  }
  get calls(): number {
    return this.#calls;
  }
  get rateLimited(): number {
    return this.#rateLimited;
  }
  get cutOffReads(): number {
    return this.#cutOffReads;
  }
  get retries(): number {
    return this.#retries;
  }
  get skipped(): number {
    return this.#skipped;
  }
  get costUsd(): number {
    return this.#costUsd;
  }
  get tokens(): Readonly<{ input: number; output: number; cached: number }> {
    return this.#tokens;
  }
  get unpriced(): ReadonlySet<string> {
    return this.#unpriced;
  }
  get failuresByReason(): Readonly<Record<string, number>> {
    return this.#failuresByReason;
  }
  get pumpQueued(): boolean {
    return this.#pumpQueued;
  }
  get leaseRenewedAt(): number {
    return this.#leaseRenewedAt;
  }
  get watchedAt(): number {
    return this.#watchedAt;
  }
  get sharedAt(): number {
    return this.#sharedAt;
  }
  /** Calls answered (or refused with a status) in the last minute. */
  callsInWindow(now: number): number {
    return this.#callWindow.sum(now);
  }
  isSpilled(id: number): boolean {
    return this.#spilled.has(id);
  }

  // --- the run's mode and end ---
  /** Stop starting new calls. False when the run was not running. */
  paused(): boolean {
    if (this.#state !== 'running') return false;
    this.#state = 'paused';
    return true;
  }
  /** Sending again after a pause. False (nothing changes) while the run is being cancelled. */
  resumed(): boolean {
    if (this.#state === 'cancelling') return false;
    this.#state = 'running';
    return true;
  }
  /** Stop sending and end once the calls on the wire are back. False when it was cancelling already. */
  cancelled(): boolean {
    if (this.#state === 'cancelling') return false;
    this.#state = 'cancelling';
    return true;
  }
  /**
   * A fault ends the run: the first fault is the error it rejects with, and it is cancelled.
   * Returns whether this changed its mode to cancelling.
   */
  faulted(err: unknown): boolean {
    this.#fatal ??= err;
    return this.cancelled();
  }
  /** Nothing is left to wait for: from now on no job joins and no timer works for this run. */
  settle(): void {
    this.#settled = true;
  }
  /** A settled run's promise: rejected with its fault, else resolved with the summary. */
  end(summary: RunSummary | null): void {
    if (!this.#settled) throw new Error('RunState.end: the run is not settled');
    if (this.#fatal !== undefined) this.#reject(this.#fatal);
    else if (summary) this.#resolve(summary);
    else throw new Error('RunState.end: a run without a fault ends with a summary');
  }
  held(): void {
    this.#holds++;
  }
  released(): void {
    this.#holds--;
  }

  // --- timers and stamps ---
  /** A dispatch is queued for the next turn; false when one is queued already. */
  pumpQueuedNow(): boolean {
    if (this.#pumpQueued) return false;
    this.#pumpQueued = true;
    return true;
  }
  pumpRan(): void {
    this.#pumpQueued = false;
  }
  /** Wakes `fire` at `at` (in `ms`), unless an earlier wake-up is set already. */
  wakeAt(at: number, ms: number, fire: () => void): void {
    if (this.#timer && this.#timerAt <= at) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      fire();
    }, ms);
  }
  tickerStarted(ticker: NodeJS.Timeout): void {
    this.#ticker = ticker;
  }
  /** The run is over: its ticker, wake-up and store retry stop. */
  timersStopped(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#stall?.timer) clearTimeout(this.#stall.timer);
  }
  leaseRenewed(now: number): void {
    this.#leaseRenewedAt = now;
  }
  foreignWatched(now: number): void {
    this.#watchedAt = now;
  }
  /** The run holds its rate shares as of `now`; true the first time (it is joining the lanes). */
  sharesRefreshed(now: number): boolean {
    const joining = this.#sharedAt === 0;
    this.#sharedAt = now;
    return joining;
  }

  // --- jobs and units ---
  /** A job joined the run: it counts in its group and overall. */
  jobPlanned(requestId: number, group: string): void {
    this.#known.add(requestId);
    this.#group(group).total++;
    this.#overall.total++;
  }
  unitAdded(u: Unit): void {
    this.#units.push(u);
  }
  /** Another live run has the row in flight: its outcome is awaited, not paid for again. */
  foreignAwaited(u: Unit): void {
    this.#foreign.set(u.id, u);
  }
  foreignSettled(id: number): void {
    this.#foreign.delete(id);
  }
  foreignDropped(): void {
    this.#foreign.clear();
  }
  /** A row that is no longer anyone's to send nor stored (gone from the ledger). */
  rowSkipped(): void {
    this.#skipped++;
  }

  // --- counts ---
  /** A unit claimed (true) or given back (false): it counts in flight in each of its groups. */
  countInFlight(u: Unit, delta: 1 | -1): void {
    for (const g of u.groups) this.#group(g).inFlight += delta;
    this.#overall.inFlight += delta * u.groups.length;
  }

  /** Jobs of these groups finished (a cache hit: found done in the ledger, no call). */
  countFinished(
    groups: readonly string[],
    status: 'done' | 'failed',
    cacheHit: boolean,
    kind?: string,
  ): void {
    for (const g of [...groups.map((name) => this.#group(name)), this.#overall]) {
      const n = g === this.#overall ? groups.length : 1;
      if (status === 'done') {
        g.done += n;
        if (cacheHit) g.cacheHits += n;
      } else g.failed += n;
    }
    if (status === 'failed') {
      const k = kind ?? 'failed';
      this.#failuresByReason[k] = (this.#failuresByReason[k] ?? 0) + groups.length;
    }
  }
  callStarted(): void {
    this.#active++;
  }
  callSettled(): void {
    this.#active--;
  }
  /** The provider answered (or refused with a status): a call, in the calls-per-minute window. */
  callAnswered(now: number): void {
    this.#calls++;
    this.#callWindow.add(now);
  }
  cutOffRead(): void {
    this.#cutOffReads++;
  }
  rateLimitHit(): void {
    this.#rateLimited++;
  }
  retried(): void {
    this.#retries++;
  }
  /** Spend written to the ledger (or refused there: it was paid all the same). */
  spent(usage: Usage, costUsd: number): void {
    this.#tokens.input += usage.inputTokens;
    this.#tokens.output += usage.outputTokens;
    this.#tokens.cached += usage.cachedInputTokens;
    this.#costUsd += costUsd;
  }
  unpricedModel(model: string): void {
    this.#unpriced.add(model);
  }

  // --- outcomes waiting for the group commit, the side file, the store's stall ---
  /** A final outcome waits for this turn's group commit; true when it is the turn's first. */
  outcomeWaiting(w: PendingWrite): boolean {
    this.#writes.push(w);
    return this.#writes.length === 1;
  }
  /** The waiting outcomes are stored; true when the side file held some (it can go). */
  writesStored(): boolean {
    this.#writes = [];
    const spilled = this.#spilled.size > 0;
    this.#spilled.clear();
    return spilled;
  }
  sideFileReserved(reserve: SideReserve | null): void {
    this.#reserve = reserve;
  }
  /** These outcomes are in the side file too; true when it is the run's first spill. */
  spilledTo(file: string, ids: readonly number[]): boolean {
    for (const id of ids) this.#spilled.add(id);
    const first = this.#spillFile === null;
    this.#spillFile = file;
    return first;
  }
  /** The side file could not be written; true the first time (said once). */
  spillFailed(): boolean {
    const first = !this.#spillFailed;
    this.#spillFailed = true;
    return first;
  }
  /** The store cannot be written; true when the stall begins now (false: its reason is updated). */
  stalled(reason: string, now: number): boolean {
    if (this.#stall) {
      this.#stall.reason = reason;
      return false;
    }
    this.#stall = { reason, since: now, attempt: 0, timer: null };
    return true;
  }
  storeRetryScheduled(timer: NodeJS.Timeout): void {
    if (this.#stall) this.#stall.timer = timer;
  }
  /** The store retry is due (its timer fired) or no longer wanted (its timer is cleared). */
  storeRetryStopped(): void {
    if (!this.#stall) return;
    if (this.#stall.timer) clearTimeout(this.#stall.timer);
    this.#stall.timer = null;
  }
  storeRetried(): void {
    if (this.#stall) this.#stall.attempt++;
  }
  /** The store is written again (or a last commit before a cancel got through). */
  stallCleared(): void {
    this.storeRetryStopped();
    this.#stall = null;
  }

  #group(name: string): GroupProgress {
    let g = this.#groups.get(name);
    if (!g) {
      g = emptyGroup();
      this.#groups.set(name, g);
    }
    return g;
  }
}

/** Failure reasons are stored as "<kind>: <message>". */
export function kindOfReason(reason: string | null | undefined): string {
  const m = /^([a-z_]+):/.exec(reason ?? '');
  return m ? m[1] : 'failed';
}
