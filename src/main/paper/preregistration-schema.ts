// The preregistration plan's schema (shared/DESIGN.md §2: the config key `preregistration`, and
// the lock form's payload). Strict: a misspelt key is an error naming it. Which comparison ids
// exist is the experiment's power plan's to say (checked when the plan is locked).
import { z } from 'zod';
import { PREREG_CORRECTIONS, type PreregistrationPlan } from '../../shared/paper/preregistration';

export const DEFAULT_PREREG_ALPHA = 0.05;
const TEXT_LIMIT = 20_000;

const planShape = {
  confirmatory: z.array(z.string().trim().min(1).max(200)).min(1).max(100),
  primary: z.string().trim().min(1).max(200).optional(),
  hypotheses: z.string().trim().min(1).max(TEXT_LIMIT).optional(),
  alpha: z.number().gt(0).max(0.5).optional(),
  correction: z.enum(PREREG_CORRECTIONS).optional(),
  exclusions: z.string().trim().min(1, 'state the exclusion rule (e.g. "none")').max(TEXT_LIMIT),
  stopping: z.string().trim().min(1, 'state the stopping rule (e.g. "all planned items")').max(TEXT_LIMIT),
};

type PlanInput = z.infer<z.ZodObject<typeof planShape>>;

function refinePlan(plan: PlanInput, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  plan.confirmatory.forEach((id, i) => {
    if (seen.has(id))
      ctx.addIssue({ code: 'custom', path: ['confirmatory', i], message: `"${id}" twice`, params: { id } });
    seen.add(id);
  });
  if (plan.primary !== undefined && !seen.has(plan.primary))
    ctx.addIssue({ code: 'custom', path: ['primary'], message: 'must be one of "confirmatory"' });
}

/** The plan as the lock form sends it. */
export const preregistrationPlanSchema = z.strictObject(planShape).superRefine(refinePlan);

/**
 * The config's `preregistration`: the plan, plus `amendment` — why a changed plan supersedes the
 * one locked before (a locked plan is never replaced silently).
 */
export const preregistrationConfigSchema = z
  .strictObject({ ...planShape, amendment: z.string().trim().min(1).max(TEXT_LIMIT).optional() })
  .superRefine(refinePlan);

/** The plan with its defaults filled in (α 0.05, Holm, the first comparison primary), as locked. */
export function completePlan(input: PlanInput): PreregistrationPlan {
  return {
    confirmatory: [...input.confirmatory],
    primary: input.primary ?? input.confirmatory[0],
    ...(input.hypotheses !== undefined ? { hypotheses: input.hypotheses } : {}),
    alpha: input.alpha ?? DEFAULT_PREREG_ALPHA,
    correction: input.correction ?? 'holm',
    exclusions: input.exclusions,
    stopping: input.stopping,
  };
}
