import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi } from '../api';
import { toApiError, type ApiError } from '../api/errors';
import { downloadBase64 } from './download';
import './i18n';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done'; fileName: string }
  | { status: 'error'; error: ApiError };

/**
 * Export → Study bundle (issue 24): the one file (`*.judgelab`) a reviewer recomputes offline with
 * `judge-lab bundle verify`. The core writes it; the page only saves it.
 */
export function ExportBundle({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation('results');
  const [state, setState] = useState<State>({ status: 'idle' });
  const run = async () => {
    setState({ status: 'busy' });
    try {
      const file = await getApi().call('experiments.exportBundle', { experimentId });
      downloadBase64(file);
      setState({ status: 'done', fileName: file.fileName });
    } catch (err) {
      setState({ status: 'error', error: toApiError(err) });
    }
  };
  return (
    <div className="results-export-methods">
      <button
        type="button"
        className="btn"
        data-testid="export-bundle"
        disabled={state.status === 'busy'}
        onClick={() => void run()}
      >
        {state.status === 'busy' ? t('export.bundleBusy') : t('export.bundle')}
      </button>
      {state.status === 'error' && (
        <p className="inline-error" role="alert">
          {t('export.failed', { message: state.error.message })}
        </p>
      )}
      {state.status === 'done' && (
        <p className="small" role="status" data-testid="export-bundle-result">
          {t('export.bundleDone', { file: state.fileName })}
        </p>
      )}
    </div>
  );
}
