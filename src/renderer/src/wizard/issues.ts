import { useTranslation } from 'react-i18next';
import { stepOfField, validateStep, type StepId } from '../lib/experiment-config';
import { useWizard } from '../stores/wizard';
import { useWizardNamespaces } from './steps';

export interface ShownIssue {
  field: string;
  message: string;
}

/**
 * Every problem that belongs to a step: the wizard's own checks (after Next was pressed;
 * live on the summary, which has no Next and whose price fields must be checked as typed)
 * and the core's verdict on the config, whose issues name fields such as `judges[0].model`.
 */
export function useStepIssues(step: StepId): ShownIssue[] {
  const { t } = useTranslation(useWizardNamespaces());
  const current = useWizard((s) => s.step);
  const stored = useWizard((s) => s.issues);
  const draft = useWizard((s) => s.draft);
  const configError = useWizard((s) => s.configError);
  const issues = step === 'summary' ? validateStep('summary', draft) : stored;
  const own =
    current === step
      ? issues.map((i) => ({ field: i.field, message: t(`wizard.errors.${i.code}`, i.params ?? {}) }))
      : [];
  const core = (configError?.issues ?? [])
    .filter((i) => stepOfField(i.field, draft) === step)
    .map((i) => ({ field: i.field ?? '', message: i.message }));
  return [...own, ...core];
}

/** The first problem of one field on the current step, for the message under its input. */
export function useFieldError(step: StepId, field: string): string | undefined {
  return useStepIssues(step).find((i) => i.field === field)?.message;
}
