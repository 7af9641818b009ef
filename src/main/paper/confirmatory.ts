// The rows a lock's confirmatory comparisons read, asked of the protocol (`PowerHooks.reads`) for
// the metrics at hand: what `markConfirmatory` (src/shared/paper/confirmatory.ts) marks in the
// tables. Protocol-neutral. A comparison the protocol maps to no row (the generic human
// agreement, whose report is the agreement page; a protocol without `reads`) marks nothing.
import type { ConfirmatoryMarks } from '../../shared/paper/confirmatory';
import { lockedAfterData, type PreregistrationLock } from '../../shared/paper/preregistration';
import type { ProtocolPlugin } from '../protocols/plugin';

export function confirmatoryMarks(
  protocol: Pick<ProtocolPlugin, 'power'>,
  metrics: unknown,
  /** Every lock, oldest first: the newest is in force, the first tells whether data came first. */
  locks: readonly PreregistrationLock[],
): ConfirmatoryMarks | null {
  const lock = locks.at(-1);
  if (!lock) return null;
  const late = lockedAfterData(locks);
  return {
    version: lock.version,
    ...(late ? { afterData: late.answers } : {}),
    reads: lock.plan.confirmatory.map((comparison) => ({
      comparison,
      rows: protocol.power?.reads?.(comparison, metrics) ?? [],
    })),
  };
}
