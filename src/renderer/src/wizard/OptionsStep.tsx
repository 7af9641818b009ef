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
  const update = useWizard((s) => s.update);
  const dataset = useDatasets((s) => s.datasets.find((d) => d.id === draft.datasetId));
  const chosen = draft.subsets ?? [];
  // The pool the limit draws from: the chosen subsets, or the whole dataset.
  const itemCount = dataset
    ? chosen.length
      ? dataset.subsets.filter((s) => chosen.includes(s.subset)).reduce((n, s) => n + s.count, 0)
      : dataset.itemCount
    : undefined;
  const toggleSubset = (subset: string, on: boolean) =>
    update((d) => {
      const now = (d.subsets ?? []).filter((x) => x !== subset);
      return { ...d, subsets: on ? [...now, subset] : now };
    });
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
          label={t('wizard.options.sample')}
          hint={t(`wizard.options.sampleHint.${draft.sample ?? 'first'}`)}
        >
          <select
            data-testid="option-sample"
            value={draft.sample ?? 'first'}
            onChange={(e) => update((d) => ({ ...d, sample: e.target.value as 'first' | 'random' }))}
          >
            <option value="first">{t('wizard.options.sampleFirst')}</option>
            <option value="random">{t('wizard.options.sampleRandom')}</option>
          </select>
        </Field>
        {draft.sample === 'random' && (
          <Field label={t('wizard.options.seed')} hint={t('wizard.options.seedHint')} error={err('seed')}>
            <input
              type="number"
              min={0}
              step={1}
              data-testid="option-seed"
              value={draft.seed ?? '0'}
              onChange={(e) => update((d) => ({ ...d, seed: e.target.value }))}
            />
          </Field>
        )}
        {dataset && dataset.subsets.length > 1 && (
          <fieldset className="field field--wide" data-testid="option-subsets">
            <legend>{t('wizard.options.subsets')}</legend>
            <p className="hint">{t('wizard.options.subsetsHint')}</p>
            {dataset.subsets.map((s) => (
              <label key={s.subset} className="checkbox-line">
                <input
                  type="checkbox"
                  checked={chosen.includes(s.subset)}
                  onChange={(e) => toggleSubset(s.subset, e.target.checked)}
                />{' '}
                {s.subset} ({s.count})
              </label>
            ))}
          </fieldset>
        )}
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
