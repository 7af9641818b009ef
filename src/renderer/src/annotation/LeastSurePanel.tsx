// The hybrid as a workflow (issue 36): the units the judge is least sure about — a score near a
// cut, the two orders disagreeing, flipped on repeat — shown with how many meet each criterion and
// why each unit is there, then sent to people as an annotation set in one click. The selection is
// the core's (annotation.leastSure); the set is made from the same options (annotation.createSet).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_LEAST_SURE_MARGIN,
  LEAST_SURE_CRITERIA,
  type LeastSureCriterion,
  type LeastSureReason,
  type LeastSureSelection,
} from '../../../shared/annotation/least-sure';
import { getApi } from '../api';
import './i18n';

/** How many reasons the page lists before "and N more" (the set takes them all up to its size). */
const SHOWN = 12;

export function LeastSurePanel({ experimentId, onCreated }: { experimentId: number; onCreated: () => void }) {
  const { t } = useTranslation('annotation');
  const [criteria, setCriteria] = useState<LeastSureCriterion[]>([...LEAST_SURE_CRITERIA]);
  const [margin, setMargin] = useState(DEFAULT_LEAST_SURE_MARGIN);
  const [size, setSize] = useState<number | null>(null);
  const [sel, setSel] = useState<LeastSureSelection | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    if (!criteria.length) {
      setSel(null);
      return;
    }
    getApi()
      .call('annotation.leastSure', { experimentId, criteria, margin })
      .then(
        (s) => live && setSel(s),
        (e: Error) => live && (setSel(null), setError(e.message)),
      );
    return () => {
      live = false;
    };
  }, [experimentId, criteria, margin]);

  const take = sel ? Math.min(size ?? sel.items.length, sel.items.length) : 0;
  const reason = (r: LeastSureReason) =>
    r.criterion === 'boundary'
      ? t('leastSure.reason.boundary', { judge: r.judge, score: r.score, cut: r.cut, count: r.distance })
      : r.criterion === 'position'
        ? t('leastSure.reason.position', { judge: r.judge, orig: r.orig, swap: r.swap })
        : t('leastSure.reason.repeat', { judge: r.judge, values: r.values.join(' → ') });
  const create = async () => {
    setError(null);
    try {
      const set = await getApi().call('annotation.createSet', {
        experimentId,
        size: take,
        leastSure: { criteria, margin },
      });
      setCreated(t('leastSure.created', { name: set.name, count: set.itemCount }));
      onCreated();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section className="annotation-create" data-testid="least-sure">
      <h2>{t('leastSure.title')}</h2>
      <p className="small muted">{t('leastSure.intro')}</p>
      <div>
        {LEAST_SURE_CRITERIA.map((c) => (
          <label key={c} className="annotation-create__gold">
            <input
              type="checkbox"
              checked={criteria.includes(c)}
              data-testid={`least-sure-${c}`}
              onChange={(e) =>
                setCriteria((now) =>
                  LEAST_SURE_CRITERIA.filter((x) => (x === c ? e.target.checked : now.includes(x))),
                )
              }
            />{' '}
            {t(`leastSure.criterion.${c}`)}
          </label>
        ))}
      </div>
      {criteria.includes('boundary') && (
        <label>
          {t('leastSure.margin')}{' '}
          <input
            type="number"
            min={0}
            step={1}
            value={margin}
            data-testid="least-sure-margin"
            onChange={(e) => setMargin(Math.max(0, Number(e.target.value)))}
          />
        </label>
      )}
      {sel && (
        <div data-testid="least-sure-summary">
          <p>
            {t('leastSure.found', { count: sel.items.length, units: sel.units })}{' '}
            {sel.criteria
              .map((c) => t('leastSure.count', { what: t(`leastSure.criterion.${c}`), n: sel.counts[c] }))
              .join(' · ')}
          </p>
          {sel.criteria.includes('boundary') && sel.cuts.length > 0 && (
            <p className="small muted">
              {t('leastSure.cuts', { cuts: sel.cuts.map((c) => `≥ ${c}`).join(', '), count: sel.margin })}
            </p>
          )}
          {sel.unavailable.map((u) => (
            <p
              key={u.criterion}
              className="small muted"
              data-testid={`least-sure-unavailable-${u.criterion}`}
            >
              {t('leastSure.unavailable', {
                what: t(`leastSure.criterion.${u.criterion}`),
                why: t(`leastSure.why.${u.criterion}`),
              })}
            </p>
          ))}
          {sel.items.length > 0 && (
            <>
              <label>
                {t('leastSure.size')}{' '}
                <input
                  type="number"
                  min={1}
                  max={sel.items.length}
                  value={take}
                  data-testid="least-sure-size"
                  onChange={(e) => setSize(Math.max(1, Math.min(sel.items.length, Number(e.target.value))))}
                />
              </label>
              <ul className="small" data-testid="least-sure-items">
                {sel.items.slice(0, Math.min(take, SHOWN)).map((i) => (
                  <li key={i.itemKey}>
                    <code>{i.itemKey}</code> — {i.reasons.map(reason).join('; ')}
                  </li>
                ))}
              </ul>
              {take > SHOWN && <p className="small muted">{t('leastSure.more', { count: take - SHOWN })}</p>}
              <p className="small muted">{t('leastSure.notRandom')}</p>
              <button
                type="button"
                className="btn btn--primary"
                data-testid="least-sure-create"
                onClick={create}
              >
                {t('leastSure.create', { count: take })}
              </button>
            </>
          )}
        </div>
      )}
      {created && (
        <p className="muted" role="status" data-testid="least-sure-created">
          {created}
        </p>
      )}
      {error && (
        <p className="text-danger" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
