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
import { biasDraft, needsRewriter, probeIds, withBiasDraft, type BiasDraft } from './draft';
import { BIAS_NAMESPACES } from './i18n';

function edit(fn: (own: BiasDraft) => BiasDraft) {
  useWizard.getState().update((d) => withBiasDraft(d, fn(biasDraft(d))));
}

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
  const draft = useWizard((s) => s.draft);
  const own = useMemo(() => biasDraft(draft), [draft]);
  const issues = useStepIssues('probes');
  const err = (f: string) => issues.find((i) => i.field === f)?.message;
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.probes.title')}
      </h2>
      <p className="wizard-step__intro">{t('wizard.probes.intro')}</p>
      <fieldset className="form-grid">
        <legend>{t('wizard.probes.mode')}</legend>
        {(['pointwise', 'pairwise'] as const).map((mode) => (
          <label key={mode} className="checkbox">
            <input
              type="radio"
              name="bias-mode"
              data-testid={`bias-mode-${mode}`}
              checked={own.mode === mode}
              onChange={() => edit((o) => ({ ...o, mode }))}
            />{' '}
            {t(`wizard.probes.${mode}`)}
          </label>
        ))}
        {err('mode') && (
          <p className="field__error" data-testid="bias-mode-error">
            {err('mode')}
          </p>
        )}
      </fieldset>
      {own.mode === 'pointwise' && (
        <Field label={t('wizard.probes.scale')}>
          <select
            data-testid="bias-scale"
            value={own.scale}
            onChange={(e) => {
              const scale = e.target.value === '10' ? 10 : 5;
              edit((o) => ({ ...o, scale }));
            }}
          >
            <option value="5">1–5</option>
            <option value="10">1–10</option>
          </select>
        </Field>
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
          <label key={p} className="checkbox">
            <input
              type="checkbox"
              data-testid={`probe-${p}`}
              checked={own.probes[p]}
              onChange={(e) => {
                const on = e.target.checked;
                edit((o) => ({ ...o, probes: { ...o.probes, [p]: on } }));
              }}
            />{' '}
            {t(`wizard.probeChoices.${p}`)}
          </label>
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
      <label className="check check--block">
        <input
          type="checkbox"
          data-testid="option-noise-floor"
          checked={own.noiseFloor ?? false}
          onChange={(e) => {
            const noiseFloor = e.target.checked;
            edit((o) => ({ ...o, noiseFloor }));
          }}
        />
        <span>
          <strong>{t('wizard.probes.noiseFloor')}</strong>
          <span className="check__text">{t('wizard.probes.noiseFloorText')}</span>
        </span>
      </label>
      {needsRewriter(own) && (
        <div className="form-grid">
          <Field label={t('wizard.probes.provider')}>
            <select
              data-testid="rewriter-provider"
              value={own.rewriter.provider}
              onChange={(e) => isPresetId(e.target.value) && setProvider(e.target.value)}
            >
              <PresetOptions />
            </select>
          </Field>
          <Field label={t('wizard.probes.model')} error={err('rewriter')}>
            <input
              type="text"
              className="mono"
              data-testid="rewriter-model"
              spellCheck={false}
              value={own.rewriter.model}
              onChange={(e) => {
                const model = e.target.value;
                edit((o) => ({ ...o, rewriter: { ...o.rewriter, model } }));
              }}
            />
          </Field>
        </div>
      )}
    </section>
  );
}
