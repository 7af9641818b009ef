import { useTranslation } from 'react-i18next';

/** A page that is not there (an unknown route, a deleted dataset): what is missing, and the way back. */
export function NotFound({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <p className="empty-note">{message}</p>
      <a className="btn" href="#/datasets">
        {t('app.backToDatasets')}
      </a>
    </div>
  );
}
