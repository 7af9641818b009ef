import { useTranslation } from 'react-i18next';
import { stepOfField, type StepId } from '../lib/experiment-config';
import { useWizard } from '../stores/wizard';

export interface ShownIssue {
  field: string;
  message: string;
}

/**
 * Every problem that belongs to a step: the wizard's own checks (after Next was pressed)
 * and the core's verdict on the config, whose issues name fields such as `judges[0].model`.
 */
export function useStepIssues(step: StepId): ShownIssue[] {
  const { t } = useTranslation();
  const current = useWizard((s) => s.step);
  const issues = useWizard((s) => s.issues);
  const configError = useWizard((s) => s.configError);
  const own =
    current === step
      ? issues.map((i) => ({ field: i.field, message: t(`wizard.errors.${i.code}`, i.params ?? {}) }))
      : [];
  const core = (configError?.issues ?? [])
    .filter((i) => stepOfField(i.field) === step)
    .map((i) => ({ field: i.field ?? '', message: i.message }));
  return [...own, ...core];
}

/** The first problem of one field on the current step, for the message under its input. */
export function useFieldError(step: StepId, field: string): string | undefined {
  return useStepIssues(step).find((i) => i.field === field)?.message;
}
