import { useEffect, useId, type CSSProperties } from 'react';
import { cursorKeys, rowPlacement, useVirtualRows } from '../kits/virtual-rows';
import { useTranslation } from 'react-i18next';
import type { DatasetKind, ItemRow } from '../../../shared/domain';
import { cellValue, kindColumns, type KindColumn } from '../../../shared/dataset-kinds';

const ROW_HEIGHT = 44;

interface ItemTableProps {
  rows: ItemRow[];
  activeIndex: number;
  onActiveIndexChange: (i: number) => void;
  onOpen: (row: ItemRow) => void;
  label: string;
  /** The dataset's kind: its columns (src/shared/dataset-kinds.ts). Default pairwise. */
  kind?: DatasetKind;
  /** False when no item has a subset (category): that column is left out rather than empty. */
  hasSubsets?: boolean;
}

/**
 * Only the visible rows exist in the DOM, so a dataset of tens of thousands of items
 * scrolls as smoothly as one of ten. The body is one focus stop; arrows move a cursor.
 */
export function ItemTable({
  rows,
  activeIndex,
  onActiveIndexChange,
  onOpen,
  label,
  kind,
  hasSubsets = true,
}: ItemTableProps) {
  const { t } = useTranslation();
  const columns = kindColumns(kind).filter(
    (c) => hasSubsets || !('base' in c.source && c.source.base === 'subset'),
  );
  const cellText = (row: ItemRow, c: KindColumn): string => {
    const v = cellValue(row, c);
    if (!v) return '';
    if ('base' in c.source && c.source.base === 'label') return t('dataset.goldShort', { label: v });
    // Previews are one line in the list; the item view keeps the line breaks.
    return c.text ? v.replace(/\s+/g, ' ') : v;
  };
  const { scrollRef, virtualizer } = useVirtualRows(rows.length, ROW_HEIGHT, 12);

  // Coming back from the item viewer: bring the row the user came from into view.
  useEffect(() => {
    if (activeIndex > 0 && activeIndex < rows.length)
      virtualizer.scrollToIndex(activeIndex, { align: 'center' });
    // Only on mount: later cursor moves scroll through onKeyDown.
  }, []);

  const move = (to: number) => {
    if (rows.length === 0) return;
    const i = Math.max(0, Math.min(rows.length - 1, to));
    onActiveIndexChange(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
  };

  const onKeyDown = cursorKeys({
    active: activeIndex,
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    body: scrollRef.current,
    move,
    open: (i) => onOpen(rows[i]),
  });

  const activeRow = rows[activeIndex];
  const headId = useId();
  return (
    // The scrolling body is the grid (focusable, announcing the active row through
    // aria-activedescendant, which a grid allows and a rowgroup does not); the header row
    // stays visible above it and joins the grid through aria-owns.
    <div
      className="item-table"
      data-kind={kind ?? 'pairwise'}
      style={{ '--cols': columns.map((c) => c.width).join(' ') } as CSSProperties}
    >
      <div id={headId} className="item-table__row item-table__row--head" role="row" aria-rowindex={1}>
        {columns.map((c) => (
          <span key={c.key} role="columnheader">
            {t(`dataset.columns.${c.key}`)}
          </span>
        ))}
      </div>
      <div
        ref={scrollRef}
        className="item-table__body"
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-owns={headId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-activedescendant={activeRow ? `item-row-${activeRow.id}` : undefined}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index];
            const active = v.index === activeIndex;
            return (
              <div
                key={row.id}
                id={`item-row-${row.id}`}
                data-testid="item-row"
                data-item-id={row.id}
                role="row"
                aria-rowindex={v.index + 2}
                aria-selected={active}
                className={`item-table__row${active ? ' item-table__row--active' : ''}`}
                style={rowPlacement(v)}
                onClick={() => {
                  onActiveIndexChange(v.index);
                  onOpen(row);
                }}
              >
                {columns.map((c) => {
                  const text = cellText(row, c);
                  return (
                    <span
                      key={c.key}
                      role="cell"
                      data-column={c.key}
                      className={
                        c.key === 'id'
                          ? 'mono ellipsis'
                          : c.text
                            ? 'ellipsis item-table__preview'
                            : 'ellipsis'
                      }
                      title={c.text ? undefined : text}
                      dir={c.text ? 'auto' : undefined}
                    >
                      {text}
                    </span>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
