import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi } from '../api';

/**
 * Above every page of an experiment answered by the built-in simulated provider: its numbers
 * are made up and must not be read as a measurement. Shows nothing for real experiments.
 */
export function SimulatedBanner({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation();
  const [simulated, setSimulated] = useState(false);
  useEffect(() => {
    let live = true;
    getApi()
      .call('experiments.get', { experimentId })
      .then((e) => live && setSimulated(e.simulated))
      // The page itself reports a missing experiment; the banner just stays away.
      .catch(() => live && setSimulated(false));
    return () => {
      live = false;
    };
  }, [experimentId]);
  if (!simulated) return null;
  return (
    <div className="simulated-banner" role="note" data-testid="simulated-banner">
      <strong>{t('simulated.bannerTitle')}</strong> {t('simulated.bannerBody')}
    </div>
  );
}

/** The list's badge for a simulated experiment. */
export function SimulatedBadge() {
  const { t } = useTranslation();
  return (
    <span className="simulated-badge" data-testid="simulated-badge" title={t('simulated.badgeTitle')}>
      {t('simulated.badge')}
    </span>
  );
}
