import { useTranslation } from 'react-i18next';
import { Field, presetOf, type PresetId, ensureProvider, useWizard } from '../host';
import {
  draftSlice,
  ModelInput,
  OptionCheck,
  ProviderSelect,
  RadioChoice,
  ScaleSelect,
  WizardStepFrame,
} from '../../kits/WizardStep';
import { biasDraft, needsRewriter, probeIds, withBiasDraft } from './draft';
import { BIAS_NAMESPACES } from './i18n';
import { CheckLabel } from '../../kits/CheckLabel';

const slice = draftSlice(biasDraft, withBiasDraft);
const edit = slice.edit;

function setProvider(name: PresetId) {
  useWizard.getState().update((d) => {
    const own = biasDraft(d);
    return withBiasDraft(
      { ...d, providers: ensureProvider(d, name) },
      { ...own, rewriter: { provider: name, model: presetOf(name).models[0] ?? '' } },
    );
  });
}

/** Mode, scale, probes, the longer band and the rewriter. */
export function ProbesStep() {
  const { t } = useTranslation(BIAS_NAMESPACES);
  const { own, issues, err } = slice.useStep('probes');
  return (
    <WizardStepFrame title={t('wizard.probes.title')} intro={t('wizard.probes.intro')}>
      <RadioChoice
        legend={t('wizard.probes.mode')}
        name="bias-mode"
        values={['pointwise', 'pairwise'] as const}
        value={own.mode}
        label={(mode) => t(`wizard.probes.${mode}`)}
        testId={(mode) => `bias-mode-${mode}`}
        onChange={(mode) => edit((o) => ({ ...o, mode }))}
      >
        {err('mode') && (
          <p className="field__error" data-testid="bias-mode-error">
            {err('mode')}
          </p>
        )}
      </RadioChoice>
      {own.mode === 'pointwise' && (
        <ScaleSelect
          label={t('wizard.probes.scale')}
          testId="bias-scale"
          value={own.scale}
          onChange={(scale) => edit((o) => ({ ...o, scale }))}
        />
      )}
      {own.mode === 'pointwise' && (
        <Field label={t('wizard.probes.rubric')} hint={t('wizard.probes.rubricHint')}>
          <textarea
            data-testid="bias-rubric"
            rows={3}
            value={own.rubric ?? ''}
            onChange={(e) => {
              const rubric = e.target.value;
              edit((o) => ({ ...o, rubric }));
            }}
          />
        </Field>
      )}
      <fieldset className="form-grid">
        <legend>{t('wizard.probes.probes')}</legend>
        {probeIds().map((p) => (
          <CheckLabel
            key={p}
            testId={`probe-${p}`}
            checked={own.probes[p]}
            onChange={(on) => edit((o) => ({ ...o, probes: { ...o.probes, [p]: on } }))}
            label={t(`wizard.probeChoices.${p}`)}
          />
        ))}
        {issues
          .filter((i) => i.field === 'probes')
          .map((i) => (
            <p key={i.message} className="field__error" data-testid="bias-probes-error">
              {i.message}
            </p>
          ))}
      </fieldset>
      {own.probes.length && (
        <fieldset className="form-grid">
          <legend>{t('wizard.probes.band')}</legend>
          {([0, 1] as const).map((i) => (
            <Field key={i} label={t(i === 0 ? 'wizard.probes.bandLow' : 'wizard.probes.bandHigh')}>
              <input
                type="number"
                step={0.05}
                min={1}
                data-testid={`bias-band-${i}`}
                value={own.lengthBand[i]}
                onChange={(e) => {
                  const v = Number(e.target.value);
                  edit((o) => {
                    const band: [number, number] = [...o.lengthBand];
                    band[i] = Number.isFinite(v) ? v : band[i];
                    return { ...o, lengthBand: band };
                  });
                }}
              />
            </Field>
          ))}
          {err('lengthBand') && <p className="field__error">{err('lengthBand')}</p>}
        </fieldset>
      )}
      <OptionCheck
        testId="option-noise-floor"
        title={t('wizard.probes.noiseFloor')}
        text={t('wizard.probes.noiseFloorText')}
        checked={own.noiseFloor ?? false}
        onChange={(noiseFloor) => edit((o) => ({ ...o, noiseFloor }))}
      />
      {needsRewriter(own) && (
        <div className="form-grid">
          <ProviderSelect
            label={t('wizard.probes.provider')}
            testId="rewriter-provider"
            value={own.rewriter.provider}
            onChange={setProvider}
          />
          <ModelInput
            label={t('wizard.probes.model')}
            testId="rewriter-model"
            error={err('rewriter')}
            value={own.rewriter.model}
            onChange={(model) => edit((o) => ({ ...o, rewriter: { ...o.rewriter, model } }))}
          />
        </div>
      )}
    </WizardStepFrame>
  );
}
