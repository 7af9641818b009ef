// Anthropic's Message Batches through the official SDK: requests go up in one call with
// their params (the same body a live call sends), the batch is polled, then its results
// stream is read. A succeeded entry holds a message, parsed exactly as a live answer is.
import Anthropic from '@anthropic-ai/sdk';
import { buildAnthropicRequest, anthropicResult } from './anthropic';
import type { BatchAdapter, BatchEntry, BatchEntryResult, RemoteBatchState, SpecOf } from './batch-types';
import { DEFAULT_TIMEOUT_MS, resolvedBaseURL, type ProviderConfig } from './config';
import { classifyError, ProviderError } from './errors';
import { keepAliveFetch } from './http-fetch';
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
  private readonly client: Anthropic;

  constructor(
    private readonly cfg: ProviderConfig,
    private readonly apiKey: string,
  ) {
    this.client = new Anthropic({
      apiKey,
      authToken: null,
      baseURL: resolvedBaseURL(cfg),
      maxRetries: 2,
      timeout: cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: keepAliveFetch,
    });
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
      const b = await this.client.messages.batches.create(
        { requests: entries.map((e) => this.request(e)) },
        { maxRetries: 0 },
      );
      return b.id;
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }

  async poll(remoteId: string): Promise<RemoteBatchState> {
    let b: Anthropic.Messages.MessageBatch;
    try {
      b = await this.client.messages.batches.retrieve(remoteId);
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
      const stream = await this.client.messages.batches.results(remoteId);
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
      await this.client.messages.batches.cancel(remoteId);
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }
}
