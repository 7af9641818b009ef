// What the batch executor is given and gives back.
import type { BatchProgress } from '../../../shared/experiments';
import type { BatchAdapter, BatchLimits } from '../../providers/batch-types';
import type { KeyStore, ProviderConfig } from '../../providers/config';
import type { PriceTable } from '../../providers/pricing';
import type { ChatRequestSpec, ChatResult } from '../../providers/types';
import type { Database } from '../../store/db';
import type { ReadAnswer, StoredOutcome } from '../engine-types';
import type { RunProgress } from '../progress';
import type { RetryPolicy } from '../retry-policy';

export interface BatchJob {
  requestId: number;
  group: string;
  /** The provider name (config key) whose Batch API sends it. */
  provider: string;
}

/** One batch as progress shows it (also after reopening the app). */
export type BatchInfo = BatchProgress;

export interface BatchRunSummary extends RunProgress {
  outcome: 'finished' | 'cancelled' | 'blocked';
  /** Requests handed back to be sent live (`batchFallback: "live"`). */
  live: number[];
  batches: BatchInfo[];
}

export interface BatchExecutorOptions {
  db: Database;
  providers: Record<string, ProviderConfig>;
  keys: KeyStore;
  prices?: PriceTable;
  retry?: Partial<RetryPolicy>;
  /** Smaller limits than the provider's (tests of splitting). */
  limits?: Partial<BatchLimits>;
  /**
   * How long after its submission record a batch whose create reply was lost is looked for
   * before it counts as never created (providers may list a new batch a little late).
   */
  lostReplyGraceMs?: number;
  createBatchAdapter?: (cfg: ProviderConfig, apiKey: string) => BatchAdapter | undefined;
  onProgress?: (p: BatchRunSummary) => void;
  logger?: { info(m: string): void; warn(m: string): void };
}

export type Validate = (spec: ChatRequestSpec, result: ChatResult, requestId: number) => string | null;

/** How a batch run reads its answers: the live engine's RunOptions, the same meaning. */
export interface BatchReadOptions {
  /** Reads an answer once, as its entry is read (instead of validate); its value goes to storeOutcomes. */
  read?: (result: ChatResult, requestId: number) => ReadAnswer;
  /** Domain check of an answer (used when there is no `read`). */
  validate?: Validate;
  /** Stores the final outcomes of a chunk of entries in the transaction that completes their rows. */
  storeOutcomes?: (outcomes: StoredOutcome[]) => void;
}

/** How an executor's run goes: the caller's pause, cancel, and quitting (detach). */
export type BatchMode = 'running' | 'paused' | 'cancelling' | 'detaching';
