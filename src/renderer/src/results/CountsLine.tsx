import { useTranslation } from 'react-i18next';
import type { ResultCounts } from '../../../shared/experiments';
import type { Navigate } from './routes';
import './i18n';

const FAILURES_ANCHOR = 'results-failures';

/**
 * "312 of 400 answers in; 84 not answered yet; 4 failed — see Failures". An answer is in once it was answered,
 * usable or not; failed ones are counted in no rate, so the line says where they are listed.
 */
export function CountsLine({
  counts,
  experimentId,
  loading,
  onNavigate,
}: {
  counts: ResultCounts;
  experimentId: number;
  /** Newer results are on their way (a live update or the switch). */
  loading: boolean;
  onNavigate: Navigate;
}) {
  const { t } = useTranslation('results');
  // The page's failures section when the protocol has one, else the run view's failures panel.
  const seeFailures = () => {
    const section = document.getElementById(FAILURES_ANCHOR);
    if (section) section.scrollIntoView({ behavior: 'smooth', block: 'start' });
    else onNavigate({ name: 'experiment', experimentId });
  };
  const answered = counts.ok + counts.failed;
  // Most answers unusable: say it above the numbers, which would otherwise look merely small.
  const mostlyFailed = counts.failed > 0 && counts.failed >= counts.ok;
  return (
    <>
      {mostlyFailed && (
        <p className="results-banner" role="alert" data-testid="results-failed-banner">
          {t('counts.mostlyFailed', { failed: counts.failed, answered, count: counts.failed })}{' '}
          <button type="button" className="results-counts__link" onClick={seeFailures}>
            {t('counts.seeFailures')}
          </button>
        </p>
      )}
      <p className="results-counts" data-testid="results-counts" role="status">
        {t('counts.in', { done: counts.ok + counts.failed, planned: counts.planned })}
        {counts.pending > 0 && (
          <>
            {'; '}
            <span data-testid="results-pending">{t('counts.pending', { count: counts.pending })}</span>
          </>
        )}
        {counts.failed > 0 && (
          <>
            {'; '}
            {t('counts.failed', { count: counts.failed })}
            {' — '}
            <button type="button" className="results-counts__link" onClick={seeFailures}>
              {t('counts.seeFailures')}
            </button>
          </>
        )}
        {loading && <span className="spinner" aria-hidden="true" />}
      </p>
    </>
  );
}
