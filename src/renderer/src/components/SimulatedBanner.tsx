import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi } from '../api';

/**
 * Above every page of an experiment answered by the built-in simulated provider: its numbers
 * are made up and must not be read as a measurement. Shows nothing for real experiments.
 * Also says when the stored config has a field today's rules refuse: the pages work, a run does not.
 */
export function SimulatedBanner({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation();
  // The answer names the experiment it is about: until the core has answered for the one on
  // screen, nothing is shown, never the previous experiment's banner (or its absence).
  const [answer, setAnswer] = useState<{
    experimentId: number;
    simulated: boolean;
    configProblem?: string;
  } | null>(null);
  useEffect(() => {
    let live = true;
    getApi()
      .call('experiments.get', { experimentId })
      .then(
        (e) => live && setAnswer({ experimentId, simulated: e.simulated, configProblem: e.configProblem }),
      )
      // The page itself reports a missing experiment; the banner just stays away.
      .catch(() => live && setAnswer({ experimentId, simulated: false }));
    return () => {
      live = false;
    };
  }, [experimentId]);
  const shown =
    answer?.experimentId === experimentId ? answer : { simulated: false, configProblem: undefined };
  return (
    <>
      {shown.simulated && (
        <div className="simulated-banner" role="note" data-testid="simulated-banner">
          <strong>{t('simulated.bannerTitle')}</strong> {t('simulated.bannerBody')}
        </div>
      )}
      {shown.configProblem && (
        <div className="simulated-banner" role="note" data-testid="config-problem-banner">
          <strong>{t('experiments.configProblem')}</strong> {shown.configProblem}
        </div>
      )}
    </>
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
