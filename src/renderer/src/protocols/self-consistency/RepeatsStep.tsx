import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, useStepIssues, useWizard } from '../host';
import { scDraft, withScDraft, type ScDraft } from './draft';
import { SC_NAMESPACES } from './i18n';

function edit(fn: (own: ScDraft) => ScDraft) {
  useWizard.getState().update((d) => withScDraft(d, fn(scDraft(d))));
}

/** How many repeats, at which temperatures, in which orders, on which score scale. */
export function RepeatsStep() {
  const { t } = useTranslation(SC_NAMESPACES);
  const draft = useWizard((s) => s.draft);
  const own = useMemo(() => scDraft(draft), [draft]);
  const issues = useStepIssues('repeats');
  const err = (f: string) => issues.find((i) => i.field === f)?.message;
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.repeats.title')}
      </h2>
      <p className="wizard-step__intro">{t('wizard.repeats.intro')}</p>
      <div className="form-grid">
        <Field
          label={t('wizard.repeats.repeats')}
          hint={t('wizard.repeats.repeatsHint')}
          error={err('repeats')}
        >
          <input
            type="number"
            min={2}
            max={20}
            step={1}
            data-testid="sc-repeats"
            value={own.repeats}
            onChange={(e) => {
              const repeats = Number(e.target.value);
              edit((o) => ({ ...o, repeats }));
            }}
          />
        </Field>
        <Field
          label={t('wizard.repeats.temperatures')}
          hint={t('wizard.repeats.temperaturesHint')}
          error={err('temperatures')}
        >
          <input
            type="text"
            className="mono"
            data-testid="sc-temperatures"
            placeholder={t('wizard.repeats.temperaturesPlaceholder')}
            spellCheck={false}
            value={own.temperatures}
            onChange={(e) => {
              const temperatures = e.target.value;
              edit((o) => ({ ...o, temperatures }));
            }}
          />
        </Field>
      </div>
      <fieldset className="form-grid">
        <legend>{t('wizard.repeats.orders')}</legend>
        {(['both', 'one'] as const).map((orders) => (
          <label key={orders} className="checkbox">
            <input
              type="radio"
              name="sc-orders"
              data-testid={`sc-orders-${orders}`}
              checked={own.orders === orders}
              onChange={() => edit((o) => ({ ...o, orders }))}
            />{' '}
            {t(`wizard.repeats.orders_${orders}`)}
          </label>
        ))}
      </fieldset>
      <Field label={t('wizard.repeats.scale')} hint={t('wizard.repeats.scaleHint')}>
        <select
          data-testid="sc-scale"
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
    </section>
  );
}
