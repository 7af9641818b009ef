import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * Whether a box's content is larger than the box (on `axis`), measured after every render and
 * whenever the box or its first child changes size. A box that scrolls must be reachable with the
 * keyboard (WCAG 2.1.1: axe's `scrollable-region-focusable`), and one that does not must not be an
 * extra tab stop, so the answer decides both.
 */
export function useOverflow<T extends HTMLElement>(
  axis: 'x' | 'both' = 'both',
): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [over, setOver] = useState(false);
  const overflows = (el: HTMLElement) =>
    el.scrollWidth > el.clientWidth + 1 || (axis === 'both' && el.scrollHeight > el.clientHeight + 1);
  // After every render: new text in a box of a fixed height overflows without any resize.
  useLayoutEffect(() => {
    if (ref.current) setOver(overflows(ref.current));
  });
  useLayoutEffect(() => {
    const el = ref.current;
    // jsdom has no ResizeObserver; there nothing is laid out, so nothing overflows.
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setOver(overflows(el)));
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [axis]);
  return [ref, over];
}

/** The attributes that make an overflowing box a named region the keyboard can focus and scroll. */
export function regionProps(over: boolean, label: string) {
  return over ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {};
}

/**
 * A box of limited height (a prompt, a response, a raw answer, a list of written files): once its
 * content is larger than the box, the box is a region named `label` that Tab reaches and the
 * arrow keys scroll; content that fits is a plain box with no tab stop.
 */
export function ScrollBox({
  as: Tag = 'pre',
  label,
  className,
  children,
  ...rest
}: {
  /** `pre` for text kept as typed, `div` for text that wraps as prose (guidelines), `ul` for a list. */
  as?: 'pre' | 'div' | 'ul';
  label: string;
  className: string;
  children: ReactNode;
  dir?: string;
  'data-testid'?: string;
}) {
  const [ref, over] = useOverflow<HTMLElement>();
  return (
    <Tag
      ref={ref as RefObject<HTMLPreElement & HTMLDivElement & HTMLUListElement>}
      className={className}
      {...rest}
      {...regionProps(over, label)}
    >
      {children}
    </Tag>
  );
}
