// The lock form's state, its checks before the core is asked, and the core's field names mapped
// back onto the form's fields (the core names them "plan.alpha", "plan.confirmatory[0]", "reason").
import type { PreregCorrection, PreregistrationPlan } from '../../../shared/paper/preregistration';
import type { InputIssue } from '../../../shared/domain';

export const FORM_FIELDS = [
  'confirmatory',
  'primary',
  'hypotheses',
  'alpha',
  'correction',
  'exclusions',
  'stopping',
  'reason',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

export interface PlanDraft {
  confirmatory: string[];
  primary: string;
  hypotheses: string;
  alpha: string;
  correction: PreregCorrection;
  exclusions: string;
  stopping: string;
  reason: string;
}

export function draftOf(plan: PreregistrationPlan | null): PlanDraft {
  return {
    confirmatory: plan ? [...plan.confirmatory] : [],
    primary: plan?.primary ?? '',
    hypotheses: plan?.hypotheses ?? '',
    alpha: String(plan?.alpha ?? 0.05),
    correction: plan?.correction ?? 'holm',
    exclusions: plan?.exclusions ?? '',
    stopping: plan?.stopping ?? '',
    reason: '',
  };
}

/** The fields a draft leaves wrong (each maps to `errors.<field>`); empty: ready to send. */
export function checkDraft(d: PlanDraft, needsReason: boolean): FormField[] {
  const bad: FormField[] = [];
  if (d.confirmatory.length === 0) bad.push('confirmatory');
  if (d.primary && !d.confirmatory.includes(d.primary)) bad.push('primary');
  const alpha = Number(d.alpha);
  if (d.alpha.trim() === '' || !Number.isFinite(alpha) || alpha <= 0 || alpha > 0.5) bad.push('alpha');
  if (!d.exclusions.trim()) bad.push('exclusions');
  if (!d.stopping.trim()) bad.push('stopping');
  if (needsReason && !d.reason.trim()) bad.push('reason');
  return bad;
}

/** The plan the core's `experiments.preregister` takes. */
export function planOf(d: PlanDraft): Record<string, unknown> {
  return {
    confirmatory: d.confirmatory,
    ...(d.primary ? { primary: d.primary } : {}),
    ...(d.hypotheses.trim() ? { hypotheses: d.hypotheses.trim() } : {}),
    alpha: Number(d.alpha),
    correction: d.correction,
    exclusions: d.exclusions.trim(),
    stopping: d.stopping.trim(),
  };
}

/**
 * The form field a core issue names ("plan.confirmatory[1]", or from a config at create
 * "preregistration.confirmatory[1]" → confirmatory), or null.
 */
export function fieldOfIssue(issue: InputIssue): FormField | null {
  const path = (issue.field ?? '').replace(/^(plan|preregistration)\./, '');
  const head = path.split(/[.[]/)[0];
  return (FORM_FIELDS as readonly string[]).includes(head) ? (head as FormField) : null;
}
