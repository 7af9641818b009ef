import { useTranslation } from 'react-i18next';
import { Field } from '../host';
import { draftSlice, RadioChoice, ScaleSelect, WizardStepFrame } from '../../kits/WizardStep';
import { scDraft, withScDraft } from './draft';
import { SC_NAMESPACES } from './i18n';

const slice = draftSlice(scDraft, withScDraft);
const edit = slice.edit;

/** How many repeats, at which temperatures, in which orders, on which score scale. */
export function RepeatsStep() {
  const { t } = useTranslation(SC_NAMESPACES);
  const { own, err } = slice.useStep('repeats');
  return (
    <WizardStepFrame title={t('wizard.repeats.title')} intro={t('wizard.repeats.intro')}>
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
      <RadioChoice
        legend={t('wizard.repeats.orders')}
        name="sc-orders"
        values={['both', 'one'] as const}
        value={own.orders}
        label={(orders) => t(`wizard.repeats.orders_${orders}`)}
        testId={(orders) => `sc-orders-${orders}`}
        onChange={(orders) => edit((o) => ({ ...o, orders }))}
      />
      <ScaleSelect
        label={t('wizard.repeats.scale')}
        hint={t('wizard.repeats.scaleHint')}
        testId="sc-scale"
        value={own.scale}
        onChange={(scale) => edit((o) => ({ ...o, scale }))}
      />
    </WizardStepFrame>
  );
}
