import { useTranslation } from 'react-i18next';

/** Judge-LS is the only protocol so far; the step says what it does before anything is paid. */
export function ProtocolStep() {
  const { t } = useTranslation();
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.protocol.title')}
      </h2>
      <label className="choice choice--selected">
        <input type="radio" name="protocol" value="judge-ls" checked readOnly />
        <span className="choice__body">
          <span className="choice__title">{t('wizard.protocol.judgeLs')}</span>
          <span className="choice__text">{t('wizard.protocol.judgeLsText')}</span>
        </span>
      </label>
    </section>
  );
}
