import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FailedCallView } from '../../../shared/experiments';
import { ApiError, getApi, toApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { useFormat } from '../lib/useFormat';

function groupByReason(failures: FailedCallView[]): [string, FailedCallView[]][] {
  const groups = new Map<string, FailedCallView[]>();
  for (const j of failures) {
    const reason = j.reason;
    const list = groups.get(reason) ?? [];
    list.push(j);
    groups.set(reason, list);
  }
  return [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
}

/** One failed call (a verdict or a translation): where it happened, then the model's answer exactly as it came (as text). */
function FailedCall({ j }: { j: FailedCallView }) {
  const { t } = useTranslation();
  return (
    <details className="failed-answer" data-testid="failed-answer">
      <summary>
        <span className="mono">{j.sourceId}</span> · {j.judge ?? j.kind} · {j.language}
        {j.order && ` · ${j.order}`}
        {j.attempts > 1 && ` · ${t('run.failures.attempts', { count: j.attempts })}`}
      </summary>
      {j.reason && <p className="failed-answer__reason text">{j.reason}</p>}
      <h4 className="prompt-card__role">{t('run.failures.raw')}</h4>
      {j.rawText ? (
        <pre className="text failed-answer__raw" data-testid="failed-raw">
          {j.rawText}
        </pre>
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

/** Calls that ended failed, counted by reason; the raw answers of failed verdicts and translations one click away. */
export function FailuresPanel({
  experimentId,
  failuresByReason,
}: {
  experimentId: number;
  failuresByReason: Record<string, number>;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'idle' });
  const reasons = Object.entries(failuresByReason).sort((a, b) => b[1] - a[1]);
  if (reasons.length === 0) return null;

  const load = async () => {
    setLoaded({ status: 'loading' });
    try {
      const { rows } = await getApi().call('experiments.failures', { experimentId });
      setLoaded({ status: 'done', failures: rows });
    } catch (err) {
      setLoaded({ status: 'error', error: toApiError(err) });
    }
  };

  return (
    <section className="run-card" data-testid="run-failures" aria-labelledby="failures-title">
      <h2 id="failures-title" className="run-card__title">
        {t('run.failures.title')}
      </h2>
      <p className="hint">{t('run.failures.intro')}</p>
      <ul className="reason-list">
        {reasons.map(([reason, count]) => (
          <li key={reason} className="reason-list__row">
            <span className="text">{reason}</span>
            <span className="num">{f.number(count)}</span>
          </li>
        ))}
      </ul>
      {loaded.status === 'idle' && (
        <button
          type="button"
          className="btn btn--small"
          data-testid="show-failed"
          onClick={() => void load()}
        >
          {t('run.failures.show')}
        </button>
      )}
      {loaded.status === 'loading' && <p className="empty-note">{t('common.loading')}</p>}
      {loaded.status === 'error' && (
        <ErrorPanel title={t('run.failures.loadFailed')} error={loaded.error} onRetry={() => void load()} />
      )}
      {loaded.status === 'done' &&
        (loaded.failures.length === 0 ? (
          <p className="empty-note">{t('run.failures.noneJudgments')}</p>
        ) : (
          groupByReason(loaded.failures).map(([reason, list]) => (
            <div key={reason} className="failure-group">
              <h3 className="failure-group__title">
                <span className="text">{reason || t('run.failures.unknownReason')}</span>{' '}
                <span className="muted">({f.number(list.length)})</span>
              </h3>
              {list.map((j, i) => (
                <FailedCall key={`${j.stage}|${j.judge}|${j.itemId}|${j.language}|${j.order}|${i}`} j={j} />
              ))}
            </div>
          ))
        ))}
    </section>
  );
}
