// "Apply mapping" beside the calibration mapping: pick the judge and a target experiment of the
// same protocol that has a judge of that label (the core checks model and rubric too and says
// why it refuses), apply, and see the calibrated scores.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalibratedRow } from '../../../shared/annotation/calibrate';
import type { ExperimentSummary } from '../../../shared/experiments';
import { getApi, toApiError } from '../api';
import './apply-mapping-i18n';

const SHOWN = 20;

interface Applied {
  rows: CalibratedRow[];
  category: 'per-category' | 'all';
  mappingId: number;
}

export function ApplyMapping({ setId, judges }: { setId: number; judges: string[] }) {
  const { t } = useTranslation('annotation');
  const [experiments, setExperiments] = useState<ExperimentSummary[] | null>(null);
  const [judge, setJudge] = useState(judges[0] ?? '');
  const [targetId, setTargetId] = useState<number | null>(null);
  const [targetJudge, setTargetJudge] = useState('');
  const [busy, setBusy] = useState(false);
  const [applied, setApplied] = useState<Applied | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const api = getApi();
    void (async () => {
      try {
        const set = await api.call('annotation.getSet', { setId });
        const all = await api.call('experiments.list');
        const source = all.find((e) => e.id === set.experimentId);
        // Only the source's protocol can take its mapping; the core checks the rest.
        if (live) setExperiments(source ? all.filter((e) => e.protocol === source.protocol) : []);
      } catch (e) {
        if (live) setError(toApiError(e).message);
      }
    })();
    return () => {
      live = false;
    };
  }, [setId]);

  const targets = useMemo(
    () => (experiments ?? []).filter((e) => e.judges.includes(judge)),
    [experiments, judge],
  );
  const target = targets.find((e) => e.id === targetId) ?? targets[0] ?? null;
  const chosenTargetJudge = target && target.judges.includes(targetJudge) ? targetJudge : judge;

  const apply = async () => {
    if (!target) return;
    setBusy(true);
    setError(null);
    setApplied(null);
    try {
      setApplied(
        await getApi().call('annotation.applyMapping', {
          setId,
          judge,
          experimentId: target.id,
          ...(chosenTargetJudge === judge ? {} : { targetJudge: chosenTargetJudge }),
        }),
      );
    } catch (e) {
      setError(toApiError(e).message);
    } finally {
      setBusy(false);
    }
  };

  if (experiments === null && !error) return null;
  return (
    <div className="apply-mapping" data-testid="apply-mapping">
      <h3>{t('applyMapping.title')}</h3>
      <p className="muted">{t('applyMapping.intro')}</p>
      <div className="agreement__tools">
        <label>
          {t('applyMapping.judge')}{' '}
          <select value={judge} onChange={(e) => setJudge(e.target.value)} data-testid="apply-mapping-judge">
            {judges.map((j) => (
              <option key={j} value={j}>
                {j}
              </option>
            ))}
          </select>
        </label>
        {targets.length > 0 && target && (
          <>
            <label>
              {t('applyMapping.target')}{' '}
              <select
                value={target.id}
                onChange={(e) => setTargetId(Number(e.target.value))}
                data-testid="apply-mapping-target"
              >
                {targets.map((e) => (
                  <option key={e.id} value={e.id}>
                    {e.name}
                  </option>
                ))}
              </select>
            </label>
            {target.judges.length > 1 && (
              <label>
                {t('applyMapping.targetJudge')}{' '}
                <select value={chosenTargetJudge} onChange={(e) => setTargetJudge(e.target.value)}>
                  {target.judges.map((j) => (
                    <option key={j} value={j}>
                      {j}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => void apply()}
              data-testid="apply-mapping-button"
            >
              {busy ? t('applyMapping.applying') : t('applyMapping.apply')}
            </button>
          </>
        )}
      </div>
      {targets.length === 0 && experiments !== null && <p className="muted">{t('applyMapping.noTargets')}</p>}
      {error && (
        <p className="text-danger" role="alert" data-testid="apply-mapping-error">
          {error}
        </p>
      )}
      {applied && (
        <div data-testid="apply-mapping-result">
          <p role="status">
            {t('applyMapping.done', {
              count: applied.rows.length,
              category: t(applied.category === 'all' ? 'applyMapping.all' : 'applyMapping.perCategory'),
              id: applied.mappingId,
            })}
          </p>
          {applied.rows.length > SHOWN && (
            <p className="muted">{t('applyMapping.shown', { shown: SHOWN, count: applied.rows.length })}</p>
          )}
          <div className="results-table__scroll agreement__table">
            <table className="results-table">
              <thead>
                <tr>
                  <th>{t('applyMapping.item')}</th>
                  <th>{t('applyMapping.category')}</th>
                  <th className="num">{t('applyMapping.raw')}</th>
                  <th className="num">{t('applyMapping.calibrated')}</th>
                  <th className="num">{t('applyMapping.linear')}</th>
                </tr>
              </thead>
              <tbody>
                {applied.rows.slice(0, SHOWN).map((r) => (
                  <tr key={`${r.itemKey}/${r.judge}`}>
                    <td>{r.itemKey}</td>
                    <td>{r.category ?? ''}</td>
                    <td className="num">{r.raw}</td>
                    <td className="num">{r.calibrated.toFixed(2)}</td>
                    <td className="num">{r.linear.toFixed(2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </div>
  );
}
