// The wizard's optional "Preregister" section (issue 24 part 2): the same plan fields as the run
// page's lock form (preregistration/PlanForm.tsx `PlanFields`), kept in the draft and sent as the
// config's `preregistration`, which the core locks in the create transaction, before any answer.
import { useTranslation } from 'react-i18next';
import type { PowerPlan } from '../../../shared/paper/types';
import { PlanFields, usePlanFieldErrors } from '../preregistration/PlanForm';
import { checkDraft, draftOf, fieldOfIssue, type PlanDraft } from '../preregistration/plan-form';
import { useComparisonLabels } from '../preregistration/labels';
import '../preregistration/i18n';
import '../preregistration/prereg.css';
import { protocolOf } from '../lib/experiment-config';
import { useWizard } from '../stores/wizard';

export function PreregisterSection({ power }: { power: PowerPlan | null }) {
  const { t } = useTranslation('prereg');
  const draft = useWizard((s) => s.draft);
  const setPreregistration = useWizard((s) => s.setPreregistration);
  const createError = useWizard((s) => s.createError);
  const plan = draft.preregistration ?? null;
  const comparisons = power?.comparisons ?? [];
  const labels = useComparisonLabels(protocolOf(draft), comparisons);
  // The summary is checked as typed (it has no Next): every field left wrong says so at once.
  const errorOf = usePlanFieldErrors(
    plan ? checkDraft(plan, false) : [],
    (createError?.issues ?? []).filter((i) => i.field?.startsWith('preregistration') && fieldOfIssue(i)),
  );
  const set = <K extends keyof PlanDraft>(k: K, v: PlanDraft[K]) => {
    const now = useWizard.getState().draft.preregistration;
    if (now) setPreregistration({ ...now, [k]: v });
  };
  return (
    <section className="prereg-wizard" data-testid="wizard-prereg" aria-labelledby="wizard-prereg-title">
      <h3 id="wizard-prereg-title" className="prereg__subtitle">
        {t('wizard.title')}
      </h3>
      <label className="prereg-form__check">
        <input
          type="checkbox"
          data-testid="wizard-prereg-toggle"
          checked={plan !== null}
          onChange={(e) => setPreregistration(e.target.checked ? draftOf(null) : null)}
        />
        <span>{t('wizard.toggle')}</span>
      </label>
      <p className="hint">{t(plan ? 'wizard.on' : 'wizard.off')}</p>
      {plan && (
        <div className="prereg-form" data-testid="prereg-form">
          <PlanFields
            draft={plan}
            set={set}
            comparisons={comparisons.map((c) => ({ id: c.id, label: labels.get(c.id) ?? c.label }))}
            errorOf={errorOf}
            withReason={false}
          />
        </div>
      )}
    </section>
  );
}
