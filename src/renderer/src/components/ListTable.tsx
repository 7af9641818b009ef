// The table of a list page (datasets, experiments): one row per record, in a scroll region
// named for screen readers, with the list pages' shared look.
import type { ReactNode } from 'react';
import { TableScroll } from './TableScroll';

/** A header cell: right-aligned for a number, or read by screen readers only (an actions column). */
export type ListColumn = { label: string; numeric?: boolean; screenReaderOnly?: boolean };

export function ListTable({
  label,
  columns,
  children,
}: {
  label: string;
  columns: ListColumn[];
  children: ReactNode;
}) {
  return (
    <TableScroll className="table-wrap" label={label}>
      <table className="datasets-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.screenReaderOnly ? <span className="visually-hidden">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}
