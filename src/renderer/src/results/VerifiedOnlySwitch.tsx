import { useTranslation } from 'react-i18next';
import type { FlaggedItem } from '../../../shared/experiments';
import './i18n';
import { ResultsSwitch } from './ResultsSwitch';

interface Props {
  on: boolean;
  /** The items the protocol's verification did not pass (the core counts them either way). */
  unverified: FlaggedItem[];
  onChange: (on: boolean) => void;
}

/**
 * Beside "without flagged items": every table and chart again on the items the protocol's
 * verification passed, saying how many are left out and why (each item's reasons on request).
 */
export function VerifiedOnlySwitch({ on, unverified, onChange }: Props) {
  const { t } = useTranslation('results');
  const count = unverified.length;
  return (
    <ResultsSwitch
      testId="verified-only-switch"
      boxTestId="verified-only"
      label={t('verifiedOnly.label', { count })}
      on={on}
      onChange={onChange}
      hintTestId="verified-only-hint"
      hint={
        count === 0
          ? t('verifiedOnly.none')
          : on
            ? t('verifiedOnly.on', { count })
            : t('verifiedOnly.off', { count })
      }
    >
      {count > 0 && (
        <details className="results-switch__items">
          <summary>{t('verifiedOnly.items')}</summary>
          <ul data-testid="verified-only-items">
            {unverified.map((u) => (
              <li key={u.item_id}>
                <code>{u.item_id}</code> — <span lang="en">{u.reasons.join('; ')}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </ResultsSwitch>
  );
}
