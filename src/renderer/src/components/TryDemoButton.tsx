import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi, toApiError } from '../api';
import { navigate } from '../stores/route';
import { useWizard } from '../stores/wizard';
import { Button } from './Button';

/** The bundled sample the demo runs on: 20 LLMBar items, four of each subset. */
const DEMO_SAMPLE = 'llmbar-demo';

/**
 * "Try it without API keys": loads the bundled sample (once; a second load is a no-op), fills
 * the wizard with simulated judges and transformer, and opens its summary to start the run.
 */
export function TryDemoButton({ primary = false }: { primary?: boolean }) {
  const { t } = useTranslation();
  const startDemo = useWizard((s) => s.startDemo);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      const { dataset } = await getApi().call('datasets.loadSample', { sampleId: DEMO_SAMPLE });
      startDemo(dataset.id);
      navigate({ name: 'new-experiment' });
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        className={`btn ${primary ? 'btn--primary' : ''}`}
        testId="try-demo"
        disabled={busy}
        title={t('simulated.tryHint')}
        onClick={() => void go()}
      >
        {t('simulated.try')}
      </Button>
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
