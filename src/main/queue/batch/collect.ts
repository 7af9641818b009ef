// An ended batch's results, read once: each entry is decided as it streams in (stored with the
// value read from its answer, asked again, sent live, or failed) and written in chunks with its
// parsed value (reconcile.ts). The stage's parser runs once per answer, here; nothing parses
// the stored answer again.
import type { BatchAdapter, BatchEntryResult } from '../../providers/batch-types';
import { specFromStored } from '../../store/ledger';
import type { ChatRequestSpec, ChatResult, ProviderErrorKind, Usage } from '../../providers/types';
import { heldRequests, type LocalBatch } from '../../store/batches';
import type { ReadAnswer } from '../engine-types';
import type { OutcomeWrite } from '../outcome-store';
import type { BatchContext } from './context';
import { storeChunk } from './reconcile';
import type { BatchReadOptions } from './types';

/** Kinds that another try cannot fix: the entry fails at once. */
const PERMANENT: ReadonlySet<ProviderErrorKind> = new Set(['bad_request', 'auth', 'not_found']);
/** Completions are written in chunks of this size while results stream in. */
const WRITE_CHUNK = 500;

const ZERO = (): Usage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

type Row = ReturnType<typeof heldRequests>[number];

/** The one reading of an answer: the caller's `read`, else its `validate` (no value). */
export function answerReader(
  opts: BatchReadOptions,
): (spec: ChatRequestSpec, result: ChatResult, requestId: number) => ReadAnswer {
  const { read, validate } = opts;
  if (read) return (_spec, result, id) => read(result, id);
  return (spec, result, id) => {
    const error = validate?.(spec, result, id) ?? null;
    return error === null ? { ok: true, value: undefined } : { ok: false, error };
  };
}

export class ResultCollector {
  /** Answers found unusable per request, across this run's batches (re-asks count up to maxParseRetries). */
  private readonly parseTries = new Map<number, number>();
  private readonly readAnswer: ReturnType<typeof answerReader>;

  constructor(
    private readonly ctx: BatchContext,
    private readonly opts: BatchReadOptions,
  ) {
    this.readAnswer = answerReader(opts);
  }

  /** Reads every result of the ended batch and stores each entry the batch still holds. */
  async collect(b: LocalBatch, adapter: BatchAdapter): Promise<void> {
    const { ctx } = this;
    const held = new Map(heldRequests(ctx.db, b.id).map((r) => [r.customId, r]));
    const specs = new Map<string, ChatRequestSpec>();
    const specOf = (customId: string) => {
      const r = held.get(customId);
      if (!r) return undefined;
      let s = specs.get(customId);
      if (!s) specs.set(customId, (s = specFromStored(r.requestJson, b.provider)));
      return s;
    };
    const fallback = ctx.opts.providers[b.provider]?.batchFallback ?? 'resubmit';
    let out: OutcomeWrite[] = [];
    const handle = (r: BatchEntryResult) => {
      const row = held.get(r.customId);
      if (!row) return; // not ours any more (stored already, or taken over)
      held.delete(r.customId);
      ctx.stats.ingested++;
      out.push(this.decide(row, r, () => specOf(r.customId)!, fallback));
      if (out.length >= WRITE_CHUNK) {
        storeChunk(ctx, b, out, this.opts.storeOutcomes);
        out = [];
      }
    };
    await adapter.results(b.remoteId!, specOf, handle);
    storeChunk(ctx, b, out, this.opts.storeOutcomes);
  }

  /** What one entry comes to. */
  private decide(
    row: Row,
    r: BatchEntryResult,
    spec: () => ChatRequestSpec,
    fallback: 'resubmit' | 'live',
  ): OutcomeWrite {
    const { ctx } = this;
    if (r.type === 'succeeded') {
      const answer = this.readAnswer(spec(), r.result, row.id);
      if (!answer.ok) return this.unusable(row, answer.error, r.result.text, r.result.usage);
      if (r.result.readFromCutOff) ctx.tally.cutOffRead();
      return {
        c: {
          id: row.id,
          status: 'done',
          text: r.result.text,
          json: r.result.json,
          usage: r.result.usage,
          costUsd: ctx.tally.spent(row.model, r.result.usage),
          extraAttempts: 0,
        },
        value: answer.value,
      };
    }
    if (r.type === 'unparseable')
      return this.unusable(row, r.error.message, r.error.rawText ?? null, r.error.usage ?? ZERO());
    if (r.type === 'errored' && PERMANENT.has(r.kind))
      return this.failed(row, r.kind, r.message, null, ZERO());
    // We cancelled it: back to pending, nothing used up.
    if (ctx.mode() !== 'running' && r.type === 'cancelled') return this.again(row, ZERO(), false);
    const kind = r.type === 'errored' ? r.kind : r.type;
    if (row.attempts >= ctx.policy.maxAttempts)
      return this.failed(
        row,
        kind,
        `${r.type === 'errored' ? r.message : r.type} (gave up after ${row.attempts} batches)`,
        null,
        ZERO(),
      );
    return this.again(row, ZERO(), fallback === 'live');
  }

  private failed(row: Row, kind: string, message: string, text: string | null, usage: Usage): OutcomeWrite {
    this.ctx.tally.failed(kind);
    return {
      c: {
        id: row.id,
        status: 'failed',
        reason: `${kind}: ${message}`,
        text,
        usage,
        costUsd: this.ctx.tally.spent(row.model, usage),
        extraAttempts: 0,
      },
    };
  }

  /** Back to pending: into a new batch, or (`toLive`) to the live engine. */
  private again(row: Row, usage: Usage, toLive: boolean): OutcomeWrite {
    this.ctx.tally.retried();
    if (toLive) this.ctx.live.add(row.id);
    return {
      c: {
        id: row.id,
        status: 'pending',
        usage,
        costUsd: this.ctx.tally.spent(row.model, usage),
        extraAttempts: 0,
      },
    };
  }

  private unusable(row: Row, reason: string, text: string | null, usage: Usage): OutcomeWrite {
    const n = (this.parseTries.get(row.id) ?? 0) + 1;
    this.parseTries.set(row.id, n);
    if (n > this.ctx.policy.maxParseRetries)
      return this.failed(row, 'unparseable', `${reason} (asked ${n} times)`, text, usage);
    return this.again(row, usage, false);
  }
}
