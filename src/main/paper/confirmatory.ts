// The rows a lock's confirmatory comparisons read, asked of the protocol (`PowerHooks.reads`) for
// the metrics at hand: what `markConfirmatory` (src/shared/paper/confirmatory.ts) marks in the
// tables. Protocol-neutral. A comparison the protocol maps to no row (the generic human
// agreement, whose report is the agreement page; a protocol without `reads`) marks nothing.
import type { ConfirmatoryMarks } from '../../shared/paper/confirmatory';
import type { PreregistrationLock } from '../../shared/paper/preregistration';
import type { ProtocolPlugin } from '../protocols/plugin';

export function confirmatoryMarks(
  protocol: Pick<ProtocolPlugin, 'power'>,
  metrics: unknown,
  lock: Pick<PreregistrationLock, 'version' | 'plan'> | null | undefined,
): ConfirmatoryMarks | null {
  if (!lock) return null;
  return {
    version: lock.version,
    reads: lock.plan.confirmatory.map((comparison) => ({
      comparison,
      rows: protocol.power?.reads?.(comparison, metrics) ?? [],
    })),
  };
}
