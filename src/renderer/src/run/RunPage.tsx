import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumb, PageHeader } from '../kits/PageFrame';
import type { ExperimentDetail, ExperimentProgress, PhaseProgress } from '../../../shared/experiments';
import { ApiError, getApi, toApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { ScrollBox } from '../components/ScrollRegion';
import { SplitBar } from '../components/SplitBar';
import { StatusBadge } from '../components/StatusBadge';
import { runOutcome } from '../../../shared/run-status-text';
import { useExportAll, useExportDownloadsZip } from '../lib/useExportAll';
import { ExportAllNotes } from '../results/ExportAllNotes';
import { ExportLanguage } from '../results/ExportLanguage';
import { OpenFolder } from '../results/OpenFolder';
import { useFormat } from '../lib/useFormat';
import { routeHref } from '../stores/route';
import { failureReasonText } from '../results/failure-reason';
import { batchStatusText } from './batch-status';
import { PreregPanel } from '../preregistration/PreregPanel';
import { FailuresPanel } from './FailuresPanel';
import { ProtocolPageLinks } from './ProtocolPageLinks';
import { ReuseTools } from './ReuseTools';
import { ClusterBatchFiles } from './ClusterBatchFiles';
import { clearSetupEditorRequest, SetupEditor, setupEditorRequested } from './SetupEditor';
import { AnnotationLink } from '../annotation/link';
import { Button } from '../components/Button';
import { RunCard } from '../components/RunCard';

const NO_CALLS: PhaseProgress = { total: 0, done: 0, failed: 0, cacheHits: 0, inFlight: 0, pending: 0 };

type Action = 'start' | 'pause' | 'resume' | 'cancel' | 'retryFailed' | 'resumeJudge';

function ProgressRow({ label, p, testId }: { label: string; p: PhaseProgress; testId?: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <div className="phase-row" data-testid={testId} data-done={p.done} data-total={p.total}>
      <div className="phase-row__head">
        <span className="phase-row__label">{label}</span>
        <span className="phase-row__count num">
          {t('run.doneOf', { done: f.number(p.done), total: f.number(p.total) })}
        </span>
      </div>
      <SplitBar
        total={p.total}
        done={p.done}
        failed={p.failed}
        label={`${label}: ${t('run.barLabel', { done: p.done, failed: p.failed, total: p.total })}`}
      />
      <div className="phase-row__detail small muted">
        {p.cacheHits > 0 && <span>{t('run.cacheHits', { count: p.cacheHits })}</span>}
        {p.inFlight > 0 && <span>{t('run.inFlight', { count: p.inFlight })}</span>}
        {p.pending > 0 && <span>{t('run.pending', { count: p.pending })}</span>}
        {p.failed > 0 && <span className="text-danger">{t('run.failedCount', { count: p.failed })}</span>}
      </div>
    </div>
  );
}

function ExportBox({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation();
  const { state, run, reset } = useExportAll(experimentId);
  const zip = useExportDownloadsZip();
  return (
    <RunCard
      title={t('run.export.title')}
      hint={t(zip ? 'run.export.introZip' : 'run.export.intro')}
      hintTestId="export-intro"
    >
      <Button
        className="btn"
        testId="export-all"
        disabled={state.status === 'busy'}
        onClick={() => void run()}
      >
        {state.status === 'busy' ? t('run.export.busy') : t('run.export.button')}
      </Button>{' '}
      <ExportLanguage />
      {state.status === 'busy' && (
        <div className="progress-card" role="status">
          <span className="progress-card__label">{t('run.export.busy')}</span>
          <progress aria-label={t('run.export.busy')} />
        </div>
      )}
      <ExportAllNotes state={state} onConfirm={() => void run(true)} onCancel={reset} />
      {state.status === 'error' && <ErrorPanel title={t('run.export.failed')} error={state.error} />}
      {state.status === 'done' && (
        <div className="export-result" data-testid="export-result" role="status">
          <p>
            {t('run.export.done', { count: state.result.files.length })}{' '}
            <code className="mono export-result__dir">{state.result.dir}</code>
          </p>
          <OpenFolder dir={state.result.dir} />
          <ScrollBox as="ul" label={t('run.export.files')} className="file-list mono small">
            {state.result.files.map((file) => (
              <li key={file}>{file}</li>
            ))}
          </ScrollBox>
        </div>
      )}
    </RunCard>
  );
}

export function RunPage({ experimentId }: { experimentId: number }) {
  const { t, i18n } = useTranslation();
  const f = useFormat();
  const [detail, setDetail] = useState<ExperimentDetail | null>(null);
  const [progress, setProgress] = useState<ExperimentProgress | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);
  const [showFailures, setShowFailures] = useState(0);
  const [editingSetup, setEditingSetup] = useState(() => setupEditorRequested(experimentId));
  useEffect(clearSetupEditorRequest, []);

  const load = useCallback(async () => {
    try {
      const [d, p] = await Promise.all([
        getApi().call('experiments.get', { experimentId }),
        getApi().call('experiments.progress', { experimentId }),
      ]);
      setDetail(d);
      setProgress((cur) => (cur && cur.updatedAt > p.updatedAt ? cur : p));
      setLoadError(null);
    } catch (err) {
      setLoadError(toApiError(err));
    }
  }, [experimentId]);

  useEffect(() => {
    void load();
    const api = getApi();
    const offProgress = api.on('run.progress', (p) => {
      if (p.experimentId === experimentId) setProgress(p);
    });
    const offChanged = api.on('experiments.changed', ({ experimentId: id }) => {
      if (id === null || id === experimentId) void load();
    });
    return () => {
      offProgress();
      offChanged();
    };
  }, [experimentId, load]);

  const act = async (action: Action, judge?: string) => {
    setBusy(action);
    setActionError(null);
    try {
      setProgress(
        action === 'resumeJudge'
          ? await getApi().call('experiments.resumeJudge', { experimentId, judge: judge ?? '' })
          : await getApi().call(`experiments.${action}`, { experimentId }),
      );
    } catch (err) {
      setActionError(toApiError(err));
    } finally {
      setBusy(null);
    }
  };
  // The run's own actions (start, pause, …): one button each, all off while one is under way.
  const actionButton = (action: Action, className: string, label: string, testId = `run-${action}`) => (
    <Button className={className} testId={testId} disabled={busy !== null} onClick={() => void act(action)}>
      {label}
    </Button>
  );

  if (loadError && !detail) {
    return (
      <div className="page">
        <ErrorPanel
          title={loadError.code === 'not_found' ? t('run.notFound') : t('run.loadFailed')}
          error={loadError}
          onRetry={() => void load()}
        />
        <p>
          <a className="btn" href={routeHref({ name: 'experiments' })}>
            {t('run.backToList')}
          </a>
        </p>
      </div>
    );
  }
  if (!detail || !progress) return <p className="page empty-note">{t('common.loading')}</p>;

  const status = progress.status;
  // The plan's calls, each stage once: a finished run whose calls mostly failed says so.
  const calls = Object.values(progress.phases).reduce(
    (c, g) => ({ done: c.done + g.done, failed: c.failed + g.failed }),
    { done: 0, failed: 0 },
  );
  const shown = runOutcome(status, calls);
  const running = status === 'running';
  const paused = status === 'paused';
  const totalFailed = Object.values(progress.failuresByReason).reduce((a, b) => a + b, 0);
  const missingKeys = Object.entries(detail.keys)
    .filter(([, s]) => s === 'missing')
    .map(([name]) => name);
  const judgeNames = Object.keys(progress.judges);
  // The protocol's stages in order (older cores sent none: then the stages that have counts).
  const stageNames = progress.stages?.length ? progress.stages : Object.keys(progress.phases);
  const canStart = status === 'draft' || status === 'cancelled' || status === 'failed';
  // Nothing planned, nothing sent: no answer depends on the setup yet, so it may still change.
  const setupEditable = status === 'draft' && detail.counts.planned === 0;

  return (
    <div className="page run">
      <Breadcrumb current={detail.name}>
        <a href={routeHref({ name: 'experiments' })}>{t('experiments.title')}</a>
      </Breadcrumb>
      <PageHeader
        compact
        title={detail.name}
        intro={
          <>
            {detail.datasetName} · {t('datasets.itemCount', { count: detail.itemCount })} ·{' '}
            {detail.judges.join(', ')}
          </>
        }
        tools={
          <>
            <ProtocolPageLinks protocol={detail.protocol} experimentId={experimentId} />
            <ReuseTools experimentId={experimentId} />
            {setupEditable && !editingSetup && (
              <Button className="btn" testId="run-edit-setup" onClick={() => setEditingSetup(true)}>
                {t('run.setup.edit')}
              </Button>
            )}
            <AnnotationLink experimentId={experimentId} />
            <a
              className="btn btn--primary"
              href={routeHref({ name: 'results', experimentId })}
              data-testid="run-results"
            >
              {running ? t('run.resultsSoFar') : t('run.results')}
            </a>
          </>
        }
      />

      {setupEditable && editingSetup && (
        <SetupEditor
          experimentId={experimentId}
          config={detail.config}
          onClose={(saved) => {
            setEditingSetup(false);
            if (saved) void load();
          }}
        />
      )}

      <section className="run-card run-status" aria-labelledby="status-title">
        <div className="run-status__line">
          <h2 id="status-title" className="visually-hidden">
            {t('run.statusTitle')}
          </h2>
          <span data-testid="run-status" className="run-status__word">
            <StatusBadge status={status} calls={calls} />
          </span>
          <span className="muted">{t(`run.statusText.${shown}`)}</span>
          <div className="run-status__actions">
            {canStart &&
              actionButton(
                'start',
                'btn btn--primary',
                status === 'draft' ? t('run.start') : t('run.continue'),
              )}
            {running && actionButton('pause', 'btn', t('run.pause'))}
            {paused && actionButton('resume', 'btn btn--primary', t('run.resume'))}
            {(running || paused) && actionButton('cancel', 'btn btn--ghost', t('run.cancel'))}
            {totalFailed > 0 &&
              !running &&
              actionButton('retryFailed', 'btn', t('run.retryFailed', { count: totalFailed }), 'run-retry')}
            {busy && <span className="spinner" aria-hidden="true" />}
          </div>
        </div>
        {progress.message && (
          <p className="run-status__message text">{failureReasonText(progress.message, i18n.language)}</p>
        )}
        {actionError && (
          <ErrorPanel
            title={t('run.actionFailed')}
            error={actionError}
            onDismiss={() => setActionError(null)}
          />
        )}
        {missingKeys.length > 0 && (
          <p className="inline-error" role="alert">
            {t('run.missingKeys', { names: missingKeys.join(', ') })}
          </p>
        )}
      </section>

      {progress.batches && progress.batches.length > 0 && (
        <RunCard testId="run-batches" title={t('run.batches.title')} hint={t('run.batches.intro')}>
          <table className="datasets-table">
            <thead>
              <tr>
                <th>{t('run.batches.batch')}</th>
                <th>{t('run.batches.model')}</th>
                <th className="num">{t('run.batches.requests')}</th>
                <th className="num">{t('run.batches.finished')}</th>
                <th>{t('run.batches.status')}</th>
                <th>{t('run.batches.submitted')}</th>
              </tr>
            </thead>
            <tbody>
              {progress.batches.map((b) => (
                <tr key={b.id} data-testid="run-batch" data-status={b.status}>
                  <td className="mono">{b.remoteId ?? `#${b.id}`}</td>
                  <td className="mono">{b.model}</td>
                  <td className="num">{f.number(b.requests)}</td>
                  <td className="num">{f.number(b.finished)}</td>
                  <td>{batchStatusText(t, b.status, b.remoteStatus)}</td>
                  <td>{f.dateTime(b.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </RunCard>
      )}

      {progress.pausedLanes.length > 0 && (
        <RunCard
          className="run-card--warn"
          testId="paused-lanes"
          title={t('run.lanes.title')}
          hint={t('run.lanes.intro')}
        >
          <ul className="lane-list">
            {progress.pausedLanes.map((l) => (
              <li key={`${l.endpoint}|${l.model}`} data-testid="paused-lane" data-kind={l.kind}>
                <strong className="mono">{l.model}</strong>{' '}
                <span className="muted small">({l.endpoint})</span>
                <p className="text">{failureReasonText(l.reason, i18n.language)}</p>
                {l.kind === 'early_warning' && l.label && (
                  <div className="lane-list__actions">
                    <p className="hint">{t('run.lanes.earlyWarning')}</p>
                    <Button
                      className="btn btn--small"
                      testId="show-judge-failures"
                      onClick={() => setShowFailures((n) => n + 1)}
                    >
                      {t('run.lanes.showFailures')}
                    </Button>{' '}
                    <Button
                      className="btn btn--small btn--primary"
                      testId="resume-judge"
                      disabled={busy !== null}
                      onClick={() => void act('resumeJudge', l.label)}
                    >
                      {t('run.lanes.resumeJudge')}
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </RunCard>
      )}

      <RunCard title={t('run.progressTitle')}>
        {stageNames.map((name) => (
          <ProgressRow
            key={name}
            label={t(`run.phase.${name}`, { defaultValue: name })}
            testId={`run-phase-${name}`}
            p={progress.phases[name] ?? NO_CALLS}
          />
        ))}
        {judgeNames.length > 0 && (
          <div className="judge-progress">
            <h3 className="wizard-step__subtitle">{t('run.perJudge')}</h3>
            {judgeNames.map((name) => (
              <ProgressRow key={name} label={name} p={progress.judges[name]} testId="run-judge" />
            ))}
          </div>
        )}
        <dl className="stats">
          <div>
            <dt>{t('run.stats.rate')}</dt>
            <dd data-testid="run-rate">{f.number(Math.round(progress.callsPerMinute))}</dd>
          </div>
          <div>
            <dt>{t('run.stats.eta')}</dt>
            <dd data-testid="run-eta">
              {progress.etaSeconds === null || !running ? '—' : f.duration(progress.etaSeconds)}
            </dd>
          </div>
          <div>
            <dt>{t('run.stats.tokens')}</dt>
            <dd>
              {t('run.stats.tokensValue', {
                input: f.compact(progress.tokens.input),
                output: f.compact(progress.tokens.output),
              })}
              {progress.tokens.cached > 0 && (
                <span className="muted small">
                  {' '}
                  · {t('run.stats.cached', { n: f.compact(progress.tokens.cached) })}
                </span>
              )}
            </dd>
          </div>
          <div>
            <dt>{t('run.stats.spend')}</dt>
            <dd data-testid="run-spend">{f.usd(progress.costUsd)}</dd>
          </div>
        </dl>
      </RunCard>

      <FailuresPanel
        experimentId={experimentId}
        failuresByReason={progress.failuresByReason}
        cutOffReads={progress.cutOffReads ?? 0}
        openSignal={showFailures}
      />
      <ExportBox experimentId={experimentId} />
      <ClusterBatchFiles experimentId={experimentId} />
      <PreregPanel experimentId={experimentId} protocol={detail.protocol} />
    </div>
  );
}
