// Outcomes into the ledger with what the caller stores beside them (the parsed values: the
// results store), in one transaction: the live engine's group commit and the batch executor's
// result chunks both write through here, so an answer is never stored without its result.
import type { Database } from '../store/db';
import { applyCompletions, type Completion, type CompletionResult } from '../store/ledger';
import type { StoredOutcome } from './engine-types';

/** A completion, and the value read from its answer (final outcomes only). */
export interface OutcomeWrite {
  c: Completion;
  value?: unknown;
}

/**
 * Writes the completions under `owner`'s lease and hands the final ones the ledger took to
 * `store` in the same transaction; returns the completions it refused (no longer ours).
 */
export function storeOutcomes(
  db: Database,
  writes: readonly OutcomeWrite[],
  owner: string | null,
  store: ((outcomes: StoredOutcome[]) => void) | undefined,
): CompletionResult['skipped'] {
  const completions = writes.map((w) => w.c);
  if (!store) return applyCompletions(db, completions, owner).skipped;
  return db.transaction(() => {
    const { skipped } = applyCompletions(db, completions, owner);
    const refused = new Set(skipped.map((s) => s.completion.id));
    const outcomes: StoredOutcome[] = [];
    for (const { c, value } of writes) {
      if (refused.has(c.id) || (c.status !== 'done' && c.status !== 'failed')) continue;
      outcomes.push({
        requestId: c.id,
        status: c.status,
        value,
        reason: c.status === 'failed' ? c.reason : null,
      });
    }
    if (outcomes.length) store(outcomes);
    return skipped;
  })();
}
