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
import {
  asksParaphrases,
  biasDraft,
  DEFAULT_PARAPHRASES_SHOWN,
  needsRewriter,
  PARAPHRASES_RANGE,
  probeIds,
  withBiasDraft,
  type BiasDraft,
} from './draft';
import { selectedProbes } from '../../../../shared/protocols/bias-probes/probe-registry';
import type { ProbeOption } from '../../../../shared/protocols/bias-probes/probe-types';
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
      {asksParaphrases(own) && (
        <Field
          label={t('wizard.probes.paraphrases')}
          hint={t('wizard.probes.paraphrasesHint')}
          error={err('paraphrases')}
        >
          <input
            type="number"
            step={1}
            min={PARAPHRASES_RANGE[0]}
            max={PARAPHRASES_RANGE[1]}
            data-testid="bias-paraphrases"
            value={own.paraphrases ?? DEFAULT_PARAPHRASES_SHOWN}
            onChange={(e) => {
              const paraphrases = Number(e.target.value);
              edit((o) => ({ ...o, paraphrases }));
            }}
          />
        </Field>
      )}
      <ProbeOptions own={own} err={err} />
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

/** The chosen probes' own options (`BiasProbe.options`), each as its default's type asks. */
function ProbeOptions({ own, err }: { own: BiasDraft; err: (field: string) => string | undefined }) {
  const { t, i18n } = useTranslation(BIAS_NAMESPACES);
  const lang = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const probes = selectedProbes({ probes: probeIds().filter((p) => own.probes[p]) }).filter(
    (p) => p.options?.length,
  );
  if (!probes.length) return null;
  const set = (probe: string, key: string, value: unknown) =>
    edit((o) => ({
      ...o,
      probeOptions: {
        ...(o.probeOptions ?? {}),
        [probe]: { ...(o.probeOptions?.[probe] ?? {}), [key]: value },
      },
    }));
  return (
    <>
      {probes.map((p) => (
        <fieldset key={p.id} className="form-grid" data-testid={`probe-options-${p.id}`}>
          <legend>{t('wizard.probes.optionsOf', { probe: p.texts.name[lang] })}</legend>
          {p.options!.map((o) => {
            const given = own.probeOptions?.[p.id];
            const value = given && Object.hasOwn(given, o.key) ? given[o.key] : o.default;
            const field = `probeOptions.${p.id}.${o.key}`;
            return (
              <Field key={o.key} label={o.label[lang]} error={err(field)}>
                <OptionInput
                  option={o}
                  value={value}
                  testId={`probe-option-${p.id}-${o.key}`}
                  onChange={(v) => set(p.id, o.key, v)}
                />
              </Field>
            );
          })}
        </fieldset>
      ))}
    </>
  );
}

/** One option's control: a list of choices (an enum), a number, a check box or a text. */
function OptionInput({
  option,
  value,
  testId,
  onChange,
}: {
  option: ProbeOption;
  value: unknown;
  testId: string;
  onChange: (value: unknown) => void;
}) {
  const choices = (option.schema as { options?: unknown }).options;
  if (Array.isArray(choices) && choices.every((c) => typeof c === 'string'))
    return (
      <select data-testid={testId} value={String(value)} onChange={(e) => onChange(e.target.value)}>
        {choices.map((c: string) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  if (typeof option.default === 'boolean')
    return (
      <input
        type="checkbox"
        data-testid={testId}
        checked={value === true}
        onChange={(e) => onChange(e.target.checked)}
      />
    );
  if (typeof option.default === 'number')
    return (
      <input
        type="number"
        data-testid={testId}
        value={typeof value === 'number' && Number.isFinite(value) ? value : ''}
        // An emptied field is kept as text, so the schema refuses it by name instead of a silent 0.
        onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
      />
    );
  return (
    <input
      type="text"
      data-testid={testId}
      value={String(value ?? '')}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
