import { useTranslation } from 'react-i18next';
import { useWizard } from '../host';
import { parseTemperatures, scDraft } from './draft';
import { SC_NAMESPACES } from './i18n';

/** Self-consistency's lines in the summary's recap: repeats, temperatures, orders. */
export function SummaryLines() {
  const { t } = useTranslation(SC_NAMESPACES);
  const own = scDraft(useWizard((s) => s.draft));
  const temps = parseTemperatures(own.temperatures) ?? [];
  return (
    <>
      <dt>{t('wizard.summary.repeats')}</dt>
      <dd data-testid="summary-sc-repeats">{own.repeats}</dd>
      <dt>{t('wizard.summary.temperatures')}</dt>
      <dd>{temps.length ? temps.join(', ') : t('wizard.repeats.temperaturesPlaceholder')}</dd>
      <dt>{t('wizard.summary.orders')}</dt>
      <dd>{t(`wizard.repeats.orders_${own.orders}`)}</dd>
    </>
  );
}
