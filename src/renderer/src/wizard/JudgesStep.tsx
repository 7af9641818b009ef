import { useTranslation } from 'react-i18next';
import { Field } from '../components/Field';
import { batchCapable, type JudgeDraft } from '../lib/experiment-config';
import { ModelInput, ProviderSelect, WizardStepFrame } from '../kits/WizardStep';
import { presetOf } from '../lib/providers';
import { useWizard } from '../stores/wizard';
import { useStepIssues } from './issues';
import { ProviderCard } from './ProviderCard';
import { useModelSuggestions } from '../lib/listed-models';
import { CheckLabel } from '../kits/CheckLabel';
import { Button } from '../components/Button';

function JudgeRow({ judge, index, canRemove }: { judge: JudgeDraft; index: number; canRemove: boolean }) {
  const { t } = useTranslation();
  const update = useWizard((s) => s.updateJudge);
  const setProvider = useWizard((s) => s.setJudgeProvider);
  const remove = useWizard((s) => s.removeJudge);
  const issues = useStepIssues('judges');
  const err = (f: string) => issues.find((i) => i.field === `judges[${index}].${f}`)?.message;
  const listId = `models-${judge.key}`;
  const suggestions = useModelSuggestions(judge.provider, presetOf(judge.provider).models);
  const providers = useWizard((s) => s.draft.providers);
  return (
    <li className="judge-row" data-testid="judge-row">
      <span className="judge-row__n" aria-hidden="true">
        {index + 1}
      </span>
      <Field label={t('wizard.judges.label')} error={err('label')}>
        <input
          type="text"
          data-testid="judge-label"
          value={judge.label}
          onChange={(e) => update(index, { label: e.target.value })}
        />
      </Field>
      <ProviderSelect
        label={t('wizard.judges.provider')}
        testId="judge-provider-preset"
        error={err('provider')}
        value={judge.provider}
        onChange={(name) => setProvider(index, name)}
      />
      <ModelInput
        label={t('wizard.judges.model')}
        testId="judge-model"
        list={listId}
        error={err('model')}
        placeholder={t('wizard.judges.modelPlaceholder')}
        value={judge.model}
        onChange={(model) => update(index, { model })}
      />
      <datalist id={listId}>
        {suggestions.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <Field label={t('wizard.judges.temperature')} error={err('temperature')} className="field--narrow">
        <input
          type="number"
          min={0}
          max={2}
          step={0.1}
          data-testid="judge-temperature"
          value={judge.temperature}
          onChange={(e) => update(index, { temperature: e.target.value })}
        />
      </Field>
      {batchCapable(judge.provider, providers) && (
        <CheckLabel
          className="check judge-row__batch"
          title={t('wizard.judges.batchHint')}
          testId="judge-batch"
          checked={judge.batch ?? false}
          onChange={(batch) => update(index, { batch })}
          label={t('wizard.judges.batch')}
        />
      )}
      <Button
        className="btn btn--small btn--ghost judge-row__remove"
        onClick={() => remove(index)}
        disabled={!canRemove}
        aria-label={t('wizard.judges.removeNamed', { label: judge.label || index + 1 })}
      >
        {t('wizard.judges.remove')}
      </Button>
    </li>
  );
}

export function JudgesStep() {
  const { t } = useTranslation();
  const judges = useWizard((s) => s.draft.judges);
  const addJudge = useWizard((s) => s.addJudge);
  const issues = useStepIssues('judges');
  const providers = [...new Set(judges.map((j) => j.provider))];
  const general = issues.filter((i) => i.field === 'judges');
  return (
    <WizardStepFrame title={t('wizard.judges.title')} intro={t('wizard.judges.intro')}>
      <ol className="judge-list">
        {judges.map((j, i) => (
          <JudgeRow key={j.key} judge={j} index={i} canRemove={judges.length > 1} />
        ))}
      </ol>
      {general.map((i) => (
        <p key={i.message} className="inline-error" role="alert">
          {i.message}
        </p>
      ))}
      <Button className="btn" testId="add-judge" onClick={addJudge}>
        + {t('wizard.judges.add')}
      </Button>

      <h3 className="wizard-step__subtitle">{t('wizard.judges.providers')}</h3>
      <p className="hint">{t('wizard.judges.providersIntro')}</p>
      <div className="provider-list">
        {providers.map((p) => (
          <ProviderCard key={p} name={p} step="judges" />
        ))}
      </div>
    </WizardStepFrame>
  );
}
