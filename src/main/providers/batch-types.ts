// The provider-neutral face of the providers' Batch APIs (OpenAI Batch, Anthropic Message
// Batches): submit many requests at once, poll until the provider has processed them (within
// its 24 h window, at half the price), then read every entry's outcome by its custom id.
import { ProviderError } from './errors';
import type { ChatRequestSpec, ChatResult, ProviderErrorKind } from './types';

/** Both providers accept custom ids of this shape (Anthropic states it; OpenAI is laxer). */
export const CUSTOM_ID_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The turnaround window both providers promise (and after which entries expire). */
export const BATCH_WINDOW_HOURS = 24;

export interface BatchEntry {
  customId: string;
  spec: ChatRequestSpec;
}

/** What one entry of an ended batch came to. */
export type BatchEntryResult =
  | { customId: string; type: 'succeeded'; result: ChatResult }
  /** Answered and paid for, but not usable (the same check as a live answer). */
  | { customId: string; type: 'unparseable'; error: ProviderError }
  | { customId: string; type: 'errored'; kind: ProviderErrorKind; message: string }
  | { customId: string; type: 'expired' | 'cancelled' };

export interface RemoteBatchState {
  /** Processing has ended (completed, expired, cancelled or failed): results can be read. */
  ended: boolean;
  /** The provider's own status word, shown to people. */
  status: string;
  /** Entries the provider has finished, of all (when it says). */
  finished?: number;
  total?: number;
  /** The whole batch was refused (e.g. a validation error): its entries never ran. */
  failedReason?: string;
}

/** The request behind a custom id (undefined: not one of ours). */
export type SpecOf = (customId: string) => ChatRequestSpec | undefined;

export interface BatchLimits {
  maxRequests: number;
  maxBytes: number;
}

/** What a batch whose create reply never arrived is known by (the store's submission record). */
export interface LostSubmit {
  /** Random, sent with the batch (OpenAI metadata; every custom id ends in `_<nonce>`). */
  nonce: string;
  requestCount: number;
  /** When the submission record was written (ms): the batch cannot be older than this. */
  createdAt: number;
  /** True when this provider id is already another local batch's (never take it twice). */
  taken(remoteId: string): boolean;
}

/**
 * Thrown by `submit` when the batch surely does not exist (its input upload failed before any
 * create was sent): the rows can go out again at once, with no lookup.
 */
export class BatchNotCreated extends ProviderError {
  constructor(error: ProviderError) {
    super(error.kind, error.message, { status: error.status, headers: error.headers });
    this.name = 'BatchNotCreated';
  }
}

/** How far the provider's clock may run behind ours when listing batches by creation time. */
export const LOOKUP_CLOCK_SLACK_MS = 10 * 60 * 1000;

export interface BatchAdapter {
  readonly limits: BatchLimits;
  /** Bytes the entry adds to the batch's upload (for splitting at the provider's size limit). */
  entryBytes(entry: BatchEntry): number;
  /** Creates the batch; returns the provider's id. */
  submit(entries: readonly BatchEntry[], meta: { localId: number; nonce: string }): Promise<string>;
  /**
   * Looks for a batch the provider accepted though its create reply was lost (connection
   * dropped, app killed): its id, or null when the provider lists none that matches.
   */
  find(lost: LostSubmit): Promise<string | null>;
  poll(remoteId: string): Promise<RemoteBatchState>;
  /** Streams every entry's outcome of an ended batch (entries absent from the results are not reported). */
  results(remoteId: string, specOf: SpecOf, onResult: (r: BatchEntryResult) => void): Promise<void>;
  cancel(remoteId: string): Promise<void>;
}
