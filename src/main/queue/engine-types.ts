// The engine's public contract: what a caller passes in and what it hears back.
import type { KeyStore, ProviderConfig } from '../providers/config';
import type { PriceTable } from '../providers/pricing';
import type { ChatAdapter, ChatRequestSpec, ChatResult } from '../providers/types';
import type { Database } from '../store/db';
import type { LaneLimits } from './lane';
import type { RetryPolicy } from './retry-policy';

export interface EngineLogger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Without a logger, warnings still reach stderr: they are bugs or store faults worth seeing.
 * Pauses and outages are info: progress (`pausedLanes`) tells the person about them.
 */
export const STDERR_LOGGER: EngineLogger = {
  info: () => {},
  warn: (message) => process.stderr.write(`judge-lab: ${message}\n`),
};

export interface RequestEngineOptions {
  db: Database;
  providers: Record<string, ProviderConfig>;
  keys: KeyStore;
  prices?: PriceTable;
  now?: () => number;
  random?: () => number;
  logger?: EngineLogger;
  retry?: Partial<RetryPolicy>;
  progressIntervalMs?: number;
  /** How often rows another run has in flight are checked for its outcome (default: progressIntervalMs). */
  watchIntervalMs?: number;
  /**
   * Per-model limits that override the provider's (DESIGN.md section 7: a judge entry may
   * override its endpoint's limits), keyed by `modelLimitKey(providerName, model)`.
   */
  modelLimits?: Record<string, Partial<LaneLimits>>;
  /** Adapter factory (tests and benchmarks pass the real ones; kept injectable for other kinds). */
  createAdapter?: (cfg: ProviderConfig, apiKey: string, providerName: string) => ChatAdapter;
  /** Retrying a store that cannot be written (STORE_RETRY's fields; tests shorten them). */
  storeRetry?: Partial<StoreRetry>;
}

export interface StoreRetry {
  /** First pause before the commit is tried again; doubles up to maxMs. */
  baseMs: number;
  maxMs: number;
  /**
   * With nothing on the wire and every answer not stored safe in the side file, the run
   * stops after the store failed this long (the next start stores them). Answers held only
   * in memory are never given up: the commit is retried until it works or the run is cancelled.
   */
  giveUpMs: number;
}

export const STORE_RETRY: StoreRetry = { baseMs: 250, maxMs: 5000, giveUpMs: 60_000 };

/** A parsed answer: usable with its value, or unusable with the reason. */
export type ReadAnswer = { ok: true; value: unknown } | { ok: false; error: string };

/** An outcome stored with its ledger row: the value read from a usable answer, or why it failed. */
export interface StoredOutcome {
  requestId: number;
  status: 'done' | 'failed';
  value: unknown;
  reason: string | null;
}

export interface Job {
  requestId: number;
  group: string;
}

export interface RunOptions {
  /** Domain check of a parsed answer; a returned reason makes it unusable (re-asked, then failed). */
  validate?: (spec: ChatRequestSpec, result: ChatResult, requestId: number) => string | null;
  /**
   * Reads an answer once, as it arrives (instead of validate): an error makes it unusable; a
   * value goes to `storeOutcomes` with the answer.
   */
  read?: (result: ChatResult, requestId: number) => ReadAnswer;
  /**
   * Stores the outcomes of a group commit in the transaction that completes their ledger rows
   * (results beside the ledger: parsed once, never an answer without its result).
   */
  storeOutcomes?: (outcomes: StoredOutcome[]) => void;
  /**
   * Early warning: a watched group whose first `answers` answers are mostly unusable gets its
   * lane paused, so a broken prompt costs a dozen calls, not thousands. `label` names the
   * groups to watch (null: not watched) as the pause reason should call them.
   */
  earlyWarning?: { answers: number; label: (group: string) => string | null };
  /**
   * This run continues the one before on this engine (a later round of one experiment run):
   * lanes paused for errors stay paused (resume() lifts them), instead of being tried again.
   */
  continuing?: boolean;
}

export interface PausedEvent {
  endpoint: string;
  model: string;
  kind: string;
  reason: string;
}

/**
 * Ledger rows whose final outcome (done or failed) was just committed by this engine, or
 * found stored by another run while this one waited for it (tasks that need it can go now).
 */
export interface CommittedEvent {
  ids: number[];
}

/** The pause kind of the early warning (RunOptions.earlyWarning). */
export const EARLY_WARNING = 'early_warning';

export function modelLimitKey(providerName: string, model: string): string {
  return `${providerName}\u0000${model}`;
}
