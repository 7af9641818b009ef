// The card's files from the page: the same bytes `judge-lab report-card` writes, made by the core
// in the page's language and saved through the browser's download.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi, toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { useExportLanguage } from '../lib/figure-language';
import { downloadBase64 } from '../results/download';
import { REPORT_CARD_NS } from './i18n';

export const CARD_FORMATS = [
  { label: 'PNG', format: 'png' },
  { label: 'SVG', format: 'svg' },
  { label: 'LaTeX', format: 'tex' },
  { label: 'Markdown', format: 'md' },
  { label: 'CSV', format: 'csv' },
  { label: 'csvGates', format: 'gates-csv' },
  { label: 'JSON', format: 'json' },
] as const;

export function ReportCardDownloads({ model }: { model: string }) {
  const { t } = useTranslation(REPORT_CARD_NS);
  const lang = useExportLanguage();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const download = async (format: (typeof CARD_FORMATS)[number]['format']) => {
    setBusy(format);
    setError(null);
    try {
      downloadBase64(await getApi().call('judges.reportCardFile', { model, format, lang }));
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="results-export" role="group" aria-label={t('download')}>
      {CARD_FORMATS.map((f) => (
        <button
          key={f.format}
          type="button"
          className="btn btn--small"
          data-testid={`card-download-${f.format}`}
          disabled={busy !== null}
          onClick={() => void download(f.format)}
        >
          {f.label === 'csvGates' ? t('csvGates') : f.label}
        </button>
      ))}
      {error && <ErrorPanel title={t('failed')} error={error} />}
    </div>
  );
}
