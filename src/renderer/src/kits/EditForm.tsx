// The frame of a form that edits stored text (a translation, a rewrite): its
// fields, the save failure, and the save and cancel buttons, disabled while saving. The study
// gives the fields and the words; `className` names the form and `<className>__actions` its row.
import { useState, type ReactNode } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { toApiError, type ApiError } from '../api';

export interface EditFormProps {
  className: string;
  testId: string;
  saveTestId: string;
  /** Saves the edit (the form's submit). */
  onSave: () => void;
  onCancel: () => void;
  saving: boolean;
  /** Whether there is something to save (a change, the fields the study requires). */
  canSave: boolean;
  error: ApiError | null;
  words: { saveFailed: string; save: string; saving: string; cancel: string };
  children: ReactNode;
}

export function EditForm(props: EditFormProps) {
  const { className, words, saving } = props;
  return (
    <form
      className={className}
      data-testid={props.testId}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave();
      }}
    >
      {props.children}
      {props.error && <ErrorPanel title={words.saveFailed} error={props.error} />}
      <div className={`${className}__actions`}>
        <button
          type="submit"
          className="btn btn--primary"
          data-testid={props.saveTestId}
          disabled={saving || !props.canSave}
        >
          {saving ? words.saving : words.save}
        </button>
        <button type="button" className="btn btn--ghost" onClick={props.onCancel} disabled={saving}>
          {words.cancel}
        </button>
      </div>
    </form>
  );
}

/**
 * An edit's save: `save` sends it (one call), hands its answer on, and keeps the failure to show;
 * `saving` holds while it is on the wire, and stays after success (the form is closed by then).
 */
export function useEditSave<T>(send: () => Promise<T>, onDone: (answer: T) => void) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      onDone(await send());
    } catch (err) {
      setError(toApiError(err));
      setSaving(false);
    }
  };
  return { saving, error, save };
}
