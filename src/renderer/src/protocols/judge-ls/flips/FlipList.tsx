import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useId, useMemo, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FLIP_TYPES, type Choice, type Flip, type FlipType } from './flips';
import { JUDGE_LS_NAMESPACES } from '../i18n';

export const FLIP_ROW_HEIGHT = 40;

interface FlipListProps {
  flips: Flip[];
  flagged: ReadonlyMap<string, string[]>;
  activeIndex: number;
  onActiveIndexChange: (i: number) => void;
  onOpen: (flip: Flip) => void;
  label: string;
}

export function choiceText(c: Choice, gold: 1 | 2): string {
  const mark = c === 'tie' ? '' : c === gold ? ' ✓' : ' ✗';
  return `${c === 'tie' ? 'tie' : c}${mark}`;
}

/**
 * Only the visible rows are in the DOM (tens of thousands of flips scroll like ten). Keys j/k and
 * o are handled by the page; this body is one focus stop with arrow keys too.
 */
export function FlipList({ flips, flagged, activeIndex, onActiveIndexChange, onOpen, label }: FlipListProps) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: flips.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => FLIP_ROW_HEIGHT,
    overscan: 6,
    initialRect: { width: 1000, height: 600 },
  });

  // Keep the cursor's row in view, whichever way it moved (keys, returning from an item).
  useEffect(() => {
    if (activeIndex >= 0 && activeIndex < flips.length)
      virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, flips.length, virtualizer]);

  const move = (to: number) => {
    if (flips.length > 0) onActiveIndexChange(Math.max(0, Math.min(flips.length - 1, to)));
  };
  const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / FLIP_ROW_HEIGHT) - 1);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(activeIndex + 1),
      ArrowUp: () => move(activeIndex - 1),
      PageDown: () => move(activeIndex + page),
      PageUp: () => move(activeIndex - page),
      Home: () => move(0),
      End: () => move(flips.length - 1),
      Enter: () => flips[activeIndex] && onOpen(flips[activeIndex]),
    };
    const action = keys[e.key];
    if (action && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      action();
    }
  };

  // Stable across renders, so rows that stay on screen while scrolling are not re-rendered.
  const latest = useRef({ flips, onActiveIndexChange, onOpen });
  useEffect(() => {
    latest.current = { flips, onActiveIndexChange, onOpen };
  });
  const pick = useCallback((index: number) => {
    const { flips: list, onActiveIndexChange: setActive, onOpen: open } = latest.current;
    setActive(index);
    open(list[index]);
  }, []);

  // Rows get their words from here: a useTranslation per row costs more than the row itself.
  const labels = useMemo<RowLabels>(
    () => ({
      order: { orig: t('order.orig'), swap: t('order.swap') },
      type: Object.fromEntries(FLIP_TYPES.map((ft) => [ft, t(`flipType.${ft}`)])) as Record<FlipType, string>,
      flagged: t('flips.flaggedItem'),
      repeat: t('flips.repeatFlipped'),
      repeatHelp: t('flips.repeatFlippedHelp'),
    }),
    [t],
  );

  const active = flips[activeIndex];
  const headId = useId();
  return (
    // The scrolling body is the grid (focusable, announcing the active row through
    // aria-activedescendant, which a grid allows and a rowgroup does not); the header row
    // stays visible above it and joins the grid through aria-owns.
    <div className="flip-table">
      <div id={headId} className="flip-table__row flip-table__row--head" role="row" aria-rowindex={1}>
        <span role="columnheader">{t('flips.col.item')}</span>
        <span role="columnheader">{t('flips.col.judge')}</span>
        <span role="columnheader">{t('flips.col.comparison')}</span>
        <span role="columnheader">{t('flips.col.order')}</span>
        <span role="columnheader">{t('flips.col.subset')}</span>
        <span role="columnheader">{t('flips.col.choices')}</span>
        <span role="columnheader">{t('flips.col.type')}</span>
      </div>
      <div
        ref={scrollRef}
        className="flip-table__body"
        role="grid"
        aria-label={label}
        aria-rowcount={flips.length + 1}
        aria-owns={headId}
        tabIndex={0}
        data-testid="flip-list"
        onKeyDown={onKeyDown}
        aria-activedescendant={active ? `flip-row-${activeIndex}` : undefined}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const f = flips[v.index];
            return (
              <FlipRow
                key={f.key}
                flip={f}
                index={v.index}
                start={v.start}
                size={v.size}
                active={v.index === activeIndex}
                flagged={flagged.has(f.sourceId)}
                onPick={pick}
                labels={labels}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface RowLabels {
  order: Record<'orig' | 'swap', string>;
  type: Record<FlipType, string>;
  flagged: string;
  /** "flipped on repeat as well" (the noise floor), and what it means. */
  repeat: string;
  repeatHelp: string;
}

interface FlipRowProps {
  flip: Flip;
  index: number;
  start: number;
  size: number;
  active: boolean;
  flagged: boolean;
  onPick: (index: number) => void;
  labels: RowLabels;
}

const FlipRow = memo(function FlipRow({
  flip: f,
  index,
  start,
  size,
  active,
  flagged,
  onPick,
  labels,
}: FlipRowProps) {
  return (
    <div
      id={`flip-row-${index}`}
      data-testid="flip-row"
      data-index={index}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      className={`flip-table__row${active ? ' flip-table__row--active' : ''}`}
      style={{ height: size, transform: `translateY(${start}px)` }}
      onClick={() => onPick(index)}
    >
      <span role="cell" className="mono ellipsis" title={f.sourceId}>
        {f.sourceId}
        {flagged && (
          <span className="flip-flag" title={labels.flagged}>
            {' ⚑'}
          </span>
        )}
      </span>
      <span role="cell" className="ellipsis" title={f.judge}>
        {f.judge}
      </span>
      <span role="cell">{f.comparison}</span>
      <span role="cell">{labels.order[f.order]}</span>
      <span role="cell" className="ellipsis" title={f.subset ?? ''}>
        {f.subset ?? ''}
      </span>
      <span role="cell" className="mono nowrap">
        EN {choiceText(f.enChoice, f.gold)} → {f.target} {choiceText(f.targetChoice, f.gold)}
      </span>
      <span role="cell">
        <span className={`flip-type flip-type--${f.type}`}>{labels.type[f.type]}</span>
        {f.repeatFlipped && (
          <span className="chip" data-testid="repeat-flipped" title={labels.repeatHelp}>
            {labels.repeat}
          </span>
        )}
      </span>
    </div>
  );
});
