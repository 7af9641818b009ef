import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FailedCallView } from '../../../shared/experiments';
import { ApiError, getApi, toApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { ScrollBox } from '../components/ScrollRegion';
import { throttle } from '../lib/throttle';
import { useFormat } from '../lib/useFormat';
import { failureReasonText } from '../results/failure-reason';
import { Button } from '../components/Button';

/** Live refreshes of the open inspector at most this often: each one reads every failed call. */
const REFRESH_MS = 1500;

/** Failed calls by stage and by who made them (a judge, or the stage's other role), in the core's order. */
function groupByStage(failures: FailedCallView[]): { stage: string; who: string; list: FailedCallView[] }[] {
  const groups = new Map<string, { stage: string; who: string; list: FailedCallView[] }>();
  for (const j of failures) {
    const who = j.judge ?? j.kind;
    const key = `${j.stage}\u0000${who}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { stage: j.stage, who, list: [] }));
    g.list.push(j);
  }
  return [...groups.values()];
}

/** One failed call (a verdict or a translation): where it happened, then the model's answer exactly as it came (as text). */
function FailedCall({ j }: { j: FailedCallView }) {
  const { t, i18n } = useTranslation();
  return (
    <details className="failed-answer" data-testid="failed-answer">
      <summary>
        <span className="mono">{j.sourceId}</span> · {j.language}
        {j.order && ` · ${j.order}`}
        {j.attempts > 1 && ` · ${t('run.failures.attempts', { count: j.attempts })}`}
        {' · '}
        <span className="muted">
          {j.reason.split(':')[0]
            ? t(`run.failures.kinds.${j.reason.split(':')[0]}`, { defaultValue: j.reason.split(':')[0] })
            : t('run.failures.unknownReason')}
        </span>
      </summary>
      {j.reason && <p className="failed-answer__reason text">{failureReasonText(j.reason, i18n.language)}</p>}
      <h4 className="prompt-card__role">{t('run.failures.raw')}</h4>
      {j.rawText ? (
        <ScrollBox label={t('run.failures.raw')} className="text failed-answer__raw" data-testid="failed-raw">
          {j.rawText}
        </ScrollBox>
      ) : (
        <p className="empty-note">{t('run.failures.noRaw')}</p>
      )}
    </details>
  );
}

type Loaded =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; failures: FailedCallView[] }
  | { status: 'error'; error: ApiError };

/**
 * Calls that ended failed, counted by reason; once opened, the raw answers of every failed
 * call by stage and judge, refreshed as the run reports new failures (the live inspector).
 */
export function FailuresPanel({
  experimentId,
  failuresByReason,
  cutOffReads = 0,
  openSignal,
}: {
  experimentId: number;
  failuresByReason: Record<string, number>;
  /** Answers cut off at the output limit that were read from their whole fields, not asked again. */
  cutOffReads?: number;
  /** Changes when something outside (a paused judge's link) asks the panel to open. */
  openSignal?: number;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'idle' });
  const reasons = Object.entries(failuresByReason).sort((a, b) => b[1] - a[1]);
  const failedTotal = reasons.reduce((n, [, c]) => n + c, 0);
  const opened = useRef(false);
  // Failure kinds in the UI's language; an unknown kind (a newer core) shows as it came.
  const kindText = (kind: string) => t(`run.failures.kinds.${kind}`, { defaultValue: kind });
  const sectionRef = useRef<HTMLElement>(null);

  const load = useCallback(
    async (quiet = false) => {
      opened.current = true;
      if (!quiet) setLoaded({ status: 'loading' });
      try {
        const { rows } = await getApi().call('experiments.failures', { experimentId });
        setLoaded({ status: 'done', failures: rows });
      } catch (err) {
        setLoaded({ status: 'error', error: toApiError(err) });
      }
    },
    [experimentId],
  );
  const refresh = useMemo(() => throttle(() => void load(true), REFRESH_MS), [load]);
  useEffect(() => () => refresh.cancel(), [refresh]);
  // New failures while the inspector is open: read them again (throttled), keeping what shows.
  useEffect(() => {
    if (opened.current) refresh();
  }, [failedTotal, refresh]);
  useEffect(() => {
    if (!openSignal) return;
    if (!opened.current) void load();
    sectionRef.current?.scrollIntoView({ block: 'start' });
    sectionRef.current?.focus();
  }, [openSignal, load]);

  if (reasons.length === 0 && cutOffReads === 0) return null;

  return (
    <section
      className="run-card"
      id="run-failures"
      ref={sectionRef}
      tabIndex={-1}
      data-testid="run-failures"
      aria-labelledby="failures-title"
    >
      <h2 id="failures-title" className="run-card__title">
        {t('run.failures.title')}
      </h2>
      <p className="hint">
        {t('run.failures.intro')} {t('run.failures.live')}
      </p>
      <ul className="reason-list">
        {reasons.map(([reason, count]) => (
          <li key={reason} className="reason-list__row">
            <span className="text" data-kind={reason}>
              {kindText(reason)}
            </span>
            <span className="num">{f.number(count)}</span>
          </li>
        ))}
        {cutOffReads > 0 && (
          <li className="reason-list__row" data-testid="cut-off-reads">
            <span className="text muted">{t('run.failures.cutOffReads')}</span>
            <span className="num">{f.number(cutOffReads)}</span>
          </li>
        )}
      </ul>
      {loaded.status === 'idle' && (
        <Button className="btn btn--small" testId="show-failed" onClick={() => void load()}>
          {t('run.failures.show')}
        </Button>
      )}
      {loaded.status === 'loading' && <p className="empty-note">{t('common.loading')}</p>}
      {loaded.status === 'error' && (
        <ErrorPanel title={t('run.failures.loadFailed')} error={loaded.error} onRetry={() => void load()} />
      )}
      {loaded.status === 'done' &&
        (loaded.failures.length === 0 ? (
          <p className="empty-note">{t('run.failures.noneJudgments')}</p>
        ) : (
          groupByStage(loaded.failures).map(({ stage, who, list }) => (
            <div
              key={`${stage}|${who}`}
              className="failure-group"
              data-testid="failure-group"
              data-stage={stage}
              data-who={who}
            >
              <h3 className="failure-group__title">
                <span className="text">{t('run.failures.groupTitle', { stage, who })}</span>{' '}
                <span className="muted">({f.number(list.length)})</span>
              </h3>
              {list.map((j, i) => (
                <FailedCall key={`${j.itemId}|${j.language}|${j.order}|${i}`} j={j} />
              ))}
            </div>
          ))
        ))}
    </section>
  );
}
