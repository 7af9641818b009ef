import { useTranslation } from 'react-i18next';
import type { DatasetKind, Item } from '../../../shared/domain';
import { kindOfItem, kindView } from './item-kind-views';
import { StepNav } from '../kits/StepNav';

interface ItemViewerProps {
  item: Item;
  /** 0-based position in the current list, or null when the item is not in it. */
  index: number | null;
  total: number;
  backHref: string;
  onPrevious?: () => void;
  onNext?: () => void;
  /** The dataset's kind, which decides the item's body; inferred from the item when absent. */
  kind?: DatasetKind;
}

export function ItemViewer({ item, index, total, backHref, onPrevious, onNext, kind }: ItemViewerProps) {
  const { t } = useTranslation();
  const Body = kindView(kind ?? kindOfItem(item));
  return (
    <article className="item-viewer" data-testid="item-viewer" aria-labelledby="item-title">
      <nav className="item-viewer__nav">
        <a className="btn btn--ghost" href={backHref}>
          ← {t('item.back')}
        </a>
        <StepNav
          position={index !== null ? t('item.position', { index: index + 1, total }) : null}
          previous={t('item.previous')}
          next={t('item.next')}
          onPrevious={onPrevious}
          onNext={onNext}
        />
      </nav>
      <p className="hint">{t('item.keysHint')}</p>

      <header className="item-viewer__meta">
        <h2 id="item-title" className="item-viewer__id">
          {item.sourceId}
        </h2>
        {item.subset && (
          <span className="chip" title={t('item.subset')}>
            {item.subset}
          </span>
        )}
        {item.label != null && (
          <span className="gold-label" data-testid="gold-label">
            {t('item.gold', { label: item.label })}
          </span>
        )}
      </header>

      <Body item={item} />
    </article>
  );
}
