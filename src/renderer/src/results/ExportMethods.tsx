import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodsFiles } from '../../../shared/paper/methods';
import { getApi } from '../api';
import { toApiError, type ApiError } from '../api/errors';
import { useExportLanguage } from '../lib/figure-language';
import { downloadText } from './download';
import './i18n';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done'; files: MethodsFiles }
  | { status: 'error'; error: ApiError };

const FILES = [
  { key: 'markdown', name: 'methods.md', mime: 'text/markdown' },
  { key: 'latex', name: 'methods.tex', mime: 'application/x-tex' },
  { key: 'checklist', name: 'checklist.md', mime: 'text/markdown' },
] as const;

/**
 * Export → Methods (issue 24): the Methods text and the reviewer's checklist, written by the core
 * from the stored experiment in the export language. Shown as text (never HTML: it quotes the
 * prompts and model ids verbatim) with a download per file.
 */
export function ExportMethods({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation('results');
  const lang = useExportLanguage();
  const [state, setState] = useState<State>({ status: 'idle' });
  const run = async () => {
    setState({ status: 'busy' });
    try {
      const files = await getApi().call('experiments.methods', { experimentId, lang });
      setState({ status: 'done', files });
    } catch (err) {
      setState({ status: 'error', error: toApiError(err) });
    }
  };
  return (
    <div className="results-export-methods">
      <button
        type="button"
        className="btn"
        data-testid="export-methods"
        disabled={state.status === 'busy'}
        onClick={() => void run()}
      >
        {state.status === 'busy' ? t('export.methodsBusy') : t('export.methods')}
      </button>
      {state.status === 'error' && (
        <p className="inline-error" role="alert">
          {t('export.failed', { message: state.error.message })}
        </p>
      )}
      {state.status === 'done' && (
        <div className="results-export-methods__done" role="status" data-testid="export-methods-result">
          <p className="small">{t('export.methodsNote')}</p>
          <div className="results-export-methods__downloads">
            {FILES.map((f) => (
              <button
                key={f.key}
                type="button"
                className="btn btn--small"
                data-testid={`export-methods-${f.key}`}
                onClick={() => downloadText(f.name, f.mime, state.files[f.key])}
              >
                {t('export.download', { file: f.name })}
              </button>
            ))}
            <button
              type="button"
              className="btn btn--small btn--ghost"
              onClick={() => setState({ status: 'idle' })}
            >
              {t('dismiss')}
            </button>
          </div>
          {/* Focusable: it scrolls, and a keyboard reader must be able to scroll it too. */}
          <pre
            className="results-export-methods__text mono small"
            data-testid="export-methods-text"
            tabIndex={0}
            aria-label={t('export.methodsText')}
          >
            {state.files.markdown}
          </pre>
        </div>
      )}
    </div>
  );
}
