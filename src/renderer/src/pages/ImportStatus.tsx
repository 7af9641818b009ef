import { useTranslation } from 'react-i18next';
import { ErrorPanel } from '../components/ErrorPanel';
import { Notice } from '../components/Notice';
import { useImport } from '../stores/import';
import { routeHref } from '../stores/route';
import { ColumnChooser } from './ColumnChooser';
import { describeMapping } from './column-choice';
import { IMPORT_COLUMNS_NS } from './import-columns-i18n';

/** Progress of the running import, then its result: a notice or every problem found. */
export function ImportStatus() {
  const { t } = useTranslation();
  const phase = useImport((s) => s.phase);
  const outcome = useImport((s) => s.outcome);
  const dismiss = useImport((s) => s.dismiss);
  const importWithColumns = useImport((s) => s.importWithColumns);

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
    const choice = outcome.error.columnChoice;
    if (choice)
      return (
        <ColumnChooser
          // A new failure (another file, or the mapping tried) starts the screen afresh.
          key={`${outcome.file}:${JSON.stringify(choice.mapping ?? {})}:${outcome.error.message}`}
          file={outcome.file}
          choice={choice}
          error={outcome.error}
          onImport={(columns) => void importWithColumns(columns)}
          onCancel={dismiss}
        />
      );
    return (
      <ErrorPanel
        testId="import-error"
        title={outcome.file ? t('import.failedTitle', { file: outcome.file }) : t('import.failedGeneric')}
        error={outcome.error}
        onDismiss={dismiss}
      />
    );
  }
  const { dataset, duplicate, mapping, mappingRemembered } = outcome.result;
  return (
    <Notice tone={duplicate ? 'info' : 'success'} onDismiss={dismiss}>
      <span data-testid="import-notice">
        {duplicate
          ? t('import.duplicate', { name: dataset.name })
          : t('import.imported', { count: dataset.itemCount, file: outcome.file })}
      </span>{' '}
      <a href={routeHref({ name: 'dataset', datasetId: dataset.id })}>{t('common.open')}</a>
      {mapping && (
        <span className="import-mapping" data-testid="import-mapping-note">
          {' '}
          {mappingRemembered
            ? t('remembered', { ns: IMPORT_COLUMNS_NS, mapping: describeMapping(mapping) })
            : t('saved', { ns: IMPORT_COLUMNS_NS })}
        </span>
      )}
    </Notice>
  );
}
