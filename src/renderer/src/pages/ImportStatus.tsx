import { useTranslation } from 'react-i18next';
import { ErrorPanel } from '../components/ErrorPanel';
import { Notice } from '../components/Notice';
import { useImport } from '../stores/import';
import { routeHref } from '../stores/route';

/** Progress of the running import, then its result: a notice or every problem found. */
export function ImportStatus() {
  const { t } = useTranslation();
  const phase = useImport((s) => s.phase);
  const outcome = useImport((s) => s.outcome);
  const dismiss = useImport((s) => s.dismiss);

  if (phase.kind !== 'idle') {
    const fraction = phase.kind === 'encoding' ? phase.fraction : undefined;
    const label =
      phase.kind === 'sample'
        ? t('import.loadingSample')
        : phase.kind === 'reading'
          ? t('import.reading', { file: phase.file })
          : phase.kind === 'encoding'
            ? t('import.encoding', { file: phase.file, percent: Math.round((fraction ?? 0) * 100) })
            : t('import.importing', { file: phase.file });
    return (
      <div className="progress-card" role="status" aria-live="polite" data-testid="import-progress">
        <span className="progress-card__label">{label}</span>
        {/* No value = indeterminate: the server does not report progress while it parses. */}
        <progress max={1} value={fraction} aria-label={label} />
      </div>
    );
  }

  if (!outcome) return null;
  if (outcome.kind === 'failed') {
    return (
      <ErrorPanel
        testId="import-error"
        title={outcome.file ? t('import.failedTitle', { file: outcome.file }) : t('import.failedGeneric')}
        error={outcome.error}
        onDismiss={dismiss}
      />
    );
  }
  const { dataset, duplicate } = outcome.result;
  return (
    <Notice tone={duplicate ? 'info' : 'success'} onDismiss={dismiss}>
      <span data-testid="import-notice">
        {duplicate
          ? t('import.duplicate', { name: dataset.name })
          : t('import.imported', { count: dataset.itemCount, file: outcome.file })}
      </span>{' '}
      <a href={routeHref({ name: 'dataset', datasetId: dataset.id })}>{t('common.open')}</a>
    </Notice>
  );
}
