// Marking of results made by the built-in simulated provider: a reader of any table or figure
// taken out of the app must see that no real model produced it. Pure, for exports and screen.
import type { FigureSpec } from './chart-kit';
import type { Table } from './table';

export const SIMULATED_PREFIX = 'Simulated — ';

function prefixed(text: string): string {
  return text.startsWith(SIMULATED_PREFIX) ? text : SIMULATED_PREFIX + text;
}

export const SIMULATED_NOTE = 'Simulated data: no real model was called.';

/**
 * The table with "Simulated — " before its title, which is where every caption starts (LaTeX
 * writes "title. caption", XLSX notes the same), and a closing note in the caption itself.
 */
export function markSimulatedTable(table: Table): Table {
  const caption = table.caption.endsWith(SIMULATED_NOTE)
    ? table.caption
    : `${table.caption}${table.caption ? ' ' : ''}${SIMULATED_NOTE}`;
  return { ...table, title: prefixed(table.title), caption };
}

/** The figure with "Simulated — " before its title, in the spec and in the drawn chart. */
export function markSimulatedFigure(figure: FigureSpec): FigureSpec {
  const t = figure.option.title;
  const mark = (o: Record<string, unknown>) =>
    typeof o.text === 'string' ? { ...o, text: prefixed(o.text) } : o;
  const title = Array.isArray(t)
    ? t.map((o) => mark(o as Record<string, unknown>))
    : t
      ? mark(t as Record<string, unknown>)
      : t;
  return {
    ...figure,
    title: prefixed(figure.title),
    option: {
      ...figure.option,
      ...(title === undefined ? {} : { title: title as FigureSpec['option']['title'] }),
    },
  };
}
