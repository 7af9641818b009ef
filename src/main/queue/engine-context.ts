// What the engine's parts share: its settings, its lanes, the run going now, and the few
// operations one concern asks of another. Each part (dispatch, outcomes, commits, foreign
// rows) is written against this, never against another part, so none imports another.
import type { PriceTable } from '../providers/pricing';
import type { ChatResult } from '../providers/types';
import type { ProviderError } from '../providers/errors';
import type { Database } from '../store/db';
import type { Completion } from '../store/ledger';
import type { EarlyWarning } from './early-warning';
import type { EngineLogger, StoreRetry } from './engine-types';
import type { LaneRegistry } from './lane-registry';
import type { FinalCompletion } from './pending-answers';
import type { RetryPolicy } from './retry-policy';
import type { RunState, Unit } from './run-state';

export interface EngineContext {
  readonly db: Database;
  readonly logger: EngineLogger;
  readonly now: () => number;
  readonly random: () => number;
  readonly policy: RetryPolicy;
  readonly prices: PriceTable;
  readonly storeRetry: StoreRetry;
  readonly lanes: LaneRegistry;
  readonly warning: EarlyWarning;
  /** The run going now (null between runs). */
  current(): RunState | null;
  /** Dispatches on the next turn of the event loop (once, however often asked). */
  pump(): void;
  /** Runs engine work started by a timer or a settled call; a thrown fault ends the run. */
  guarded(r: RunState, fn: () => void): void;
  abort(r: RunState, err: unknown): void;
  /** Ends the run if nothing is left to do (or only paused lanes are). */
  checkFinished(): void;
  emitCommitted(ids: number[]): void;
  readonly commits: Commits;
  readonly outcomes: Outcomes;
  readonly foreign: ForeignRows;
}

/** commits.ts: outcomes to the ledger, in group commits; the store's stall and side file. */
export interface Commits {
  finish(r: RunState, u: Unit, c: FinalCompletion, value?: unknown): void;
  commit(r: RunState): void;
  tryCommit(r: RunState): boolean;
  write(r: RunState, u: Unit, c: Completion): boolean;
  writeOwed(r: RunState, u: Unit): boolean;
  enterStall(r: RunState, err: Error): void;
  spill(r: RunState): void;
  stallEnds(r: RunState): boolean;
}

/** outcomes.ts: what an answer or an error means for its unit (retry and outage policy). */
export interface Outcomes {
  onResponse(r: RunState, u: Unit, result: ChatResult, headers: Headers): void;
  onError(r: RunState, u: Unit, e: ProviderError): void;
  release(r: RunState, u: Unit, requeue: boolean): void;
}

/** foreign-rows.ts: rows this run did not get, lost, or waits for another run to answer. */
export interface ForeignRows {
  settle(r: RunState, u: Unit): void;
  watch(r: RunState): void;
  releaseWaiting(r: RunState): void;
}
