import { useTranslation } from 'react-i18next';
import { Field } from '../components/Field';
import { wizardPluginOf } from '../lib/experiment-config';
import { useDatasets } from '../stores/datasets';
import { useWizard } from '../stores/wizard';
import { useStepIssues } from './issues';

export function OptionsStep() {
  const { t } = useTranslation();
  const draft = useWizard((s) => s.draft);
  const setLimit = useWizard((s) => s.setLimit);
  const setName = useWizard((s) => s.setName);
  const itemCount = useDatasets((s) => s.datasets.find((d) => d.id === draft.datasetId)?.itemCount);
  const issues = useStepIssues('options');
  const err = (f: string) => issues.find((i) => i.field === f)?.message;
  const ProtocolFields = wizardPluginOf(draft)?.OptionsFields;
  const limit = Number(draft.limit);
  const using =
    draft.limit.trim() && Number.isInteger(limit) && limit > 0
      ? Math.min(limit, itemCount ?? limit)
      : (itemCount ?? null);

  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.options.title')}
      </h2>

      {ProtocolFields && <ProtocolFields />}

      <div className="form-grid">
        <Field
          label={t('wizard.options.limit')}
          hint={
            using === null
              ? t('wizard.options.limitHintUnknown')
              : draft.limit.trim()
                ? t('wizard.options.limitHintSome', { count: using, total: itemCount ?? using })
                : t('wizard.options.limitHintAll', { count: using })
          }
          error={err('limit')}
        >
          <input
            type="number"
            min={1}
            step={1}
            data-testid="option-limit"
            value={draft.limit}
            placeholder={itemCount ? t('wizard.options.limitPlaceholder', { count: itemCount }) : ''}
            onChange={(e) => setLimit(e.target.value)}
          />
        </Field>
        <Field
          label={t('wizard.options.name')}
          hint={t('wizard.options.nameHint')}
          error={err('name')}
          className="field--wide"
        >
          <input
            type="text"
            data-testid="experiment-name"
            value={draft.name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
      </div>
    </section>
  );
}
