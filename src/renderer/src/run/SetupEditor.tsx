// The setup of an experiment that has not started, as the config `judge-lab run` reads (the
// dataset by its id here), edited in place: a duplicate is changed before it runs (issue 38).
// The core checks it as it checks a new experiment and refuses it once anything was planned.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi, toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { Button } from '../components/Button';
import { RunCard } from '../components/RunCard';

// The copy Duplicate just made: its run page opens with the editor, since a copy is made to be
// changed. Held here for the one page that opens next, not in the URL (a reload shows the page).
let openOnArrival: number | null = null;

export function openSetupEditorOn(experimentId: number): void {
  openOnArrival = experimentId;
}

/** Whether the run page of `experimentId` opens with the editor (a pure read: React may ask twice). */
export function setupEditorRequested(experimentId: number): boolean {
  return openOnArrival === experimentId;
}

/** The run page has opened: a later visit to the copy opens as any other. */
export function clearSetupEditorRequest(): void {
  openOnArrival = null;
}

export function SetupEditor({
  experimentId,
  config,
  onClose,
}: {
  experimentId: number;
  config: unknown;
  /** Called after a save (saved: true) or a cancel. */
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => JSON.stringify(config, null, 2));
  const [error, setError] = useState<Pick<ApiError, 'message' | 'issues'> | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setError({ message: t('run.setup.notJson', { message: (e as Error).message }), issues: [] });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await getApi().call('experiments.editSetup', { experimentId, config: parsed });
      onClose(true);
    } catch (err) {
      setError(toApiError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <RunCard
      className="setup-editor"
      testId="setup-editor"
      title={t('run.setup.title')}
      hint={t('run.setup.hint')}
    >
      <label className="setup-editor__field">
        <span>{t('run.setup.label')}</span>
        <textarea
          className="setup-editor__text"
          data-testid="setup-editor-text"
          rows={18}
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <div className="setup-editor__actions">
        <Button
          className="btn btn--primary"
          testId="setup-editor-save"
          disabled={busy}
          onClick={() => void save()}
        >
          {t('run.setup.save')}
        </Button>
        <Button className="btn btn--ghost" disabled={busy} onClick={() => onClose(false)}>
          {t('common.cancel')}
        </Button>
      </div>
      {error && (
        <ErrorPanel
          title={t('run.setup.failed')}
          error={error}
          testId="setup-editor-error"
          onDismiss={() => setError(null)}
        />
      )}
    </RunCard>
  );
}
