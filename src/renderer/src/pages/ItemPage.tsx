import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumb } from '../kits/PageFrame';
import { ErrorPanel } from '../components/ErrorPanel';
import { ItemViewer } from '../components/ItemViewer';
import { useItem } from '../stores/item';
import { useItems } from '../stores/items';
import { navigate, routeHref } from '../stores/route';
import { useDatasetSummary } from './useDatasetSummary';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName));
}

export function ItemPage({ datasetId, itemId }: { datasetId: number; itemId: number }) {
  const { t } = useTranslation();
  const summary = useDatasetSummary(datasetId);
  const { rows, loaded, open, setActiveIndex } = useItems();
  const { item, error, show } = useItem();

  useEffect(() => open(datasetId), [datasetId, open, loaded]);
  useEffect(() => void show(itemId), [itemId, show]);

  // Prev/next walk the table's current (filtered) list, in its order.
  const index = rows.findIndex((r) => r.id === itemId);
  const prev = index > 0 ? rows[index - 1] : undefined;
  const next = index >= 0 && index < rows.length - 1 ? rows[index + 1] : undefined;
  const backHref = routeHref({ name: 'dataset', datasetId });

  useEffect(() => {
    if (index >= 0) setActiveIndex(index);
  }, [index, setActiveIndex]);

  useEffect(() => {
    // Replace, not push: Back then returns to the table, not through every item seen.
    const go = (id: number | undefined) =>
      id !== undefined && navigate({ name: 'item', datasetId, itemId: id }, { replace: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (e.key === 'j') go(next?.id);
      else if (e.key === 'k') go(prev?.id);
      else if (e.key === 'Escape') navigate({ name: 'dataset', datasetId });
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [datasetId, next?.id, prev?.id]);

  const current = item && item.id === itemId ? item : null;
  const shown = current && current.datasetId === datasetId ? current : null;
  // An item id under the wrong dataset in a hand-edited link is "not found", not a spinner.
  const wrongDataset = current !== null && current.datasetId !== datasetId;
  return (
    <div className="page">
      <Breadcrumb current={shown?.sourceId ?? '…'}>
        <a href="#/datasets">{t('datasets.title')}</a>
        <a href={backHref}>{summary?.name ?? '…'}</a>
      </Breadcrumb>
      {error || wrongDataset ? (
        wrongDataset || error?.code === 'not_found' ? (
          <>
            <p className="empty-note">{t('item.notFound')}</p>
            <a className="btn" href={backHref}>
              {t('item.back')}
            </a>
          </>
        ) : (
          error && <ErrorPanel title={t('item.loadFailed')} error={error} onRetry={() => void show(itemId)} />
        )
      ) : shown ? (
        <ItemViewer
          item={shown}
          kind={summary?.kind}
          index={index >= 0 ? index : null}
          total={rows.length}
          backHref={backHref}
          onPrevious={
            prev ? () => navigate({ name: 'item', datasetId, itemId: prev.id }, { replace: true }) : undefined
          }
          onNext={
            next ? () => navigate({ name: 'item', datasetId, itemId: next.id }, { replace: true }) : undefined
          }
        />
      ) : (
        <p className="empty-note">{t('common.loading')}</p>
      )}
    </div>
  );
}
