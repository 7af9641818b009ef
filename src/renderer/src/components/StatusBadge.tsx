import { useTranslation } from 'react-i18next';
import type { ExperimentStatus } from '../../../shared/experiments';
import { runOutcome } from '../../../shared/run-status-text';

/**
 * The run's status as a coloured word; the word itself is what tests and screen readers read.
 * With the plan's call counts, a finished run whose calls all or mostly failed says so.
 */
export function StatusBadge({
  status,
  calls,
  testId,
}: {
  status: ExperimentStatus;
  calls?: { done: number; failed: number };
  testId?: string;
}) {
  const { t } = useTranslation();
  const shown = calls ? runOutcome(status, calls) : status;
  return (
    <span
      className={`badge status status--${shown}`}
      data-testid={testId}
      data-status={status}
      data-outcome={shown}
    >
      {t(`status.${shown}`)}
    </span>
  );
}
