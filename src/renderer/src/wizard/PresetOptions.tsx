import { useTranslation } from 'react-i18next';
import { PRESETS } from '../lib/providers';

/** The provider choices, grouped so local servers are easy to find. */
export function PresetOptions() {
  const { t } = useTranslation();
  return (
    <>
      <optgroup label={t('wizard.judges.hosted')}>
        {PRESETS.filter((p) => !p.local && p.id !== 'custom').map((p) => (
          <option key={p.id} value={p.id}>
            {p.title}
          </option>
        ))}
      </optgroup>
      <optgroup label={t('wizard.judges.local')}>
        {PRESETS.filter((p) => p.local).map((p) => (
          <option key={p.id} value={p.id}>
            {t('wizard.judges.localServer', { name: p.title })}
          </option>
        ))}
      </optgroup>
      <option value="custom">{t('wizard.judges.custom')}</option>
    </>
  );
}
