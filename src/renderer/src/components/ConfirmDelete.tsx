// Deleting a row of a list page (a dataset, an experiment): asked first, then confirmed or
// cancelled in place; a refused delete says why and leaves the row as it was.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiError, toApiError } from '../api';

/** The ask-confirm-delete state of one row; `remove` deletes it, `onDeleted` runs after. */
export function useConfirmedDelete(remove: () => Promise<void>, onDeleted: () => void) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const confirm = async () => {
    setBusy(true);
    try {
      await remove();
      onDeleted();
    } catch (err) {
      setError(toApiError(err));
      setBusy(false);
      setConfirming(false);
    }
  };
  return {
    confirming,
    busy,
    error,
    ask: () => setConfirming(true),
    cancel: () => setConfirming(false),
    confirm,
  };
}

/** The question with its yes and cancel buttons, both off while the delete runs. */
export function ConfirmDelete({
  label,
  question,
  yes,
  state,
}: {
  label: string;
  question: string;
  yes: string;
  state: ReturnType<typeof useConfirmedDelete>;
}) {
  const { t } = useTranslation();
  return (
    <div className="confirm" role="group" aria-label={label}>
      <span className="confirm__text">{question}</span>
      <button
        type="button"
        className="btn btn--small btn--danger"
        onClick={() => void state.confirm()}
        disabled={state.busy}
      >
        {yes}
      </button>
      <button
        type="button"
        className="btn btn--small btn--ghost"
        onClick={state.cancel}
        disabled={state.busy}
      >
        {t('common.cancel')}
      </button>
    </div>
  );
}
