import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { regionProps, useOverflow } from './ScrollRegion';

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
  const [ref, wide] = useOverflow<HTMLDivElement>('x');
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
        {...regionProps(wide, label)}
      >
        {children}
      </div>
    </>
  );
}
