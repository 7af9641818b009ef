// The self-consistency config keys (README "Self-consistency", DESIGN.md section 5e) and the
// options resolved from them.
import { z } from 'zod';
import type { Order } from '../../../shared/protocols/self-consistency/types';
import { judgeEntrySchema, refineJudgeLabels, type ConfigIssue, type JudgeEntry } from '../../judging/config';
import type { BaseConfig } from '../plugin';

export const DEFAULT_REPEATS = 5;

export const selfConsistencyConfigShape = {
  judges: z.array(judgeEntrySchema).min(1),
  /** How many times each judge answers the same request (samples 0 … repeats − 1). */
  repeats: z.number().int().min(2).max(20).optional(),
  /** Temperatures to ask at, one condition each; default: each judge's own. */
  temperatures: z.array(z.number().min(0).max(2)).min(1).max(4).optional(),
  /** Pairwise data: the original order only, or both (A = output_1, then A = output_2). */
  orders: z.enum(['one', 'both']).optional(),
  /** Pointwise data: the score scale. */
  scale: z.union([z.literal(5), z.literal(10)]).optional(),
  /** Replaces the default pointwise rubric. */
  rubric: z.string().trim().min(1).max(4000).optional(),
};

/** The study's keys beside those every study's config has (`BaseConfig`). */
export interface SelfConsistencyConfig extends BaseConfig, Record<string, unknown> {
  judges: JudgeEntry[];
  repeats?: number;
  temperatures?: number[];
  orders?: 'one' | 'both';
  scale?: 5 | 10;
  rubric?: string;
}

/** One temperature condition: `own` asks each judge at its configured temperature. */
export interface Condition {
  id: string;
  /** null: each judge's own (its `temperature`, else the provider's default). */
  temperature: number | null;
}

export interface SelfConsistencyOptions {
  repeats: number;
  conditions: Condition[];
  orders: Order[];
  scale: 5 | 10;
  rubric: string | null;
}

export const OWN_CONDITION = 'own';
export const conditionId = (t: number) => `T=${t}`;

export function resolveSelfConsistencyOptions(config: SelfConsistencyConfig): SelfConsistencyOptions {
  return {
    repeats: config.repeats ?? DEFAULT_REPEATS,
    conditions: config.temperatures
      ? config.temperatures.map((t) => ({ id: conditionId(t), temperature: t }))
      : [{ id: OWN_CONDITION, temperature: null }],
    orders: (config.orders ?? 'both') === 'both' ? ['orig', 'swap'] : ['orig'],
    scale: config.scale ?? 5,
    rubric: config.rubric ?? null,
  };
}

export function refineSelfConsistencyConfig(cfg: SelfConsistencyConfig, issue: ConfigIssue): void {
  refineJudgeLabels(cfg.judges, issue);
  const temps = new Set<number>();
  cfg.temperatures?.forEach((t, i) => {
    if (temps.has(t)) issue(['temperatures', i], `temperature ${t} is listed twice`);
    temps.add(t);
  });
}

/** The temperature a judge is asked at in a condition (undefined: none sent, the provider's default). */
export function temperatureOf(judge: JudgeEntry, condition: Condition): number | undefined {
  if (condition.temperature !== null) return condition.temperature;
  return judge.temperature ?? undefined;
}
