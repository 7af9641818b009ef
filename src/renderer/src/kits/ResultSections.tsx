// The pieces a protocol's results sections are built from: its figures as chart cards, its
// tables as table sections with their words on screen, and a button to one of its own pages.
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { FigureSpec } from '../../../shared/report/chart-kit';
import type { ResultsSectionsProps } from '../protocols/registry';
import type { Table } from '../../../shared/report/table';
import { ChartCard, hasData } from '../results/ChartCard';
import type { Navigate } from '../results/routes';
import { TableSection } from '../results/TableSection';
import type { TableText } from './table-text';
import '../results/results.css';

interface SectionsContext {
  experimentId: number;
  /** The flagged items are left out (the sensitivity view): exports follow the screen. */
  sensitivity: boolean;
}

/** Every figure that has a value, each a chart card; a figure without values is not drawn. */
export function FigureCards<S extends FigureSpec>({
  figures,
  title = (spec) => spec.title,
  keyOf = (spec) => spec.id,
  experimentId,
  sensitivity,
}: SectionsContext & {
  figures: readonly S[];
  /** The card's title on screen (the figure's own title by default). */
  title?: (spec: S) => string;
  /** A figure id may repeat (one per judge): then the protocol names each card. */
  keyOf?: (spec: S, index: number) => string;
}) {
  return (
    <>
      {figures.filter(hasData).map((spec, i) => (
        <ChartCard
          key={keyOf(spec, i)}
          spec={spec}
          title={title(spec)}
          experimentId={experimentId}
          sensitivity={sensitivity}
        />
      ))}
    </>
  );
}

/** Every table as a section with its export buttons, in the words `text` gives it (the export's by default). */
export function ResultTables({
  tables,
  text = (table) => ({ title: table.title, caption: table.caption }),
  experimentId,
  sensitivity,
}: SectionsContext & { tables: readonly Table[]; text?: (table: Table) => TableText }) {
  return (
    <>
      {tables.map((table) => {
        const words = text(table);
        return (
          <TableSection
            key={table.id}
            id={table.id}
            title={words.title}
            help={words.caption}
            table={table}
            experimentId={experimentId}
            sensitivity={sensitivity}
            headerText={words.headerText}
            cellText={words.cellText}
          />
        );
      })}
    </>
  );
}

/** A results header's way into one of the protocol's own pages (a flip or unstable-item browser). */
export function ProtocolPageButton({
  testId,
  label,
  experimentId,
  page,
  onNavigate,
}: {
  testId: string;
  label: string;
  experimentId: number;
  page: string;
  onNavigate: Navigate;
}) {
  return (
    <button
      type="button"
      className="btn"
      data-testid={testId}
      onClick={() => onNavigate({ name: 'experiment-page', experimentId, page, query: {} })}
    >
      {label}
    </button>
  );
}

/**
 * A protocol's results-header tool (its `ResultsTools`): the button to one of its own pages,
 * labelled in the protocol's words (`labelKey` in `namespaces`).
 */
export function protocolPageTool(
  page: string,
  testId: string,
  namespaces: string[],
  labelKey: string,
): ComponentType<ResultsSectionsProps> {
  return function ProtocolPageTool({ experimentId, onNavigate }: ResultsSectionsProps) {
    const { t } = useTranslation(namespaces);
    return (
      <ProtocolPageButton
        testId={testId}
        label={t(labelKey)}
        experimentId={experimentId}
        page={page}
        onNavigate={onNavigate}
      />
    );
  };
}
