// Planning: every judge answers every question (item × order) `repeats` times per condition,
// each repeat the same request with its own `sample` index (its own ledger row, paid once).
import type { Mode, Order } from '../../../shared/protocols/self-consistency/types';
import { NO_ORDER } from '../../../shared/protocols/self-consistency/types';
import type { JudgeEntry } from '../../judging/config';
import { shownPair } from '../../judging/order';
import { PAIRWISE_VERDICT_SCHEMA } from '../../judging/pairwise';
import { SCORE_VERDICT_SCHEMA } from '../../judging/score';
import { taskKey, type ProtocolTask } from '../types';
import { temperatureOf, type SelfConsistencyOptions } from './config';
import type { ScItem } from './item';
import { pairwiseUserPrompt, scoreUserPrompt } from '../../judging/prompts';
import { PAIRWISE_SYSTEM, scoreSystem } from './prompts';

export const JUDGE_MAX_TOKENS = 400;

export interface RepeatMeta {
  judge: string;
  condition: string;
  /** The temperature sent; null when none was (the provider's default). */
  temperature: number | null;
  itemId: number;
  sourceId: string;
  category: string;
  mode: Mode;
  /** Pairwise: orig (A = output_1) or swap; pointwise: '-'. */
  order: Order | typeof NO_ORDER;
  sample: number;
  /** The score scale asked for (pointwise), which the parser checks against. */
  scale: number;
}

export function planRepeats(
  items: readonly ScItem[],
  judges: readonly JudgeEntry[],
  opts: SelfConsistencyOptions,
  mode: Mode,
): ProtocolTask<'judge', RepeatMeta>[] {
  const tasks: ProtocolTask<'judge', RepeatMeta>[] = [];
  const orders: (Order | typeof NO_ORDER)[] = mode === 'pairwise' ? opts.orders : [NO_ORDER];
  for (const condition of opts.conditions)
    for (const j of judges) {
      const temperature = temperatureOf(j, condition);
      for (const item of items)
        for (const order of orders) {
          const content =
            mode === 'pairwise'
              ? pairwiseUserPrompt(
                  item.instruction,
                  ...shownPair(order as Order, item.texts[0], item.texts[1]),
                )
              : scoreUserPrompt(item.instruction, item.texts[0], opts.scale);
          for (let sample = 0; sample < opts.repeats; sample++)
            tasks.push({
              key: taskKey(j.label, condition.id, item.sourceId, order, sample),
              stage: 'judge',
              meta: {
                judge: j.label,
                condition: condition.id,
                temperature: temperature ?? null,
                itemId: item.id,
                sourceId: item.sourceId,
                category: item.category,
                mode,
                order,
                sample,
                scale: opts.scale,
              },
              request: {
                provider: j.provider,
                model: j.model,
                system: mode === 'pairwise' ? PAIRWISE_SYSTEM : scoreSystem(opts.scale, opts.rubric),
                messages: [{ role: 'user', content }],
                ...(temperature === undefined ? {} : { temperature }),
                maxOutputTokens: j.maxOutputTokens ?? JUDGE_MAX_TOKENS,
                response: mode === 'pairwise' ? PAIRWISE_VERDICT_SCHEMA : SCORE_VERDICT_SCHEMA,
                // The same question again: sample 0 may be a stored answer of any earlier study,
                // samples 1 … K − 1 are asked (and paid) once each, never answered from sample 0.
                ...(sample > 0 ? { sample } : {}),
              },
            });
        }
    }
  return tasks;
}
