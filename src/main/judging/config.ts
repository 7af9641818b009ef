// The config entry of a model a study calls (a judge, and with its label optional a translator,
// generator or rewriter), the same in every protocol: who, where, how hot, how long, and limits of
// its own that override its endpoint's per-model limits (DESIGN.md section 7).
import { z } from 'zod';
import { rateLimitSchema } from '../providers/rate-limit-schema';

/** rpm/tpm/concurrency on a provider, or on one model entry (which overrides its provider's). */
export const modelLimits = {
  rpm: rateLimitSchema('rpm').optional(),
  tpm: rateLimitSchema('tpm').optional(),
  concurrency: z.number().int().positive().max(1024).optional(),
};

/** A model without a label (its role names it). */
export const modelEntryFields = {
  provider: z.string().min(1),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).nullable().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  ...modelLimits,
};

/** A judge (or any model the metrics name by its label). */
export const judgeEntrySchema = z.strictObject({
  label: z.string().trim().min(1).max(100),
  ...modelEntryFields,
});

export type JudgeEntry = z.output<typeof judgeEntrySchema>;

/** How a study's config refinement reports a problem at a path of the config. */
export type ConfigIssue = (path: (string | number)[], message: string) => void;

/** Each judge's label at most once: tables, metrics and the verdict browser name a judge by it. */
export function refineJudgeLabels(judges: readonly { label: string }[], issue: ConfigIssue): void {
  const seen = new Set<string>();
  judges.forEach((j, i) => {
    if (seen.has(j.label)) issue(['judges', i, 'label'], `duplicate judge label "${j.label}"`);
    seen.add(j.label);
  });
}
