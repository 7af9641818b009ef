import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FLIP_TYPES, type Choice, type Flip, type FlipType } from './flips';
import { GridHead, GridRow, VirtualGrid, type GridRowPlace } from '../../../kits/VirtualGrid';
import { JUDGE_LS_NAMESPACES } from '../i18n';

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
  return (
    <VirtualGrid
      count={flips.length}
      label={label}
      testId="flip-list"
      rowIdPrefix="flip"
      activeIndex={activeIndex}
      onActiveIndexChange={onActiveIndexChange}
      onOpen={(i) => onOpen(flips[i])}
      head={
        <GridHead
          labels={[
            t('flips.col.item'),
            t('flips.col.judge'),
            t('flips.col.comparison'),
            t('flips.col.order'),
            t('flips.col.subset'),
            t('flips.col.choices'),
            t('flips.col.type'),
          ]}
        />
      }
      renderRow={(place) => {
        const f = flips[place.index];
        return <FlipRow key={f.key} {...place} flip={f} flagged={flagged.has(f.sourceId)} labels={labels} />;
      }}
    />
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

interface FlipRowProps extends GridRowPlace {
  flip: Flip;
  flagged: boolean;
  labels: RowLabels;
}

// Memoized on the row's place (primitives and the grid's stable onPick): rows that stay on
// screen while scrolling are not re-rendered.
const FlipRow = memo(function FlipRow({ flip: f, flagged, labels, ...place }: FlipRowProps) {
  return (
    <GridRow place={place} testId="flip-row" data-index={place.index}>
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
    </GridRow>
  );
});
