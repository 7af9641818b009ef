// One export the core writes on request (the Methods text, the study bundle): a button that runs
// it once at a time, says it is busy, says why it failed, and shows what it wrote.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type ApiError } from '../api/errors';
import '../results/i18n';

export type ExportState<T> =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done'; result: T }
  | { status: 'error'; error: ApiError };

export function ExportAction<T>({
  testId,
  label,
  busyLabel,
  run,
  done,
}: {
  testId: string;
  label: string;
  busyLabel: string;
  /** Asks the core for the export (and saves it, where saving is the page's part). */
  run: () => Promise<T>;
  /** What the finished export shows; `dismiss` hides it again. */
  done: (result: T, dismiss: () => void) => ReactNode;
}) {
  const { t } = useTranslation('results');
  const [state, setState] = useState<ExportState<T>>({ status: 'idle' });
  const start = async () => {
    setState({ status: 'busy' });
    try {
      setState({ status: 'done', result: await run() });
    } catch (err) {
      setState({ status: 'error', error: toApiError(err) });
    }
  };
  return (
    <div className="results-export-methods">
      <button
        type="button"
        className="btn"
        data-testid={testId}
        disabled={state.status === 'busy'}
        onClick={() => void start()}
      >
        {state.status === 'busy' ? busyLabel : label}
      </button>
      {state.status === 'error' && (
        <p className="inline-error" role="alert">
          {t('export.failed', { message: state.error.message })}
        </p>
      )}
      {state.status === 'done' && done(state.result, () => setState({ status: 'idle' }))}
    </div>
  );
}
