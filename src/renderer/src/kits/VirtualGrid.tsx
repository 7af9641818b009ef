import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cursorKeys, useVirtualRows } from './virtual-rows';

export const GRID_ROW_HEIGHT = 40;

/** Where one visible row stands; every field is a primitive or stable, so a memoized row can take them as props. */
export interface GridRowPlace {
  index: number;
  /** The row's element id, which the grid names in aria-activedescendant. */
  id: string;
  start: number;
  size: number;
  active: boolean;
  /** Moves the cursor to the row and opens it (a click). The same function on every render. */
  onPick: (index: number) => void;
}

interface VirtualGridProps {
  count: number;
  /** The header cells (`<span role="columnheader">`), in column order. */
  head: ReactNode;
  label: string;
  testId: string;
  /** Classes beside `flip-table` (the protocol's column widths). */
  className?: string;
  /** With these two the cursor is the page's (its own keys move it too); without, the grid keeps it. */
  activeIndex?: number;
  onActiveIndexChange?: (index: number) => void;
  onOpen: (index: number) => void;
  renderRow: (place: GridRowPlace) => ReactNode;
  /** Row ids are `<prefix>-row-<index>`; a generated prefix by default. */
  rowIdPrefix?: string;
}

/**
 * The list of a flip or unstable-item browser: only the visible rows are in the DOM (tens of
 * thousands of rows scroll like ten), and the scrolling body is one focus stop whose arrow,
 * page, Home/End keys move a cursor and Enter opens the cursor's row.
 */
export function VirtualGrid({
  count,
  head,
  label,
  testId,
  className,
  activeIndex,
  onActiveIndexChange,
  onOpen,
  renderRow,
  rowIdPrefix,
}: VirtualGridProps) {
  const { scrollRef, virtualizer } = useVirtualRows(count, GRID_ROW_HEIGHT, 6);
  const [ownCursor, setOwnCursor] = useState(0);
  const controlled = activeIndex !== undefined;
  const active = controlled ? activeIndex : Math.min(ownCursor, Math.max(0, count - 1));
  const setActive = controlled ? (onActiveIndexChange ?? (() => {})) : setOwnCursor;

  // Keep the cursor's row in view, whichever way it moved (keys, the page's keys, returning from a row).
  useEffect(() => {
    if (active >= 0 && active < count) virtualizer.scrollToIndex(active, { align: 'auto' });
  }, [active, count, virtualizer]);

  const move = (to: number) => {
    if (count > 0) setActive(Math.max(0, Math.min(count - 1, to)));
  };
  const onKeyDown = cursorKeys({
    active,
    count,
    rowHeight: GRID_ROW_HEIGHT,
    body: scrollRef.current,
    move,
    open: onOpen,
  });

  // Stable across renders, so rows that stay on screen while scrolling are not re-rendered.
  const latest = useRef({ setActive, onOpen });
  useEffect(() => {
    latest.current = { setActive, onOpen };
  });
  const onPick = useCallback((index: number) => {
    latest.current.setActive(index);
    latest.current.onOpen(index);
  }, []);

  const generated = useId();
  const prefix = rowIdPrefix ?? generated;
  const headId = `${generated}-head`;
  const rowId = (index: number) => `${prefix}-row-${index}`;
  return (
    // The scrolling body is the grid (focusable, announcing the active row through
    // aria-activedescendant, which a grid allows and a rowgroup does not); the header row
    // stays visible above it and joins the grid through aria-owns.
    <div className={className ? `flip-table ${className}` : 'flip-table'}>
      <div id={headId} className="flip-table__row flip-table__row--head" role="row" aria-rowindex={1}>
        {head}
      </div>
      <div
        ref={scrollRef}
        className="flip-table__body"
        role="grid"
        aria-label={label}
        aria-rowcount={count + 1}
        aria-owns={headId}
        tabIndex={0}
        data-testid={testId}
        onKeyDown={onKeyDown}
        aria-activedescendant={active >= 0 && active < count ? rowId(active) : undefined}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) =>
            renderRow({
              index: v.index,
              id: rowId(v.index),
              start: v.start,
              size: v.size,
              active: v.index === active,
              onPick,
            }),
          )}
        </div>
      </div>
    </div>
  );
}

/** A `VirtualGrid`'s header cells, one per label, in column order (a falsy label: no column). */
export function GridHead({ labels }: { labels: readonly ReactNode[] }) {
  return (
    <>
      {labels.filter(Boolean).map((label, i) => (
        <span key={i} role="columnheader">
          {label}
        </span>
      ))}
    </>
  );
}

/** One row of a `VirtualGrid`, placed where the virtualizer put it; its children are the cells. */
export function GridRow({
  place,
  testId,
  children,
  ...data
}: {
  place: GridRowPlace;
  testId: string;
  children: ReactNode;
} & { [dataAttribute: `data-${string}`]: string | number }) {
  const { index, id, start, size, active, onPick } = place;
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      data-testid={testId}
      {...data}
      className={`flip-table__row${active ? ' flip-table__row--active' : ''}`}
      style={{ height: size, transform: `translateY(${start}px)` }}
      onClick={() => onPick(index)}
    >
      {children}
    </div>
  );
}

/**
 * A grid cell of text that may be cut to its column: one line, the whole text in its tooltip.
 * `mono` for ids; `dirAuto` for model or user text in any script.
 */
export function TextCell({ text, mono, dirAuto }: { text: string; mono?: boolean; dirAuto?: boolean }) {
  return (
    <span
      role="cell"
      className={mono ? 'mono ellipsis' : 'ellipsis'}
      title={text}
      dir={dirAuto ? 'auto' : undefined}
    >
      {text}
    </span>
  );
}
