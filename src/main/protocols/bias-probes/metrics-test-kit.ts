// Judge results as the bias-probes metrics tests hand-make them: one judge "J", pairwise
// verdicts given per item and variant in both orders, so a fixture reads as the table of
// choices its comment works out by hand.
import type { TaskResult } from '../plugin';
import type { BiasOptions } from './config';
import type { BiasItem } from './item';
import { computeBiasMetrics } from './metrics';
import type { JudgeMeta } from './plan';

let n = 0;

/** One judge answer of "J" stored as ok; `meta` names the request, the rest is the default. */
export function judgeResult(
  meta: Partial<JudgeMeta> & Pick<JudgeMeta, 'sourceId' | 'mode' | 'condition'>,
  value: unknown,
): TaskResult {
  const full: JudgeMeta = {
    judge: 'J',
    itemId: 0,
    category: null,
    slot: null,
    shown: null,
    order: null,
    scale: 5,
    ...meta,
  };
  return {
    key: `k${n++}`,
    stage: 'judge',
    meta: full,
    requestId: n,
    status: 'ok',
    value,
    reason: null,
    attempts: 1,
  } as TaskResult;
}

type Winner = 'A' | 'B' | 'tie';

/** The raw winner letters of one pairwise item and variant: [original order, swapped order]. */
export function bothOrders(
  sourceId: string,
  condition: JudgeMeta['condition'],
  [orig, swap]: [Winner, Winner],
): TaskResult[] {
  return (
    [
      ['orig', orig],
      ['swap', swap],
    ] as const
  ).map(([order, winner]) =>
    judgeResult({ sourceId, mode: 'pairwise', condition, order }, { winner, confidence: null, reason: '' }),
  );
}

/** The metrics of judge "J" alone, with no usage recorded. */
export function metricsOfJ(opts: BiasOptions, items: BiasItem[], results: TaskResult[]) {
  return computeBiasMetrics({ opts, judges: ['J'], items, results, usage: [] });
}
