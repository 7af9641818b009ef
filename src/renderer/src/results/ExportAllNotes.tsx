import { useTranslation } from 'react-i18next';
import type { ExportAllState } from '../lib/useExportAll';
import './i18n';

/** The parts of "Export all" both the results page and the run view show: the no-verdicts question and the download. */
export function ExportAllNotes({
  state,
  onConfirm,
  onCancel,
}: {
  state: ExportAllState;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('results');
  if (state.status === 'confirm') {
    return (
      <div
        className="results-banner"
        role="alertdialog"
        aria-labelledby="export-empty-q"
        data-testid="export-empty-warning"
      >
        <p id="export-empty-q">{t('export.emptyWarning')}</p>
        <button type="button" className="btn btn--small" data-testid="export-anyway" onClick={onConfirm}>
          {t('export.anyway')}
        </button>{' '}
        <button type="button" className="btn btn--small btn--ghost" onClick={onCancel}>
          {t('export.cancel')}
        </button>
      </div>
    );
  }
  if (state.status === 'downloaded') {
    return (
      <p className="results-export-all__done" role="status" data-testid="export-downloaded">
        {t('export.downloaded', { file: state.fileName })}
      </p>
    );
  }
  if (state.status === 'done' && state.result.figureFailures?.length) {
    const figures = state.result.figureFailures.map((f) => `${f.id}.${f.format}`).join(', ');
    return (
      <p className="text-danger" role="alert" data-testid="export-figures-failed">
        {t('export.figuresFailed', { figures })}
      </p>
    );
  }
  return null;
}
