// Anthropic's Message Batches through the official SDK: requests go up in one call with
// their params (the same body a live call sends), the batch is polled, then its results
// stream is read. A succeeded entry holds a message, parsed exactly as a live answer is.
import type Anthropic from '@anthropic-ai/sdk';
import { anthropicClient, buildAnthropicRequest, anthropicResult } from './anthropic';
import {
  LOOKUP_CLOCK_SLACK_MS,
  type BatchAdapter,
  type BatchEntry,
  type BatchEntryResult,
  type LostSubmit,
  type RemoteBatchState,
  type SpecOf,
} from './batch-types';
import type { ProviderConfig } from './config';
import { classifyError, ProviderError } from './errors';
import type { ProviderErrorKind } from './types';

/** Anthropic's published limits per batch: 100,000 requests or 256 MB, whichever comes first. */
export const ANTHROPIC_BATCH_LIMITS = { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 };

function kindOfErrorType(type: string | undefined): ProviderErrorKind {
  switch (type) {
    case 'invalid_request_error':
      return 'bad_request';
    case 'authentication_error':
    case 'permission_error':
      return 'auth';
    case 'not_found_error':
      return 'not_found';
    case 'rate_limit_error':
      return 'rate_limited';
    default:
      return 'server';
  }
}

export class AnthropicBatchAdapter implements BatchAdapter {
  readonly limits = ANTHROPIC_BATCH_LIMITS;
  private clientMade: Promise<Anthropic> | undefined;

  constructor(
    private readonly cfg: ProviderConfig,
    private readonly apiKey: string,
  ) {}

  /** Creates, polls and result streams do not go through the queue: the SDK retries them itself. */
  private client(): Promise<Anthropic> {
    return (this.clientMade ??= anthropicClient(this.cfg, this.apiKey, 2));
  }

  private request(entry: BatchEntry) {
    return { custom_id: entry.customId, params: buildAnthropicRequest(entry.spec, this.cfg) };
  }

  entryBytes(entry: BatchEntry): number {
    return Buffer.byteLength(JSON.stringify(this.request(entry))) + 1;
  }

  async submit(entries: readonly BatchEntry[]): Promise<string> {
    try {
      // Never retried: a create whose answer was lost may have made a batch (paid twice if sent again).
      const b = await (
        await this.client()
      ).messages.batches.create({ requests: entries.map((e) => this.request(e)) }, { maxRetries: 0 });
      return b.id;
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }

  /**
   * Message Batches carry no metadata, and their requests can be read only once the batch has
   * ended. So: list the key's batches, newest first, back to the submission record's time;
   * a candidate has exactly our request count and is no other local batch's. An ended
   * candidate is verified by its results (our custom ids end in `_<nonce>`); one still
   * processing is taken on the count and time alone. If that guess is wrong (another client
   * on the same key made a batch of the same size in those minutes), its results carry no
   * custom id of ours: nothing of it is stored, our requests go back to pending when it ends
   * and are submitted again, so the cost of a wrong guess is time and one more batch, never
   * a wrong answer.
   */
  async find(lost: LostSubmit): Promise<string | null> {
    try {
      const candidates: Anthropic.Messages.MessageBatch[] = [];
      for await (const b of (await this.client()).messages.batches.list({ limit: 100 })) {
        if (Date.parse(b.created_at) < lost.createdAt - LOOKUP_CLOCK_SLACK_MS) break;
        const c = b.request_counts;
        const total = c.processing + c.succeeded + c.errored + c.canceled + c.expired;
        if (total === lost.requestCount && !lost.taken(b.id)) candidates.push(b);
      }
      // Oldest first: two lost creates of the same size are matched in the order they were made.
      for (const b of candidates.reverse()) {
        if (b.processing_status !== 'ended') return b.id;
        if (await this.carriesNonce(b.id, lost.nonce)) return b.id;
      }
      return null;
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }

  /** Whether an ended batch's first result has one of our custom ids (the rest are alike). */
  private async carriesNonce(remoteId: string, nonce: string): Promise<boolean> {
    const stream = await (await this.client()).messages.batches.results(remoteId);
    for await (const line of stream) return line.custom_id.endsWith(`_${nonce}`);
    return false;
  }

  async poll(remoteId: string): Promise<RemoteBatchState> {
    let b: Anthropic.Messages.MessageBatch;
    try {
      b = await (await this.client()).messages.batches.retrieve(remoteId);
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
    const c = b.request_counts;
    const finished = c.succeeded + c.errored + c.canceled + c.expired;
    return {
      ended: b.processing_status === 'ended',
      status: b.processing_status,
      finished,
      total: finished + c.processing,
    };
  }

  async results(remoteId: string, specOf: SpecOf, onResult: (r: BatchEntryResult) => void): Promise<void> {
    try {
      const stream = await (await this.client()).messages.batches.results(remoteId);
      for await (const line of stream) onResult(this.entryOf(line, specOf));
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }

  private entryOf(line: Anthropic.Messages.MessageBatchIndividualResponse, specOf: SpecOf): BatchEntryResult {
    const customId = line.custom_id;
    const r = line.result;
    if (r.type === 'expired') return { customId, type: 'expired' };
    if (r.type === 'canceled') return { customId, type: 'cancelled' };
    if (r.type === 'errored') {
      const e = r.error?.error as { type?: string; message?: string } | undefined;
      return {
        customId,
        type: 'errored',
        kind: kindOfErrorType(e?.type),
        message: e?.message ?? 'the request failed in the batch',
      };
    }
    const spec = specOf(customId);
    if (!spec)
      return { customId, type: 'errored', kind: 'bad_request', message: `unknown custom_id ${customId}` };
    try {
      return { customId, type: 'succeeded', result: anthropicResult(r.message, spec, this.cfg) };
    } catch (err) {
      if (err instanceof ProviderError) return { customId, type: 'unparseable', error: err };
      throw err;
    }
  }

  async cancel(remoteId: string): Promise<void> {
    try {
      await (await this.client()).messages.batches.cancel(remoteId);
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }
}
