import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The box around a table that may be wider than the window (issue 38 item 6: at a laptop's width
 * the noise-floor table hid Holm p behind a scrollbar below the window). Once the table is wider
 * than its box, the box is a named region the keyboard can focus (the arrow keys scroll it), a
 * line above it says so, and it is no taller than the window, so its scrollbar is on screen
 * whenever its top is. A table that fits stays a plain box with no extra tab stop.
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  /** The region's accessible name: the table's caption or title. */
  label: string;
  /** The box's own class (`results-table__scroll`, `table-wrap`, …). */
  className: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [wide, setWide] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setWide(el.scrollWidth > el.clientWidth + 1);
    check();
    // jsdom has no ResizeObserver; there nothing is laid out, so nothing is wide.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      {wide && (
        <p className="hint table-scroll__hint" data-testid="table-scroll-hint">
          {t('common.scrollSideways')}
        </p>
      )}
      <div
        ref={ref}
        className={`${className}${wide ? ' table-scroll--wide' : ''}`}
        role={wide ? 'region' : undefined}
        aria-label={wide ? label : undefined}
        tabIndex={wide ? 0 : undefined}
      >
        {children}
      </div>
    </>
  );
}
