import { useTranslation } from 'react-i18next';
import { ScrollBox } from '../components/ScrollRegion';
import { useExportAll } from '../lib/useExportAll';
import { ExportAllNotes } from './ExportAllNotes';
import { ExportLanguage } from './ExportLanguage';
import { OpenFolder } from './OpenFolder';
import './i18n';
import { Button } from '../components/Button';

/** Exports everything: a zip download in the web door, the folder elsewhere (and says where it went). */
export function ExportAll({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation('results');
  const { state, run, reset } = useExportAll(experimentId);
  return (
    <div className="results-export-all">
      <Button
        className="btn btn--primary"
        testId="export-all"
        disabled={state.status === 'busy'}
        onClick={() => void run()}
      >
        {state.status === 'busy' ? t('export.busy') : t('export.all')}
      </Button>
      <ExportLanguage />
      <ExportAllNotes state={state} onConfirm={() => void run(true)} onCancel={reset} />
      {state.status === 'error' && (
        <p className="inline-error" role="alert">
          {t('export.failed', { message: state.error.message })}
        </p>
      )}
      {state.status === 'done' && (
        <div className="results-export-all__done" role="status" data-testid="export-all-result">
          <p>
            {t('export.written', { count: state.result.files.length })}{' '}
            <span className="mono results-export-all__dir">{state.result.dir}</span>
          </p>
          <OpenFolder dir={state.result.dir} />
          <details>
            <summary>{t('export.files')}</summary>
            <ScrollBox as="ul" label={t('export.files')} className="results-export-all__files mono small">
              {state.result.files.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ScrollBox>
          </details>
          <Button className="btn btn--small btn--ghost" onClick={reset}>
            {t('dismiss')}
          </Button>
        </div>
      )}
    </div>
  );
}
