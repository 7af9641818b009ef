import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatasetKind } from '../../../shared/domain';
import { getApi, toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { useAppInfo, useDatasets } from '../stores/datasets';
import { useWizard } from '../stores/wizard';
import { Button } from '../components/Button';

const NO_SAMPLES: { id: string; name: string; itemCount: number; kind: DatasetKind }[] = [];

/**
 * The bundled samples a study can read, each loaded and chosen in one click (issue 38 item 2: the
 * TyDi QA and MT-Bench samples had no button anywhere). A sample loaded before is chosen again
 * (loading it twice keeps one copy). `kinds` absent: every sample.
 */
export function SampleButtons({ kinds, testId }: { kinds?: readonly DatasetKind[]; testId: string }) {
  const { t } = useTranslation();
  const samples = useAppInfo((s) => s.info?.samples ?? NO_SAMPLES);
  const setDataset = useWizard((s) => s.setDataset);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const offered = samples.filter((s) => !kinds || kinds.includes(s.kind));
  if (offered.length === 0) return null;
  const load = async (sampleId: string) => {
    setBusy(sampleId);
    setError(null);
    try {
      const { dataset } = await getApi().call('datasets.loadSample', { sampleId });
      await useDatasets.getState().refresh();
      setDataset(dataset.id, dataset.name, dataset.kind);
    } catch (err) {
      setError(toApiError(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="sample-buttons" data-testid={testId}>
      <p className="hint">{t('wizard.samples.intro')}</p>
      <div className="sample-buttons__row">
        {offered.map((s) => (
          <Button
            key={s.id}
            className="btn btn--small"
            testId={`sample-${s.id}`}
            disabled={busy !== null}
            onClick={() => void load(s.id)}
          >
            {busy === s.id
              ? t('wizard.samples.loading', { name: s.name })
              : t('wizard.samples.load', {
                  name: s.name,
                  kind: t(`datasets.kinds.${s.kind}`),
                  count: s.itemCount,
                })}
          </Button>
        ))}
      </div>
      {error && <ErrorPanel title={t('datasets.sampleFailed')} error={error} />}
    </div>
  );
}
