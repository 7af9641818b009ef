import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface NoticeProps {
  tone: 'success' | 'info';
  children: ReactNode;
  onDismiss?: () => void;
}

export function Notice({ tone, children, onDismiss }: NoticeProps) {
  const { t } = useTranslation();
  return (
    <div className={`notice notice--${tone}`} role="status">
      <div className="notice__body">{children}</div>
      {onDismiss && (
        <button type="button" className="btn btn--small btn--ghost" onClick={onDismiss}>
          {t('common.dismiss')}
        </button>
      )}
    </div>
  );
}
