import { useTranslation } from 'react-i18next';
import { useFormat } from '../lib/useFormat';
import {
  answersStoredAtLock,
  type PreregistrationLock,
  type PreregistrationView,
} from '../../../shared/paper/preregistration';
import './i18n';

/** A confirmatory comparison by its power-plan label, with its id (and "primary" when it is). */
export function ComparisonName({ id, lock, labels }: ComparisonNameProps) {
  const { t } = useTranslation('prereg');
  const label = labels.get(id) ?? lock.snapshot.comparisons.find((c) => c.id === id)?.label;
  return (
    <>
      {label ?? id} {label && <code className="small muted">{id}</code>}
      {id === (lock.plan.primary ?? lock.plan.confirmatory[0]) && (
        <span className="prereg__primary"> ({t('lock.primaryMark')})</span>
      )}
    </>
  );
}

interface ComparisonNameProps {
  id: string;
  lock: PreregistrationLock;
  labels: Map<string, string>;
}

/** The lock in force, read-only, and the versions it superseded (shown beside it, never edited). */
export function LockView({
  view,
  labels,
}: {
  view: PreregistrationView & { active: PreregistrationLock };
  labels: Map<string, string>;
}) {
  const { t } = useTranslation('prereg');
  const f = useFormat();
  const lock = view.active;
  const { plan, snapshot } = lock;
  // A lock changed after locking (its content no longer hashes to its SHA-256) is said first.
  const tampered = view.locks.filter((l) => l.tampered).map((l) => l.version);
  return (
    <div className="prereg-lock" data-testid="prereg-lock" data-version={lock.version}>
      {tampered.length > 0 && (
        <p className="text-danger" role="alert" data-testid="prereg-tampered">
          {t('lock.tampered', { versions: tampered.join(', ') })}
        </p>
      )}
      <h3 className="prereg__subtitle">
        {t('lock.inForce')} · {t('lock.version', { version: lock.version })}
      </h3>
      <dl className="prereg-lock__facts">
        <dt>{t('lock.lockedAt')}</dt>
        <dd data-testid="prereg-locked-at">
          <time dateTime={lock.lockedAt} title={lock.lockedAt}>
            {f.dateTime(lock.lockedAt)}
          </time>
        </dd>
        <dt>{t('lock.sha256')}</dt>
        <dd className="mono prereg-lock__hash" data-testid="prereg-sha256">
          {lock.sha256}
        </dd>
        {lock.reason && (
          <>
            <dt>{t('lock.reason', { previous: lock.version - 1 })}</dt>
            <dd className="prereg__text">{lock.reason}</dd>
          </>
        )}
        <dt>{t('form.confirmatory')}</dt>
        <dd>
          <ul className="prereg-lock__list" data-testid="prereg-lock-confirmatory">
            {plan.confirmatory.map((id) => (
              <li key={id}>
                <ComparisonName id={id} lock={lock} labels={labels} />
              </li>
            ))}
          </ul>
        </dd>
        {plan.hypotheses && (
          <>
            <dt>{t('lock.hypotheses')}</dt>
            <dd className="prereg__text">{plan.hypotheses}</dd>
          </>
        )}
        <dt>{t('form.alpha')}</dt>
        <dd className="prereg-lock__num">{plan.alpha}</dd>
        <dt>{t('form.correction')}</dt>
        <dd>{t(`corrections.${plan.correction}`)}</dd>
        <dt>{t('form.exclusions')}</dt>
        <dd className="prereg__text">{plan.exclusions}</dd>
        <dt>{t('form.stopping')}</dt>
        <dd className="prereg__text">{plan.stopping}</dd>
        <dt>{t('lock.items')}</dt>
        <dd className="prereg-lock__num">{snapshot.items}</dd>
        <dt>{t('lock.judges')}</dt>
        <dd>{snapshot.judges.join(', ') || t('deviation.nothing')}</dd>
        <dt>{t('lock.answersAtLock')}</dt>
        <dd className="prereg-lock__num">{answersStoredAtLock(lock)}</dd>
      </dl>
      {view.locks.length > 1 && (
        <div data-testid="prereg-earlier">
          <h4 className="field__label">{t('lock.earlier')}</h4>
          <ul className="small">
            {view.locks.slice(0, -1).map((l) => (
              <li key={l.version} className="mono">
                {t('lock.earlierLine', { version: l.version, at: f.dateTime(l.lockedAt), sha: l.sha256 })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
