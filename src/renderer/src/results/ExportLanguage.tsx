import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FIGURE_LANGUAGES } from '../../../shared/report/figure-i18n';
import { useExportLanguage, useExportLanguageChoice } from '../lib/figure-language';
import './i18n';

/** The language of exported figures' titles, axes and legends (the UI's by default). */
export function ExportLanguage() {
  const { t } = useTranslation('results');
  const id = useId();
  const lang = useExportLanguage();
  const setChoice = useExportLanguageChoice((s) => s.setChoice);
  return (
    <span className="export-language">
      <label htmlFor={id} className="small muted">
        {t('export.language')}
      </label>{' '}
      <select
        id={id}
        data-testid="export-language"
        value={lang}
        onChange={(e) => setChoice(e.target.value as (typeof FIGURE_LANGUAGES)[number])}
      >
        {FIGURE_LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`export.languages.${l}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
