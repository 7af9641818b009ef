// The results dashboard and the flip browser are built separately; the lead swaps these two
// components for the real pages. Until then they say plainly that the page is not in this build.
import { useTranslation } from 'react-i18next';
import { routeHref } from '../stores/route';

function Unavailable({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <p className="empty-note">{t('slots.unavailable')}</p>
      <a className="btn" href={routeHref({ name: 'experiment', experimentId })}>
        {t('slots.backToRun')}
      </a>
    </div>
  );
}

export function ResultsSlot({ experimentId }: { experimentId: number; excludeFlagged?: boolean }) {
  return <Unavailable experimentId={experimentId} />;
}

export function FlipsSlot({ experimentId }: { experimentId: number; query: Record<string, string> }) {
  return <Unavailable experimentId={experimentId} />;
}
