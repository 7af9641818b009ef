import { useTranslation } from 'react-i18next';
import { presetOf, useWizard } from '../host';
import { generatorLabel, refSensDraft, SETTINGS } from './draft';
import { REF_SENS_NAMESPACES } from './i18n';

/** Reference sensitivity's lines in the summary's recap: everything its step set (issue 26 item 2). */
export function SummaryLines() {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const own = refSensDraft(useWizard((s) => s.draft));
  const parts = (['calibration', 'sensitivity'] as const).filter((p) => own[p]);
  const settings = SETTINGS.filter((s) => own.settings[s]);
  const onOff = (on: boolean) => t(on ? 'wizard.summary.on' : 'wizard.summary.off');
  return (
    <>
      <dt>{t('wizard.summary.generators')}</dt>
      <dd data-testid="summary-refsens-generators">
        {own.sensitivity && own.generators.length
          ? own.generators
              .map((g) => `${generatorLabel(g)} (${presetOf(g.provider).title}, ${g.model.trim()})`)
              .join(' · ')
          : t('wizard.summary.none')}
      </dd>
      <dt>{t('wizard.summary.parts')}</dt>
      <dd data-testid="summary-refsens-parts">
        {parts.map((p) => t(`wizard.generators.${p}`)).join(' · ') || t('wizard.summary.none')}
      </dd>
      {own.sensitivity && (
        <>
          <dt>{t('wizard.summary.settings')}</dt>
          <dd data-testid="summary-refsens-settings">{settings.join(', ') || t('wizard.summary.none')}</dd>
          <dt>{t('wizard.summary.noiseFloor')}</dt>
          <dd>{onOff(own.noiseFloor ?? false)}</dd>
        </>
      )}
      {own.answers && (
        <>
          <dt>{t('wizard.summary.answersFile')}</dt>
          <dd className="mono">{own.answers.fileName}</dd>
        </>
      )}
      <dt>{t('wizard.summary.seed')}</dt>
      <dd>{own.seed}</dd>
    </>
  );
}
