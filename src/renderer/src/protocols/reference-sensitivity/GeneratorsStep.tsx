import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ensureProvider,
  Field,
  isPresetId,
  type PresetId,
  presetOf,
  PresetOptions,
  useStepIssues,
  useWizard,
} from '../host';
import {
  defaultGeneratorModel,
  takenLabels,
  newGenerator,
  noiseFloorApplies,
  refSensDraft,
  SETTINGS,
  withRefSensDraft,
  type GeneratorDraft,
  type RefSensDraft,
} from './draft';
import { AnswersFileField } from './AnswersFileField';
import { REF_SENS_NAMESPACES } from './i18n';
import { PromptsSection } from './PromptsSection';

function edit(fn: (own: RefSensDraft) => RefSensDraft) {
  useWizard.getState().update((d) => withRefSensDraft(d, fn(refSensDraft(d))));
}

function editGenerator(index: number, patch: Partial<GeneratorDraft>) {
  edit((o) => ({ ...o, generators: o.generators.map((g, i) => (i === index ? { ...g, ...patch } : g)) }));
}

function setProvider(index: number, name: PresetId) {
  useWizard.getState().update((d) => {
    const own = refSensDraft(d);
    return withRefSensDraft(
      { ...d, providers: ensureProvider(d, name) },
      {
        ...own,
        generators: own.generators.map((g, i) =>
          i === index
            ? {
                ...g,
                provider: name,
                model: defaultGeneratorModel(name, takenLabels(d, own, index), presetOf(name)),
              }
            : g,
        ),
      },
    );
  });
}

function addGenerator() {
  useWizard.getState().update((d) => {
    const own = refSensDraft(d);
    // A new row starts on the last row's provider: several models of one account is the usual case.
    const provider = own.generators.at(-1)?.provider ?? 'openai';
    return withRefSensDraft(
      { ...d, providers: ensureProvider(d, provider) },
      { ...own, generators: [...own.generators, newGenerator(provider, '')] },
    );
  });
}

/** The generators, the parts to run, the noise floor and the seed. */
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
      <ol className="generator-rows stack" data-testid="generator-rows" data-config-key="generators">
        {own.generators.map((g, index) => (
          <li key={g.key} className="form-grid" data-testid="generator-row">
            <Field label={t('wizard.generators.provider')}>
              <select
                data-testid="generator-provider"
                value={g.provider}
                onChange={(e) => isPresetId(e.target.value) && setProvider(index, e.target.value)}
              >
                <PresetOptions />
              </select>
            </Field>
            <Field label={t('wizard.generators.model')} error={err(`generators[${index}].model`)}>
              <input
                type="text"
                className="mono"
                data-testid="generator-model"
                spellCheck={false}
                value={g.model}
                onChange={(e) => editGenerator(index, { model: e.target.value })}
              />
            </Field>
            <Field label={t('wizard.generators.label')} error={err(`generators[${index}].label`)}>
              <input
                type="text"
                data-testid="generator-label"
                value={g.label}
                placeholder={g.model}
                onChange={(e) => editGenerator(index, { label: e.target.value })}
              />
            </Field>
            <button
              type="button"
              className="btn btn--small btn--ghost"
              data-testid="remove-generator"
              onClick={() => edit((o) => ({ ...o, generators: o.generators.filter((_, i) => i !== index) }))}
            >
              {t('wizard.generators.remove')}
            </button>
          </li>
        ))}
      </ol>
      {err('generators') && <p className="field__error">{err('generators')}</p>}
      <button type="button" className="btn btn--small" data-testid="add-generator" onClick={addGenerator}>
        {t('wizard.generators.add')}
      </button>
      <fieldset className="form-grid">
        <legend>{t('wizard.generators.parts')}</legend>
        {(['calibration', 'sensitivity'] as const).map((part) => (
          <label key={part} className="checkbox">
            <input
              type="checkbox"
              data-testid={`part-${part}`}
              data-config-key={`parts.${part}`}
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
      <fieldset className="form-grid" data-config-key="parts.settings">
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
          data-config-key="seed"
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
        data-config-key="noiseFloor"
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
