import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SIMULATED_PREFIX } from '../../../shared/report/simulated';
import { useSimulated } from './simulated-context';
import type { Table, TableColumn, TableRow } from '../../../shared/report/table';
import { ExportButtons, tableTargets } from './ExportButtons';
import { SortableTable } from './SortableTable';
import { useCellHref } from '../verdicts/links';

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
  title: given,
  help,
  table,
  experimentId,
  sensitivity,
  children,
  ...tableProps
}: TableSectionProps) {
  const { t } = useTranslation('results');
  // A simulated run's table says so in every language: the English title carries the export's
  // prefix, a translated title gets the page language's.
  const mark = t('simulatedChart', { title: '' });
  const title =
    useSimulated() && !given.startsWith(SIMULATED_PREFIX) && !given.startsWith(mark)
      ? t('simulatedChart', { title: given })
      : given;
  // Cells the protocol declares open the verdicts behind them (../verdicts).
  const cellHref = useCellHref(table?.id, experimentId, sensitivity);
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
          cellHref={cellHref}
          {...tableProps}
        />
      )}
      {children}
    </section>
  );
}
