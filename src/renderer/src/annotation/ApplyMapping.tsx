// "Apply mapping" beside the calibration mapping: pick the judge and one of the experiments the
// core says can take its mapping (same protocol, judge model, rubric and scale); the others are
// listed with the reason in words. A mapping whose held-out ρ is below the floor is refused
// unless the person ticks the confirm box. Then apply, and see the calibrated scores.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppliedMapping, MappingMismatch, MappingTargets } from '../../../shared/annotation/api-types';
import { getApi, toApiError } from '../api';
import './apply-mapping-i18n';
import { TableHead } from '../kits/ListTable';
import { Button } from '../components/Button';

const SHOWN = 20;

export function ApplyMapping({ setId, judges }: { setId: number; judges: string[] }) {
  const { t } = useTranslation('annotation');
  const [judge, setJudge] = useState(judges[0] ?? '');
  const [offer, setOffer] = useState<{ judge: string; targets: MappingTargets } | null>(null);
  const [targetId, setTargetId] = useState<number | null>(null);
  const [targetJudge, setTargetJudge] = useState('');
  const [insist, setInsist] = useState(false);
  const [busy, setBusy] = useState(false);
  const [applied, setApplied] = useState<AppliedMapping | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setInsist(false);
    setError(null);
    void getApi()
      .call('annotation.mappingTargets', { setId, judge })
      .then(
        (targets) => live && setOffer({ judge, targets }),
        (e) => live && setError(toApiError(e).message),
      );
    return () => {
      live = false;
    };
  }, [setId, judge]);

  const current = offer?.judge === judge ? offer.targets : null;
  const targets = current?.targets ?? [];
  const target = targets.find((e) => e.experimentId === targetId) ?? targets[0] ?? null;
  const chosenTargetJudge = target && target.judges.includes(targetJudge) ? targetJudge : target?.judges[0];
  const quality = current?.quality ?? null;
  const blocked = quality !== null && quality.below && !insist;
  const rho =
    quality?.rho === null || quality === null ? t('applyMapping.undefined') : quality.rho.toFixed(2);

  const apply = async () => {
    if (!target || !chosenTargetJudge || blocked) return;
    setBusy(true);
    setError(null);
    setApplied(null);
    try {
      setApplied(
        await getApi().call('annotation.applyMapping', {
          setId,
          judge,
          experimentId: target.experimentId,
          ...(chosenTargetJudge === judge ? {} : { targetJudge: chosenTargetJudge }),
          ...(quality?.below ? { force: true } : {}),
        }),
      );
    } catch (e) {
      setError(toApiError(e).message);
    } finally {
      setBusy(false);
    }
  };

  if (current === null && !error) return null;
  const reasonText = (r: MappingMismatch) =>
    t(`applyMapping.why.${r.code}`, {
      detail: r.detail,
      ours: r.ours,
      theirs: r.theirs,
      defaultValue: r.detail,
    });
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
        {target && (
          <>
            <label>
              {t('applyMapping.target')}{' '}
              <select
                value={target.experimentId}
                onChange={(e) => setTargetId(Number(e.target.value))}
                data-testid="apply-mapping-target"
              >
                {targets.map((e) => (
                  <option key={e.experimentId} value={e.experimentId}>
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
            <Button
              className="btn"
              disabled={busy || blocked}
              onClick={() => void apply()}
              testId="apply-mapping-button"
            >
              {busy ? t('applyMapping.applying') : t('applyMapping.apply')}
            </Button>
          </>
        )}
      </div>
      {quality?.below && (
        <div
          className="notice notice--warn apply-mapping__warning"
          role="alert"
          data-testid="apply-mapping-warning"
        >
          <p>{t('applyMapping.belowFloor', { rho, floor: quality.floor.toFixed(1) })}</p>
          {target && (
            <label>
              <input
                type="checkbox"
                checked={insist}
                onChange={(e) => setInsist(e.target.checked)}
                data-testid="apply-mapping-insist"
              />{' '}
              {t('applyMapping.insist')}
            </label>
          )}
        </div>
      )}
      {current !== null && targets.length === 0 && <p className="muted">{t('applyMapping.noTargets')}</p>}
      {current !== null && current.excluded.length > 0 && (
        <details className="apply-mapping__excluded" data-testid="apply-mapping-excluded">
          <summary>{t('applyMapping.excluded', { count: current.excluded.length })}</summary>
          <ul>
            {current.excluded.map((e) => (
              <li
                key={e.experimentId}
                data-testid="apply-mapping-excluded-row"
                data-experiment={e.experimentId}
              >
                <strong>{e.name}</strong>: {e.reasons.map(reasonText).join(t('applyMapping.and'))}
              </li>
            ))}
          </ul>
        </details>
      )}
      {error && (
        <p className="text-danger" role="alert" data-testid="apply-mapping-error">
          {error}
        </p>
      )}
      {applied && (
        <div data-testid="apply-mapping-result">
          {applied.forced && (
            <p className="text-danger" data-testid="apply-mapping-forced">
              {t('applyMapping.forced', { rho, flattened: applied.flattened, count: applied.rows.length })}
            </p>
          )}
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
              <TableHead
                columns={[
                  t('applyMapping.item'),
                  t('applyMapping.category'),
                  { label: t('applyMapping.raw'), num: true },
                  { label: t('applyMapping.calibrated'), num: true },
                  { label: t('applyMapping.linear'), num: true },
                ]}
              />
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
