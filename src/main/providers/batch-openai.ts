// OpenAI's Batch API through the official SDK: the requests go up as one JSONL file
// (purpose "batch"), the batch is polled, then its output and error files are read line by
// line. Each output body is a chat completion, parsed exactly as a live answer is.
import type OpenAI from 'openai';
import { resolvedBaseURL, type ProviderConfig } from './config';
import { classifyError, ProviderError } from './errors';
import { buildOpenAIRequest, openAIClient, openAIResult } from './openai';
import { loadOpenAISdk } from './sdk';
import {
  BatchNotCreated,
  LOOKUP_CLOCK_SLACK_MS,
  type BatchAdapter,
  type BatchEntry,
  type BatchEntryResult,
  type LostSubmit,
  type RemoteBatchState,
  type SpecOf,
} from './batch-types';
import type { ProviderErrorKind } from './types';

/** OpenAI's published limits per batch: 50,000 requests and a 200 MB input file. */
export const OPENAI_BATCH_LIMITS = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

const ENDED = new Set(['completed', 'expired', 'cancelled', 'failed']);

/** The kind of a failed entry, from its HTTP status (as for a live call). */
export function kindOfStatus(status: number | undefined): ProviderErrorKind {
  if (status === 400 || status === 422) return 'bad_request';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  return 'server';
}

/** Reads a response body line by line without holding the whole file as one string. */
export async function forEachLine(res: Response, onLine: (line: string) => void): Promise<void> {
  if (!res.body) {
    for (const line of (await res.text()).split('\n')) if (line.trim()) onLine(line);
    return;
  }
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    let nl = rest.indexOf('\n');
    while (nl >= 0) {
      const line = rest.slice(0, nl);
      if (line.trim()) onLine(line);
      rest = rest.slice(nl + 1);
      nl = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest.trim()) onLine(rest);
}

/** A line of an OpenAI Batch output file (and of `vllm run-batch`'s, whose `error` is a string). */
export interface OutputLine {
  custom_id: string;
  response?: { status_code: number; body: unknown } | null;
  error?: { code?: string; message?: string } | string | null;
}

export class OpenAIBatchAdapter implements BatchAdapter {
  readonly limits = OPENAI_BATCH_LIMITS;
  private clientMade: Promise<OpenAI> | undefined;
  private readonly baseURL: string;

  constructor(
    private readonly cfg: ProviderConfig,
    private readonly apiKey: string,
  ) {
    this.baseURL = resolvedBaseURL(cfg);
  }

  /** Uploads, creates and polls do not go through the queue: the SDK retries them itself. */
  private client(): Promise<OpenAI> {
    return (this.clientMade ??= openAIClient(this.cfg, this.apiKey, 2));
  }

  private line(entry: BatchEntry): string {
    return JSON.stringify({
      custom_id: entry.customId,
      method: 'POST',
      url: '/v1/chat/completions',
      body: buildOpenAIRequest(entry.spec, this.cfg, this.baseURL),
    });
  }

  entryBytes(entry: BatchEntry): number {
    return Buffer.byteLength(this.line(entry)) + 1;
  }

  async submit(entries: readonly BatchEntry[], meta: { localId: number; nonce: string }): Promise<string> {
    try {
      const jsonl = entries.map((e) => this.line(e)).join('\n') + '\n';
      let file: OpenAI.Files.FileObject;
      try {
        file = await (
          await this.client()
        ).files.create({
          file: await (
            await loadOpenAISdk()
          ).toFile(Buffer.from(jsonl, 'utf8'), `judge-lab-batch-${meta.localId}.jsonl`),
          purpose: 'batch',
        });
      } catch (err) {
        // No create was sent: there is no batch to look for.
        throw new BatchNotCreated(classifyError(err, this.apiKey));
      }
      // Never retried: a create whose answer was lost may have made a batch, and a second one
      // would pay twice. The executor looks such a batch up (find) before sending its rows again.
      const batch = await (
        await this.client()
      ).batches.create(
        {
          input_file_id: file.id,
          endpoint: '/v1/chat/completions',
          completion_window: '24h',
          // The nonce finds this batch again if the reply to this call is lost (see find()).
          metadata: { judge_lab_batch: String(meta.localId), judge_lab_nonce: meta.nonce },
        },
        { maxRetries: 0 },
      );
      return batch.id;
    } catch (err) {
      if (err instanceof BatchNotCreated) throw err;
      throw classifyError(err, this.apiKey);
    }
  }

  /**
   * Lists the key's batches, newest first, back to the submission record's time, for the one
   * whose metadata carries the nonce: an exact match, since the nonce is ours alone. (A file
   * uploaded for a create that failed stays in the account's storage; it costs nothing to run.)
   */
  async find(lost: LostSubmit): Promise<string | null> {
    try {
      for await (const b of (await this.client()).batches.list({ limit: 100 })) {
        if (b.created_at * 1000 < lost.createdAt - LOOKUP_CLOCK_SLACK_MS) break;
        const meta = b.metadata as Record<string, string> | null | undefined;
        if (meta?.judge_lab_nonce === lost.nonce && !lost.taken(b.id)) return b.id;
      }
      return null;
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }

  async poll(remoteId: string): Promise<RemoteBatchState> {
    let b: OpenAI.Batches.Batch;
    try {
      b = await (await this.client()).batches.retrieve(remoteId);
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
    const counts = b.request_counts;
    return {
      ended: ENDED.has(b.status),
      status: b.status,
      finished: counts ? counts.completed + counts.failed : undefined,
      total: counts?.total,
      failedReason:
        b.status === 'failed'
          ? (b.errors?.data ?? []).map((e) => e.message).join('; ') || 'the provider refused the batch'
          : undefined,
    };
  }

  async results(remoteId: string, specOf: SpecOf, onResult: (r: BatchEntryResult) => void): Promise<void> {
    let b: OpenAI.Batches.Batch;
    try {
      b = await (await this.client()).batches.retrieve(remoteId);
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
    for (const fileId of [b.output_file_id, b.error_file_id]) {
      if (!fileId) continue;
      let res: Response;
      try {
        res = await (await this.client()).files.content(fileId);
      } catch (err) {
        throw classifyError(err, this.apiKey);
      }
      await forEachLine(res, (line) => onResult(batchOutputEntry(JSON.parse(line) as OutputLine, specOf)));
    }
  }

  async cancel(remoteId: string): Promise<void> {
    try {
      await (await this.client()).batches.cancel(remoteId);
    } catch (err) {
      throw classifyError(err, this.apiKey);
    }
  }
}

/** What one output line says: an answer (parsed as a live one), an error, expired or cancelled. */
export function batchOutputEntry(line: OutputLine, specOf: SpecOf): BatchEntryResult {
  const customId = line.custom_id;
  if (typeof line.error === 'string' && line.error)
    return { customId, type: 'errored', kind: kindOfStatus(line.response?.status_code), message: line.error };
  if (line.error && typeof line.error === 'object') {
    const code = line.error.code ?? '';
    if (code === 'batch_expired') return { customId, type: 'expired' };
    if (code === 'batch_cancelled') return { customId, type: 'cancelled' };
    return { customId, type: 'errored', kind: 'server', message: line.error.message ?? code };
  }
  const r = line.response;
  if (!r || r.status_code !== 200) {
    const body = r?.body as { error?: { message?: string } } | undefined;
    return {
      customId,
      type: 'errored',
      kind: kindOfStatus(r?.status_code),
      message: `${r?.status_code ?? 'no response'}: ${body?.error?.message ?? 'the request failed in the batch'}`,
    };
  }
  const spec = specOf(customId);
  if (!spec)
    return { customId, type: 'errored', kind: 'bad_request', message: `unknown custom_id ${customId}` };
  try {
    return {
      customId,
      type: 'succeeded',
      result: openAIResult(r.body as OpenAI.Chat.Completions.ChatCompletion, spec),
    };
  } catch (err) {
    if (err instanceof ProviderError) return { customId, type: 'unparseable', error: err };
    throw err;
  }
}
