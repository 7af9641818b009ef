// Pending rows into new batches: grouped per provider + model, split within the provider's
// limits, each batch recorded and its rows claimed in the ledger before the provider is told
// (createLocalBatch), so a batch survives quitting and is polled, never paid for twice.
import { BatchNotCreated, type BatchEntry } from '../../providers/batch-types';
import { endpointId, missingKeyMessage } from '../../providers/config';
import { classifyError } from '../../providers/errors';
import type { ProviderErrorKind } from '../../providers/types';
import { createLocalBatch, customIdOf } from '../../store/batches';
import { failUnsent, getRequests, specFromStored } from '../../store/ledger';
import { BLOCKING, laneKey, type BatchContext } from './context';
import { inDoubt, notSent, opened } from './reconcile';
import { planBatches } from './split';

/** Consecutive failed submits (server, connection) of one provider before its batches stop. */
const MAX_SUBMIT_FAILURES = 5;
/** Kinds after which the provider may have made the batch though no reply came back. */
const IN_DOUBT: ReadonlySet<ProviderErrorKind> = new Set(['connection', 'timeout', 'server']);

export class Submitter {
  /** Failed submits in a row per provider. */
  private readonly failures = new Map<string, number>();

  constructor(private readonly ctx: BatchContext) {}

  async submit(pending: readonly number[], providerOf: ReadonlyMap<number, string>): Promise<void> {
    const { ctx } = this;
    if (!pending.length) return;
    const rows = getRequests(ctx.db, pending);
    const byLane = new Map<string, { provider: string; model: string; ids: number[] }>();
    for (const id of pending) {
      const row = rows.get(id)!;
      const provider = providerOf.get(id)!;
      const key = laneKey(provider, row.model);
      if (ctx.blocked.has(key)) continue;
      let lane = byLane.get(key);
      if (!lane) byLane.set(key, (lane = { provider, model: row.model, ids: [] }));
      lane.ids.push(id);
    }
    for (const { provider, model, ids } of byLane.values()) {
      const adapter = ctx.adapter(provider);
      const cfg = ctx.opts.providers[provider];
      if (!adapter) {
        ctx.block(
          provider,
          model,
          'auth',
          cfg ? missingKeyMessage(provider, cfg, ctx.opts.keys) : `No provider "${provider}".`,
        );
        continue;
      }
      // Sized with a nonce of the real length; the batch's own nonce replaces it once recorded.
      const entries: (BatchEntry & { id: number })[] = ids.map((id) => ({
        id,
        customId: customIdOf(id, '0'.repeat(12)),
        spec: specFromStored(rows.get(id)!.requestJson, provider),
      }));
      const limits = { ...adapter.limits, ...ctx.opts.limits };
      const bytes = new Map(entries.map((e) => [e.id, adapter.entryBytes(e)]));
      // A request bigger than a whole batch may be can never go in one: it fails, the rest go.
      const tooBig = entries.filter((e) => bytes.get(e.id)! > limits.maxBytes);
      if (tooBig.length) {
        const reason = `bad_request: the request is larger than ${limits.maxBytes} bytes, the provider's batch limit`;
        const written = failUnsent(
          ctx.db,
          tooBig.map((e) => e.id),
          reason,
          null,
        );
        ctx.tally.failed('bad_request', written.length);
      }
      const fits = entries.filter((e) => bytes.get(e.id)! <= limits.maxBytes);
      for (const chunk of planBatches(fits, (e) => bytes.get(e.id)!, limits)) {
        if (ctx.isBlocked(provider, model)) break;
        const { batch, claimed } = createLocalBatch(ctx.db, {
          provider,
          endpoint: endpointId(cfg, provider),
          model,
          requestIds: chunk.map((e) => e.id),
        });
        if (!batch) continue;
        const claimedSet = new Set(claimed);
        const t0 = performance.now();
        try {
          const remoteId = await adapter.submit(
            chunk
              .filter((e) => claimedSet.has(e.id))
              .map((e) => ({ ...e, customId: customIdOf(e.id, batch.nonce) })),
            { localId: batch.id, nonce: batch.nonce! },
          );
          ctx.tally.called();
          ctx.stats.submitMs += performance.now() - t0;
          ctx.stats.submitted += claimed.length;
          opened(ctx, batch.id, remoteId);
          this.failures.delete(provider);
          ctx.opts.logger?.info(`batch ${batch.id} (${remoteId}): ${claimed.length} requests to ${model}`);
        } catch (err) {
          const notCreated = err instanceof BatchNotCreated;
          const e = classifyError(err);
          if (!notCreated && IN_DOUBT.has(e.kind)) {
            // The provider may have accepted it: look for it (poll.ts) before sending again.
            inDoubt(ctx, batch.id);
            ctx.opts.logger?.warn(
              `batch ${batch.id} to ${model}: no reply to the create (${e.message}); looking for it before submitting again`,
            );
            break;
          }
          notSent(ctx, batch.id, `${e.kind}: ${e.message}`);
          const n = (this.failures.get(provider) ?? 0) + 1;
          this.failures.set(provider, n);
          if (BLOCKING.has(e.kind) || n >= MAX_SUBMIT_FAILURES)
            ctx.block(provider, model, e.kind, `Batch submit to ${model} failed: ${e.message}`);
          ctx.opts.logger?.warn(`batch submit to ${model} failed: ${e.message}`);
          break;
        }
      }
    }
  }
}
