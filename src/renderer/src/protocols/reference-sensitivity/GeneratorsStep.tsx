import { useTranslation } from 'react-i18next';
import { Field, presetOf, type PresetId, ensureProvider, useWizard } from '../host';
import { draftSlice, ModelInput, OptionCheck, ProviderSelect, WizardStepFrame } from '../../kits/WizardStep';
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
import { CheckLabel } from '../../kits/CheckLabel';

const slice = draftSlice(refSensDraft, withRefSensDraft);
const edit = slice.edit;

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
  const { own, err } = slice.useStep('generators');
  return (
    <WizardStepFrame title={t('wizard.generators.title')} intro={t('wizard.generators.intro')}>
      <ol className="generator-rows stack" data-testid="generator-rows" data-config-key="generators">
        {own.generators.map((g, index) => (
          <li key={g.key} className="form-grid" data-testid="generator-row">
            <ProviderSelect
              label={t('wizard.generators.provider')}
              testId="generator-provider"
              value={g.provider}
              onChange={(name) => setProvider(index, name)}
            />
            <ModelInput
              label={t('wizard.generators.model')}
              testId="generator-model"
              error={err(`generators[${index}].model`)}
              value={g.model}
              onChange={(model) => editGenerator(index, { model })}
            />
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
          <CheckLabel
            key={part}
            testId={`part-${part}`}
            configKey={`parts.${part}`}
            checked={own[part]}
            onChange={(on) => edit((o) => ({ ...o, [part]: on }))}
            label={t(`wizard.generators.${part}`)}
          />
        ))}
        {err('parts') && <p className="field__error">{err('parts')}</p>}
      </fieldset>
      <fieldset className="form-grid" data-config-key="parts.settings">
        <legend>{t('wizard.generators.settings')}</legend>
        {SETTINGS.map((s) => (
          <CheckLabel
            key={s}
            testId={`setting-${s}`}
            checked={own.settings[s]}
            onChange={(on) => edit((o) => ({ ...o, settings: { ...o.settings, [s]: on } }))}
            label={t(`wizard.generators.${s}`)}
          />
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
    </WizardStepFrame>
  );
}

/** Config `noiseFloor`: NR asked twice, so each flip rate has its placebo beside it (NR only). */
function NoiseFloorOption({ own }: { own: RefSensDraft }) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const applies = noiseFloorApplies(own);
  return (
    <OptionCheck
      testId="option-noise-floor"
      configKey="noiseFloor"
      title={t('wizard.generators.noiseFloor')}
      text={t(applies ? 'wizard.generators.noiseFloorText' : 'wizard.generators.noiseFloorNeedsNR')}
      disabled={!applies}
      checked={applies && (own.noiseFloor ?? false)}
      onChange={(noiseFloor) => edit((o) => ({ ...o, noiseFloor }))}
    />
  );
}
