import { useTranslation } from 'react-i18next';
import type { PreregDeviation } from '../../../shared/paper/preregistration';
import './i18n';

/** One deviation in the page's words; the core's params fill them (user text stays text). */
export function useDeviationText(): (d: PreregDeviation) => string {
  const { t } = useTranslation('prereg');
  return (d) => {
    const none = t('deviation.nothing');
    const params = Object.fromEntries(
      Object.entries(d.params).map(([k, v]) => [k, v === '' ? none : String(v)]),
    );
    // The version superseded is the one before (the core's English text names it too).
    if (d.kind === 'amended') params.previous = String(Number(d.params.version) - 1);
    return t(`deviation.${d.kind}`, params);
  };
}

/** The deviations found against the lock in force, or a line saying there are none. */
export function Deviations({ deviations }: { deviations: PreregDeviation[] }) {
  const { t } = useTranslation('prereg');
  const text = useDeviationText();
  return (
    <div className="prereg__deviations" data-testid="prereg-deviations">
      <h3 className="prereg__subtitle">{t('deviations.title')}</h3>
      {deviations.length === 0 ? (
        <p className="small muted">{t('deviations.none')}</p>
      ) : (
        <ul>
          {deviations.map((d, i) => (
            <li key={i} data-kind={d.kind}>
              {text(d)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
