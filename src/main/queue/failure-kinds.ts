// Why a call ended failed, in two families: the model answered but its answer could not be
// used (asked again, then recorded with its raw text), or the call never got a usable
// reply from the service (unreachable, timeouts, 5xx, rate limits, keys, quota, rejected
// requests). The second family is worth sending again once the cause is gone.

/**
 * Failure kinds about the answer itself: unusable, or (recorded provider) absent from the file,
 * which sending again cannot fix either.
 */
const ANSWER_KINDS = new Set(['unparseable', 'not_recorded']);

export function isInfrastructureFailure(kind: string): boolean {
  return !ANSWER_KINDS.has(kind);
}

/** Failed calls per kind split into the two families. */
export function splitFailures(byKind: Record<string, number>): {
  infrastructure: [string, number][];
  answers: [string, number][];
} {
  const entries = Object.entries(byKind).filter(([, n]) => n > 0);
  return {
    infrastructure: entries.filter(([k]) => isInfrastructureFailure(k)),
    answers: entries.filter(([k]) => !isInfrastructureFailure(k)),
  };
}
