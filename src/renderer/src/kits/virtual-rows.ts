// What every virtualized list of the app (the dataset's item table, the browsers' grids, a study's
// variant list) is built on: a scrolling element whose visible rows alone are drawn, each placed
// where the virtualizer puts it, and the grids' cursor keys.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type CSSProperties, type KeyboardEvent } from 'react';

/** The scrolling element's ref and the virtualizer of its `count` rows of `rowHeight` pixels. */
export function useVirtualRows(count: number, rowHeight: number, overscan: number, width = 1000) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    // Lets the first paint (and jsdom, which has no layout) render rows before measuring.
    initialRect: { width, height: 600 },
  });
  return { scrollRef, virtualizer };
}

/** A drawn row's place in the body's full-height box (`position: relative`). */
export function rowPlacement(v: { start: number; size: number }): CSSProperties {
  return {
    position: 'absolute',
    top: 0,
    left: 0,
    right: 0,
    height: v.size,
    transform: `translateY(${v.start}px)`,
  };
}

/**
 * A grid's keys on its scrolling body: arrows move the cursor a row, Page Up/Down by what the
 * body shows, Home/End to the ends, Enter opens the cursor's row; with Alt, Ctrl or Meta the key
 * is the browser's.
 */
export function cursorKeys({
  active,
  count,
  rowHeight,
  body,
  move,
  open,
}: {
  active: number;
  count: number;
  rowHeight: number;
  body: HTMLElement | null;
  move: (to: number) => void;
  open: (index: number) => void;
}): (e: KeyboardEvent<HTMLDivElement>) => void {
  const page = Math.max(1, Math.floor((body?.clientHeight ?? 600) / rowHeight) - 1);
  const keys: Record<string, () => void> = {
    ArrowDown: () => move(active + 1),
    ArrowUp: () => move(active - 1),
    PageDown: () => move(active + page),
    PageUp: () => move(active - page),
    Home: () => move(0),
    End: () => move(count - 1),
    Enter: () => active >= 0 && active < count && open(active),
  };
  return (e) => {
    const action = keys[e.key];
    if (action && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      action();
    }
  };
}
