import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi, toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { downloadBase64 } from '../results/download';
import { navigate } from '../stores/route';
import { openSetupEditorOn } from './SetupEditor';
import { Button } from '../components/Button';

/** Reuse an experiment: a copy to change and run, or its config for `judge-lab run`. */
export function ReuseTools({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation();
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const attempt = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(toApiError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        className="btn"
        testId="run-duplicate"
        disabled={busy}
        onClick={() =>
          void attempt(async () => {
            const copy = await getApi().call('experiments.duplicate', { experimentId });
            openSetupEditorOn(copy.id);
            navigate({ name: 'experiment', experimentId: copy.id });
          })
        }
      >
        {t('run.duplicate')}
      </Button>
      <Button
        className="btn"
        testId="run-save-config"
        title={t('run.saveConfigHint')}
        disabled={busy}
        onClick={() =>
          void attempt(async () =>
            downloadBase64(await getApi().call('experiments.cliConfig', { experimentId })),
          )
        }
      >
        {t('run.saveConfig')}
      </Button>
      {error && <ErrorPanel title={t('run.actionFailed')} error={error} onDismiss={() => setError(null)} />}
    </>
  );
}
