import { useTranslation } from 'react-i18next';
import type { Item, Label } from '../../../shared/domain';

interface ItemViewerProps {
  item: Item;
  /** 0-based position in the current list, or null when the item is not in it. */
  index: number | null;
  total: number;
  backHref: string;
  onPrevious?: () => void;
  onNext?: () => void;
}

/** Model and dataset text: always a text node, shown with its own line breaks. */
function TextBlock({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  return (
    // dir="auto": Arabic questions and answers read right to left.
    <div className={`text text-block${text ? '' : ' text-block--empty'}`} data-testid={testId} dir="auto">
      {text || t('item.empty')}
    </div>
  );
}

function OutputPanel({ n, text, gold }: { n: Label; text: string; gold: boolean }) {
  const { t } = useTranslation();
  return (
    <section
      className={`output${gold ? ' output--gold' : ''}`}
      data-gold={gold}
      aria-labelledby={`output-${n}-title`}
    >
      <header className="output__head">
        <h3 id={`output-${n}-title`} className="output__title">
          {t('item.output', { n })}
        </h3>
        {gold && <span className="badge badge--gold">{t('item.goldBadge')}</span>}
      </header>
      <TextBlock text={text} testId={`item-output-${n}`} />
    </section>
  );
}

export function ItemViewer({ item, index, total, backHref, onPrevious, onNext }: ItemViewerProps) {
  const { t } = useTranslation();
  return (
    <article className="item-viewer" data-testid="item-viewer" aria-labelledby="item-title">
      <nav className="item-viewer__nav">
        <a className="btn btn--ghost" href={backHref}>
          ← {t('item.back')}
        </a>
        <span className="item-viewer__position">
          {index !== null ? t('item.position', { index: index + 1, total }) : null}
        </span>
        <div className="item-viewer__step">
          <button type="button" className="btn" onClick={onPrevious} disabled={!onPrevious}>
            ← {t('item.previous')}
          </button>
          <button type="button" className="btn" onClick={onNext} disabled={!onNext}>
            {t('item.next')} →
          </button>
        </div>
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

      <section className="instruction" aria-labelledby="instruction-title">
        <h3 id="instruction-title" className="section-title">
          {t('item.instruction')}
        </h3>
        <TextBlock text={item.instruction} testId="item-instruction" />
      </section>

      {item.output1 != null && item.output2 != null && (
        <div className="outputs">
          <OutputPanel n={1} text={item.output1} gold={item.label === 1} />
          <OutputPanel n={2} text={item.output2} gold={item.label === 2} />
        </div>
      )}
      {item.extra && (
        // Fields of other dataset kinds (QA: answers, language, …), shown as text.
        <section className="item-extra" data-testid="item-extra">
          <TextBlock text={JSON.stringify(item.extra, null, 2)} testId="item-extra-json" />
        </section>
      )}
    </article>
  );
}
