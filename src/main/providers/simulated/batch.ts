import { randomUUID } from 'node:crypto';
import {
  type BatchAdapter,
  type BatchEntry,
  type BatchEntryResult,
  type LostSubmit,
  type RemoteBatchState,
  type SpecOf,
} from '../batch-types';
import type { ProviderConfig } from '../config';
import { ProviderError } from '../errors';
import { DEFAULT_SIMULATED_LATENCY_MS, SimulatedChatAdapter } from './adapter';

/**
 * A simulated batch answers after ten mean answer times (3 s at the default latency; at once
 * with `latencyMs: 0`): short enough to try the batch path in a minute, long enough that the
 * run page shows a batch waiting, as a real one would for hours.
 */
export const SIMULATED_TURNAROUND_FACTOR = 10;

/** The published OpenAI limits, so splitting behaves as it would on a real account. */
const LIMITS = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

interface SimulatedBatch {
  entries: BatchEntry[];
  nonce: string;
  createdAt: number;
  turnaroundMs: number;
  cancelledAt?: number;
}

// There is no server to keep batches, so they live in this process: an executor that detaches
// (Stop, keep batches) and a later one in the same app find them here. After a restart the id
// is unknown and the batch reads as failed, so its rows go back to pending and are sent again
// (the answers are the same: they follow from the request alone).
const open = new Map<string, SimulatedBatch>();

/** The simulated provider's Batch API: the same answers as its live calls, after a short wait. */
export class SimulatedBatchAdapter implements BatchAdapter {
  readonly limits = LIMITS;
  private readonly chat: SimulatedChatAdapter;
  private readonly turnaroundMs: number;

  constructor(cfg: ProviderConfig) {
    // Answers are made when results are read; the wait is the batch's, not each call's.
    this.chat = new SimulatedChatAdapter({ ...cfg, latencyMs: 0 });
    this.turnaroundMs = (cfg.latencyMs ?? DEFAULT_SIMULATED_LATENCY_MS) * SIMULATED_TURNAROUND_FACTOR;
  }

  entryBytes(entry: BatchEntry): number {
    return Buffer.byteLength(JSON.stringify(entry)) + 1;
  }

  async submit(entries: readonly BatchEntry[], meta: { localId: number; nonce: string }): Promise<string> {
    const id = `simbatch_${randomUUID().replace(/-/g, '')}`;
    open.set(id, {
      entries: [...entries],
      nonce: meta.nonce,
      createdAt: Date.now(),
      turnaroundMs: this.turnaroundMs,
    });
    return id;
  }

  async find(lost: LostSubmit): Promise<string | null> {
    for (const [id, b] of open)
      if (b.nonce === lost.nonce && b.entries.length === lost.requestCount && !lost.taken(id)) return id;
    return null;
  }

  /** How many entries are done: they finish evenly over the turnaround, or stop at a cancel. */
  private finished(b: SimulatedBatch): number {
    const until = b.cancelledAt ?? Date.now();
    if (b.turnaroundMs <= 0) return b.cancelledAt === undefined ? b.entries.length : 0;
    const share = Math.min(1, Math.max(0, (until - b.createdAt) / b.turnaroundMs));
    return Math.floor(b.entries.length * share);
  }

  async poll(remoteId: string): Promise<RemoteBatchState> {
    const b = open.get(remoteId);
    if (!b)
      return {
        ended: true,
        status: 'failed',
        failedReason: 'a simulated batch ends with the app that made it; its requests are sent again',
      };
    const finished = this.finished(b);
    const total = b.entries.length;
    if (b.cancelledAt !== undefined) return { ended: true, status: 'cancelled', finished, total };
    return finished >= total
      ? { ended: true, status: 'completed', finished, total }
      : { ended: false, status: 'in_progress', finished, total };
  }

  async results(remoteId: string, specOf: SpecOf, onResult: (r: BatchEntryResult) => void): Promise<void> {
    const b = open.get(remoteId);
    if (!b) return;
    const done = this.finished(b);
    for (const [i, entry] of b.entries.entries()) {
      // The spec stored for the custom id, as a real batch's results are read against the store.
      const spec = specOf(entry.customId);
      if (!spec) continue;
      if (i >= done) {
        onResult({ customId: entry.customId, type: 'cancelled' });
        continue;
      }
      try {
        const { result } = await this.chat.send(spec);
        onResult({ customId: entry.customId, type: 'succeeded', result });
      } catch (err) {
        if (err instanceof ProviderError && err.kind === 'unparseable')
          onResult({ customId: entry.customId, type: 'unparseable', error: err });
        else
          onResult({
            customId: entry.customId,
            type: 'errored',
            kind: err instanceof ProviderError ? err.kind : 'server',
            message: (err as Error).message,
          });
      }
    }
  }

  async cancel(remoteId: string): Promise<void> {
    const b = open.get(remoteId);
    if (b && b.cancelledAt === undefined) b.cancelledAt = Date.now();
  }
}
