import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/Field';
import { isPresetId, presetOf, type PresetId } from '../../lib/providers';
import { ensureProvider, useWizard } from '../../stores/wizard';
import { useStepIssues } from '../../wizard/issues';
import { PresetOptions } from '../../wizard/PresetOptions';
import { noiseFloorApplies, refSensDraft, SETTINGS, withRefSensDraft, type RefSensDraft } from './draft';
import { AnswersFileField } from './AnswersFileField';
import { REF_SENS_NAMESPACES } from './i18n';
import { PromptsSection } from './PromptsSection';

function edit(fn: (own: RefSensDraft) => RefSensDraft) {
  useWizard.getState().update((d) => withRefSensDraft(d, fn(refSensDraft(d))));
}

function setProvider(name: PresetId) {
  useWizard.getState().update((d) => {
    const own = refSensDraft(d);
    return withRefSensDraft(
      { ...d, providers: ensureProvider(d, name) },
      { ...own, generator: { provider: name, model: presetOf(name).models[0] ?? '' } },
    );
  });
}

/** The generator, the parts to run and the seed. */
export function GeneratorsStep() {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const draft = useWizard((s) => s.draft);
  const own = useMemo(() => refSensDraft(draft), [draft]);
  const issues = useStepIssues('generators');
  const err = (f: string) => issues.find((i) => i.field === f)?.message;
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.generators.title')}
      </h2>
      <p className="wizard-step__intro">{t('wizard.generators.intro')}</p>
      <div className="form-grid">
        <Field label={t('wizard.generators.provider')}>
          <select
            data-testid="generator-provider"
            value={own.generator.provider}
            onChange={(e) => isPresetId(e.target.value) && setProvider(e.target.value)}
          >
            <PresetOptions />
          </select>
        </Field>
        <Field label={t('wizard.generators.model')} error={err('generators')}>
          <input
            type="text"
            className="mono"
            data-testid="generator-model"
            spellCheck={false}
            value={own.generator.model}
            onChange={(e) => {
              const model = e.target.value;
              edit((o) => ({ ...o, generator: { ...o.generator, model } }));
            }}
          />
        </Field>
      </div>
      <fieldset className="form-grid">
        <legend>{t('wizard.generators.parts')}</legend>
        {(['calibration', 'sensitivity'] as const).map((part) => (
          <label key={part} className="checkbox">
            <input
              type="checkbox"
              data-testid={`part-${part}`}
              checked={own[part]}
              onChange={(e) => {
                const on = e.target.checked;
                edit((o) => ({ ...o, [part]: on }));
              }}
            />{' '}
            {t(`wizard.generators.${part}`)}
          </label>
        ))}
        {err('parts') && <p className="field__error">{err('parts')}</p>}
      </fieldset>
      <fieldset className="form-grid">
        <legend>{t('wizard.generators.settings')}</legend>
        {SETTINGS.map((s) => (
          <label key={s} className="checkbox">
            <input
              type="checkbox"
              data-testid={`setting-${s}`}
              checked={own.settings[s]}
              onChange={(e) => {
                const on = e.target.checked;
                edit((o) => ({ ...o, settings: { ...o.settings, [s]: on } }));
              }}
            />{' '}
            {t(`wizard.generators.${s}`)}
          </label>
        ))}
      </fieldset>
      <NoiseFloorOption own={own} />
      <Field label={t('wizard.generators.seed')}>
        <input
          type="number"
          min={0}
          data-testid="refsens-seed"
          value={own.seed}
          onChange={(e) => {
            const seed = Math.max(0, Math.floor(Number(e.target.value) || 0));
            edit((o) => ({ ...o, seed }));
          }}
        />
      </Field>
      <AnswersFileField />
      <PromptsSection />
    </section>
  );
}

/** Config `noiseFloor`: NR asked twice, so each flip rate has its placebo beside it (NR only). */
function NoiseFloorOption({ own }: { own: RefSensDraft }) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const applies = noiseFloorApplies(own);
  return (
    <label className="check check--block">
      <input
        type="checkbox"
        data-testid="option-noise-floor"
        disabled={!applies}
        checked={applies && (own.noiseFloor ?? false)}
        onChange={(e) => {
          const noiseFloor = e.target.checked;
          edit((o) => ({ ...o, noiseFloor }));
        }}
      />
      <span>
        <strong>{t('wizard.generators.noiseFloor')}</strong>
        <span className="check__text">
          {t(applies ? 'wizard.generators.noiseFloorText' : 'wizard.generators.noiseFloorNeedsNR')}
        </span>
      </span>
    </label>
  );
}
