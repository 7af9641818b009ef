import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PreregistrationLock, PreregistrationView } from '../../../shared/paper/preregistration';
import { getApi } from '../api';
import { toApiError } from '../api/errors';
import { ErrorPanel } from '../components/ErrorPanel';
import { useFigureLanguage } from '../lib/figure-language';
import { downloadText } from '../results/download';
import { Deviations } from './Deviations';
import { useComparisonLabels } from './labels';
import { LockView } from './LockView';
import { PlanForm } from './PlanForm';
import { usePreregistration } from './usePreregistration';
import './i18n';
import './prereg.css';
import { Button } from '../components/Button';
import { RunCard } from '../components/RunCard';

type Download = { status: 'idle' } | { status: 'busy' } | { status: 'error'; message: string };

/**
 * An experiment's preregistration (issue 24 part 2): the lock form while nothing is locked;
 * then the lock in force (read-only), the deviations, preregistration.md in the page's language,
 * and a form that supersedes the lock with a reason (a lock is never edited).
 */
export function PreregPanel({ experimentId, protocol }: { experimentId: number; protocol: string }) {
  const { t } = useTranslation('prereg');
  const lang = useFigureLanguage();
  const { view, error, reload, setView } = usePreregistration(experimentId);
  const labels = useComparisonLabels(protocol, view?.comparisons ?? []);
  const [superseding, setSuperseding] = useState(false);
  const [download, setDownload] = useState<Download>({ status: 'idle' });

  const save = async () => {
    setDownload({ status: 'busy' });
    try {
      const doc = await getApi().call('experiments.preregistration', { experimentId, lang });
      downloadText('preregistration.md', 'text/markdown', doc.markdown);
      setDownload({ status: 'idle' });
    } catch (err) {
      setDownload({ status: 'error', message: toApiError(err).message });
    }
  };
  const locked = (v: PreregistrationView) => {
    setView(v);
    setSuperseding(false);
  };

  let body;
  if (error && !view) body = <ErrorPanel title={t('loadFailed')} error={error} onRetry={reload} />;
  else if (!view) body = <p className="small muted">{t('loading')}</p>;
  else if (!view.active)
    body = (
      <>
        <p className="hint">{t('none')}</p>
        <PlanForm
          experimentId={experimentId}
          comparisons={view.comparisons.map((c) => ({ id: c.id, label: labels.get(c.id) ?? c.label }))}
          current={null}
          onLocked={locked}
          answersStored={view.answersStored}
        />
      </>
    );
  else
    body = (
      <>
        <LockView view={view as PreregistrationView & { active: PreregistrationLock }} labels={labels} />
        <Deviations deviations={view.deviations} />
        <div className="prereg__actions">
          <Button
            className="btn"
            testId="prereg-download"
            disabled={download.status === 'busy'}
            onClick={() => void save()}
          >
            {download.status === 'busy' ? t('lock.downloadBusy') : t('lock.download')}
          </Button>
          {!superseding && (
            <Button className="btn btn--ghost" testId="prereg-supersede" onClick={() => setSuperseding(true)}>
              {t('lock.supersede')}
            </Button>
          )}
        </div>
        {download.status === 'error' && (
          <p className="inline-error" role="alert">
            {t('lock.downloadFailed', { message: download.message })}
          </p>
        )}
        {superseding && (
          <PlanForm
            experimentId={experimentId}
            comparisons={view.comparisons.map((c) => ({ id: c.id, label: labels.get(c.id) ?? c.label }))}
            current={view.active.plan}
            onLocked={locked}
            onCancel={() => setSuperseding(false)}
          />
        )}
      </>
    );

  return (
    <RunCard className="prereg" testId="prereg-panel" title={t('title')}>
      {body}
    </RunCard>
  );
}
