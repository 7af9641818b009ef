import { useTranslation } from 'react-i18next';
import { useFormat } from '../lib/useFormat';
import { Deviations } from './Deviations';
import { useComparisonLabels } from './labels';
import { ComparisonName } from './LockView';
import { usePreregistration } from './usePreregistration';
import './i18n';
import './prereg.css';

/**
 * Near the top of a results page: which comparisons the locked plan made confirmatory (all else
 * is exploratory) and the deviations from it. Says nothing until the view has loaded; a failed
 * load is left to the run page's panel, which shows it with a retry.
 */
export function PreregNote({ experimentId, protocol }: { experimentId: number; protocol: string }) {
  const { t } = useTranslation('prereg');
  const f = useFormat();
  const { view } = usePreregistration(experimentId);
  const labels = useComparisonLabels(protocol, view?.comparisons ?? []);
  if (!view) return null;
  const lock = view.active;
  if (!lock)
    return (
      <p className="hint prereg-note prereg-note--none" data-testid="prereg-note">
        {t('note.none')}
      </p>
    );
  // A lock changed after locking cannot make anything confirmatory: said before everything else.
  const tampered = view.locks.filter((l) => l.tampered).map((l) => l.version);
  return (
    <section className="prereg-note" data-testid="prereg-note" aria-label={t('title')}>
      {tampered.length > 0 && (
        <p className="text-danger" role="alert" data-testid="prereg-note-tampered">
          {t('lock.tampered', { versions: tampered.join(', ') })}
        </p>
      )}
      <h2 className="prereg__subtitle" data-testid="prereg-note-title">
        {view.afterData
          ? t('note.afterDataTitle', {
              version: lock.version,
              at: f.dateTime(view.afterData.lockedAt),
              answers: view.afterData.answers,
            })
          : t('note.title', { version: lock.version, at: f.dateTime(lock.lockedAt) })}
      </h2>
      <p>
        <strong>{t(view.afterData ? 'note.afterDataComparisons' : 'note.confirmatory')}</strong>
      </p>
      <ul data-testid="prereg-note-confirmatory">
        {lock.plan.confirmatory.map((id) => (
          <li key={id}>
            <ComparisonName id={id} lock={lock} labels={labels} />
          </li>
        ))}
      </ul>
      <p className="small">{t('note.exploratory')}</p>
      <Deviations deviations={view.deviations} />
    </section>
  );
}
