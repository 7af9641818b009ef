import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCell, type TableColumn, type TableRow } from '../../../shared/report/table';
import { AFTER_DATA_ROLE, ANALYSIS_COLUMN } from '../../../shared/paper/confirmatory';
import { sortRows, type SortDirection } from './sort-rows';
import { glossaryFor } from '../glossary/entries';
import { GlossaryLink } from '../glossary/Glossary';
import '../glossary/i18n';
import './i18n';
import { TableScroll } from '../components/TableScroll';

interface SortableTableProps {
  columns: TableColumn[];
  rows: TableRow[];
  footer?: TableRow[];
  caption: string;
  /** A column's header on screen (a translation); default: the export's header. */
  headerText?: (column: TableColumn) => string;
  /** Replaces the first cell of footer rows (e.g. a translated "Total"). */
  footerLabel?: string;
  /** A cell's text on screen (a translation of words in it); default: the export's text. */
  cellText?: (column: TableColumn, row: TableRow, text: string) => string;
  /** A cell's link to the verdicts behind its number (null: plain text). */
  cellHref?: (column: TableColumn, row: TableRow) => string | null;
  /** An extra cell at the end of each row (e.g. a link to the flips behind it). */
  rowAction?: (row: TableRow) => ReactNode;
  actionHeader?: string;
  testId?: string;
}

/**
 * A table of the shared table model (what the exports write), cells formatted as in the CSV and
 * LaTeX files. Click a header to sort by it, again to reverse; the original order is kept for ties.
 */
export function SortableTable({
  columns,
  rows,
  footer,
  caption,
  headerText = (c) => c.header,
  footerLabel,
  cellText = (_c, _r, text) => text,
  cellHref,
  rowAction,
  actionHeader,
  testId,
}: SortableTableProps) {
  const { t } = useTranslation('results');
  const [sort, setSort] = useState<{ key: string; dir: SortDirection } | null>(null);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    return column ? sortRows(rows, column, sort.dir) : rows;
  }, [rows, columns, sort]);

  const toggle = (key: string) =>
    setSort((s) => (s?.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' }));

  const glossary = (c: TableColumn) => glossaryFor(c.key);
  const cellClass = (c: TableColumn) => (c.kind === 'text' ? 'results-table__text' : 'num nowrap');

  return (
    <TableScroll className="results-table__scroll" label={caption}>
      <table className="results-table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={c.kind === 'text' ? '' : 'num'}
                  aria-sort={active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <button type="button" className="results-table__sort" onClick={() => toggle(c.key)}>
                    {c.key === ANALYSIS_COLUMN ? t('analysis.header') : headerText(c)}
                    <span className="results-table__arrow" aria-hidden="true">
                      {active ? (sort!.dir === 'asc' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                  {glossary(c) && <GlossaryLink id={glossary(c)!} />}
                </th>
              );
            })}
            {rowAction && (
              <th scope="col">
                <span className="visually-hidden">{actionHeader}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row, i) => (
            <tr
              key={i}
              data-testid="results-row"
              className={
                row[ANALYSIS_COLUMN] === 'confirmatory' ? 'results-table__row--confirmatory' : undefined
              }
            >
              {columns.map((c) => {
                if (c.key === ANALYSIS_COLUMN) return <AnalysisCell key={c.key} role={row[c.key]} />;
                const text = cellText(c, row, formatCell(c, row[c.key]));
                const href = cellHref?.(c, row);
                return (
                  <td key={c.key} className={cellClass(c)} data-column={c.key}>
                    {href ? (
                      <a
                        className="results-table__cell-link"
                        href={href}
                        data-testid="cell-verdicts"
                        title={t('cellVerdicts')}
                      >
                        {text}
                      </a>
                    ) : (
                      text
                    )}
                  </td>
                );
              })}
              {rowAction && <td className="nowrap">{rowAction(row)}</td>}
            </tr>
          ))}
          {sorted.length === 0 && (
            <tr>
              <td colSpan={columns.length + (rowAction ? 1 : 0)} className="results-table__none">
                {t('noRows')}
              </td>
            </tr>
          )}
        </tbody>
        {footer && footer.length > 0 && (
          <tfoot>
            {footer.map((row, i) => (
              <tr key={i}>
                {columns.map((c, ci) => (
                  <td key={c.key} className={cellClass(c)}>
                    {ci === 0 && footerLabel !== undefined ? footerLabel : formatCell(c, row[c.key])}
                  </td>
                ))}
                {rowAction && <td />}
              </tr>
            ))}
          </tfoot>
        )}
      </table>
    </TableScroll>
  );
}

/** The mark of a row under a preregistration: a badge, in the page's language. */
function AnalysisCell({ role }: { role: TableRow[string] }) {
  const { t } = useTranslation('results');
  // A plan locked after data names its rows so, never as confirmatory (issue 32 item 6).
  const key =
    role === 'confirmatory' || role === 'exploratory' ? role : role === AFTER_DATA_ROLE ? 'afterData' : null;
  if (key === null) return <td />;
  return (
    <td data-column={ANALYSIS_COLUMN} className="results-table__text">
      <span
        className={`analysis-badge analysis-badge--${key}`}
        data-testid={`analysis-${key}`}
        title={t(`analysis.${key}Title`)}
      >
        {t(`analysis.${key}`)}
      </span>
    </td>
  );
}
