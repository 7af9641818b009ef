import type { ReactNode } from 'react';
import type { Table, TableColumn, TableRow } from '../../../shared/report/table';
import { ExportButtons, tableTargets } from './ExportButtons';
import { SortableTable } from './SortableTable';

interface TableSectionProps {
  /** Anchor and test id: `results-<id>`, `section-<id>`. */
  id: string;
  title: string;
  help: string;
  /** Null while the results carry no such table: the section keeps its place without one. */
  table: Table | null;
  experimentId: number;
  sensitivity: boolean;
  headerText?: (column: TableColumn) => string;
  footerLabel?: string;
  cellText?: (column: TableColumn, row: TableRow, text: string) => string;
  rowAction?: (row: TableRow) => ReactNode;
  actionHeader?: string;
  /** Figures below the table. */
  children?: ReactNode;
}

/** One section of the results page: a table of `results.tables` with its CSV/XLSX/LaTeX buttons. */
export function TableSection({
  id,
  title,
  help,
  table,
  experimentId,
  sensitivity,
  children,
  ...tableProps
}: TableSectionProps) {
  return (
    <section id={`results-${id}`} className="results-section" data-testid={`section-${id}`}>
      <header className="results-section__head">
        <div>
          <h2 className="results-section__title">{title}</h2>
          <p className="results-section__help">{help}</p>
        </div>
        {table && (
          <ExportButtons
            experimentId={experimentId}
            sensitivity={sensitivity}
            what={title}
            targets={tableTargets(table.id)}
          />
        )}
      </header>
      {table && (
        <SortableTable
          columns={table.columns}
          rows={table.rows}
          footer={table.footer}
          caption={title}
          testId={`table-${table.id}`}
          {...tableProps}
        />
      )}
      {children}
    </section>
  );
}
