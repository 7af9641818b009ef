import { useTranslation } from 'react-i18next';
import type { ExperimentStatus } from '../../../shared/experiments';

/** The run's status as a coloured word; the word itself is what tests and screen readers read. */
export function StatusBadge({ status, testId }: { status: ExperimentStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`badge status status--${status}`} data-testid={testId} data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}
