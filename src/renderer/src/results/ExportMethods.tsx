import { useTranslation } from 'react-i18next';
import { getApi } from '../api';
import { ExportAction } from '../kits/ExportAction';
import { useExportLanguage } from '../lib/figure-language';
import { downloadText } from './download';
import './i18n';
import { Button } from '../components/Button';

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
  return (
    <ExportAction
      testId="export-methods"
      label={t('export.methods')}
      busyLabel={t('export.methodsBusy')}
      run={() => getApi().call('experiments.methods', { experimentId, lang })}
      done={(files, dismiss) => (
        <div className="results-export-methods__done" role="status" data-testid="export-methods-result">
          <p className="small">{t('export.methodsNote')}</p>
          <div className="results-export-methods__downloads">
            {FILES.map((f) => (
              <Button
                key={f.key}
                className="btn btn--small"
                testId={`export-methods-${f.key}`}
                onClick={() => downloadText(f.name, f.mime, files[f.key])}
              >
                {t('export.download', { file: f.name })}
              </Button>
            ))}
            <Button className="btn btn--small btn--ghost" onClick={dismiss}>
              {t('dismiss')}
            </Button>
          </div>
          {/* Focusable: it scrolls, and a keyboard reader must be able to scroll it too. */}
          <pre
            className="results-export-methods__text mono small"
            data-testid="export-methods-text"
            tabIndex={0}
            aria-label={t('export.methodsText')}
          >
            {files.markdown}
          </pre>
        </div>
      )}
    />
  );
}
