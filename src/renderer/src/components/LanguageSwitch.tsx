import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../i18n';

const LABELS: Record<Language, string> = { en: 'English', zh: '中文' };

/** Names stay in their own language, so anyone can find theirs. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : 'en';
  return (
    <label className="lang-switch">
      <span className="visually-hidden">{t('app.language')}</span>
      <select
        data-testid="lang-switch"
        value={current}
        onChange={(e) => setLanguage(e.target.value as Language)}
        aria-label={t('app.language')}
      >
        {LANGUAGES.map((lang) => (
          <option key={lang} value={lang} lang={lang === 'zh' ? 'zh-CN' : 'en'}>
            {LABELS[lang]}
          </option>
        ))}
      </select>
    </label>
  );
}
