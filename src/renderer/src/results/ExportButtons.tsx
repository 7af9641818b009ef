import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParamsOf } from '../../../shared/api';
import { getApi, toApiError } from '../api';
import { useReadOnlyBundle } from '../api/scope';
import { downloadBase64 } from './download';
import './i18n';
import { useExportLanguage } from '../lib/figure-language';

type Target = ParamsOf<'experiments.exportFile'>['target'];

const TABLE_FORMATS = [
  { label: 'CSV', format: 'csv' },
  { label: 'XLSX', format: 'xlsx' },
  { label: 'LaTeX', format: 'tex' },
] as const;
const FIGURE_FORMATS = [
  { label: 'SVG', format: 'svg' },
  { label: 'PNG', format: 'png' },
] as const;

/** The export buttons of a table: tables/<id>.csv, .xlsx, .tex. */
export function tableTargets(table: string): { label: string; target: Target }[] {
  return TABLE_FORMATS.map((f) => ({ label: f.label, target: { table, format: f.format } }));
}

/** The export buttons of a figure: figures/<id>.svg, .png. */
export function figureTargets(figure: string): { label: string; target: Target }[] {
  return FIGURE_FORMATS.map((f) => ({ label: f.label, target: { figure, format: f.format } }));
}

interface ExportButtonsProps {
  experimentId: number;
  sensitivity: boolean;
  targets: { label: string; target: Target }[];
  /** What is being exported, for screen readers ("Export Quality as CSV"). */
  what: string;
}

/** One button per format; the core writes the file, the browser saves it. */
export function ExportButtons({ experimentId, sensitivity, targets, what }: ExportButtonsProps) {
  const { t } = useTranslation('results');
  const [busy, setBusy] = useState<string | null>(null);
  const lang = useExportLanguage();
  const [error, setError] = useState<string | null>(null);
  // An opened bundle holds its exported files already; nothing is exported from its replay.
  const inBundle = useReadOnlyBundle();

  const run = async (label: string, target: Target) => {
    setBusy(label);
    setError(null);
    try {
      const file = await getApi().call('experiments.exportFile', { experimentId, target, sensitivity, lang });
      downloadBase64(file);
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(null);
    }
  };

  if (inBundle) return null;
  return (
    <div className="results-export">
      {targets.map(({ label, target }) => (
        <button
          key={label}
          type="button"
          className="btn btn--small"
          disabled={busy !== null}
          aria-label={t('export.as', { what, format: label })}
          onClick={() => void run(label, target)}
        >
          {busy === label ? t('export.busy') : label}
        </button>
      ))}
      {error && (
        <span className="inline-error results-export__error" role="alert">
          {t('export.failed', { message: error })}
        </span>
      )}
    </div>
  );
}
