// The frame every protocol's flip or unstable-item browser shares: a page with a way back to the
// results, filters kept in the URL, a count, the virtualized list, and one opened row shown as a
// detail with its texts and verdict cards. The protocol supplies the words, columns and cells.
import { useMemo, type ReactNode } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import type { Navigate } from '../results/routes';
import { PageHeader } from './PageFrame';
import { withFilter } from './url-query';
import { useProtocolView } from './useProtocolView';
import { GridRow, VirtualGrid } from './VirtualGrid';
import '../results/results.css';
import './item-browser.css';
import { CheckLabel } from './CheckLabel';
import { Button } from '../components/Button';

export interface ItemBrowserTexts {
  title: string;
  intro: string;
  toResults: string;
  loadFailed: string;
  /** The filters' empty choice. */
  any: string;
  /** The check box that lists every row, not only the changed ones (`all=1`). */
  all: string;
  loading: string;
  /** The opened row's way back to the list. */
  back: string;
  count: (shown: number, total: number) => string;
  /** Said under the count when the filters leave no row; nothing without it. */
  none?: string;
  /** The filters' group name for assistive technology. */
  filters?: string;
}

/**
 * The browser's words from a protocol's strings under `prefix` (title, intro, toResults,
 * loadFailed, any, all, loading, back, count with {{shown}} and {{total}}); `none` and `filters` where
 * the protocol has them.
 */
export function browserTexts(
  t: (key: string, options?: Record<string, unknown>) => string,
  prefix: string,
  optional: readonly ('none' | 'filters')[] = [],
): ItemBrowserTexts {
  const word = (key: string) => t(`${prefix}.${key}`);
  return {
    title: word('title'),
    intro: word('intro'),
    toResults: word('toResults'),
    loadFailed: word('loadFailed'),
    any: word('any'),
    all: word('all'),
    loading: word('loading'),
    back: word('back'),
    count: (shown, total) => t(`${prefix}.count`, { shown, total }),
    ...Object.fromEntries(optional.map((key) => [key, word(key)])),
  };
}

/** The browser's test ids, in the kit's pattern. */
export type BrowserTestIds = {
  page: string;
  filter: string;
  count: string;
  list: string;
  row: string;
  detail: string;
};

/**
 * The browser's test ids from a protocol's prefix: `<prefix>-<list>-page` and `-count`,
 * `<prefix>-filter`, `<prefix>-<row>-list` and `-row` (`list` the plural, `row` the singular word
 * of the listed items), and `detail` the opened row's id prefix.
 */
export const browserTestIds = (
  prefix: string,
  list: string,
  row: string,
  detail: string,
): BrowserTestIds => ({
  page: `${prefix}-${list}-page`,
  filter: `${prefix}-filter`,
  count: `${prefix}-${list}-count`,
  list: `${prefix}-${row}-list`,
  row: `${prefix}-${row}-row`,
  detail,
});

/** One filter of the browser: a URL query key and the values it may take. */
export interface BrowserFilter {
  name: string;
  label: string;
  options: readonly FilterOption[];
}

/** The list's columns: header cells and each row's cells, in the same order. */
export interface BrowserGrid<R> {
  /** Beside `flip-table`: the protocol's column widths. */
  className: string;
  head: ReactNode;
  cells: (row: R) => ReactNode;
}

/** A browser's view: its rows and how many rows there are before the filters. */
interface BrowserView {
  rows: unknown[];
  total: number;
}
type RowOf<V extends BrowserView> = V['rows'][number];

/**
 * Where a browser reads its rows and how it is named: a protocol declares it once, as data, beside
 * its page's query (the rest of the browser is its words, filters, grid and detail).
 */
export interface BrowserSource<V extends BrowserView, R = RowOf<V>> {
  /** The protocol page's route name (`#/experiments/<id>/<page>`). */
  page: string;
  /** The protocol's read view, the API query the URL query asks for, and the reader of its answer. */
  view: string;
  apiQuery: (query: Record<string, string>) => object;
  read: (raw: unknown) => V;
  /** A row's key in the URL (`open`). */
  rowKey: (row: R) => string;
  /**
   * Test ids are `<prefix>-page`, `<prefix>-filter-<name>`, `-filter-all`, `-count`, `-list`, `-row`;
   * `detail` names the opened row (see ItemDetail's `idPrefix`).
   */
  testIds: BrowserTestIds;
}

interface ItemBrowserProps<V extends BrowserView, R = RowOf<V>> {
  experimentId: number;
  query: Record<string, string>;
  onNavigate: Navigate;
  source: BrowserSource<V, R>;
  texts: ItemBrowserTexts;
  filters: (data: V | null) => readonly BrowserFilter[];
  grid: (rows: R[]) => BrowserGrid<R>;
  /** The opened row, drawn in an ItemDetail given `frame` (its name and the way back to the list). */
  detail: (row: R, data: V, frame: DetailFrame) => ReactNode;
}

/** ItemDetail's name and way back, which the browser knows: back goes to the list, filters kept. */
export interface DetailFrame {
  idPrefix: string;
  backLabel: string;
  onBack: () => void;
}

/**
 * A protocol's browser of its changed verdicts (flips, unstable items): rows read from its view
 * for the filters in the URL, a virtualized keyboard list, and one row opened as a detail.
 * The URL query holds the whole state, so back/forward and reloads keep the place.
 */
export function ItemBrowser<V extends BrowserView>(props: ItemBrowserProps<V>) {
  const { experimentId, query, onNavigate, texts, source } = props;
  const { testIds, rowKey } = source;
  const { data, error, loading } = useProtocolView(
    experimentId,
    source.view,
    source.apiQuery(query),
    source.read,
  );
  const go = (q: Record<string, string>) =>
    onNavigate({ name: 'experiment-page', experimentId, page: source.page, query: q });
  const setFilter = (key: string, value: string) => go(withFilter(query, key, value));
  const rows: RowOf<V>[] = useMemo(() => data?.rows ?? [], [data]);
  const opened = useMemo(
    () => rows.find((r) => rowKey(r) === query.open) ?? null,
    [rows, rowKey, query.open],
  );
  const grid = props.grid(rows);
  return (
    <div className="page flips-page" data-testid={testIds.page} aria-busy={loading}>
      <PageHeader
        title={texts.title}
        intro={texts.intro}
        tools={
          <Button
            className="btn btn--ghost"
            onClick={() => onNavigate({ name: 'results', experimentId, excludeFlagged: false })}
          >
            ← {texts.toResults}
          </Button>
        }
      />
      {error && <ErrorPanel title={texts.loadFailed} error={error} />}
      {opened && data ? (
        props.detail(opened, data, {
          idPrefix: testIds.detail,
          backLabel: texts.back,
          onBack: () => go(withFilter(query, 'open', '')),
        })
      ) : (
        <>
          <div className="browser-filters" role="group" aria-label={texts.filters}>
            {props.filters(data).map((f) => (
              <FilterSelect
                key={f.name}
                label={f.label}
                testId={`${testIds.filter}-${f.name}`}
                value={query[f.name] ?? ''}
                anyLabel={texts.any}
                options={f.options}
                onChange={(v) => setFilter(f.name, v)}
              />
            ))}
            <CheckLabel
              testId={`${testIds.filter}-all`}
              checked={query.all === '1'}
              onChange={(on) => setFilter('all', on ? '1' : '')}
              label={texts.all}
            />
          </div>
          <p className="hint" data-testid={testIds.count} role="status">
            {data ? texts.count(rows.length, data.total) : texts.loading}
          </p>
          {texts.none && data && rows.length === 0 && <p className="hint">{texts.none}</p>}
          <VirtualGrid
            count={rows.length}
            className={grid.className}
            label={texts.title}
            testId={testIds.list}
            head={grid.head}
            onOpen={(i) => go({ ...query, open: rowKey(rows[i]) })}
            renderRow={(place) => {
              const r = rows[place.index];
              return (
                <GridRow key={rowKey(r)} place={place} testId={testIds.row}>
                  {grid.cells(r)}
                </GridRow>
              );
            }}
          />
        </>
      )}
    </div>
  );
}

export interface FilterOption {
  value: string;
  label: string;
}

/** One filter: its empty value means "any" (every row). */
export function FilterSelect({
  label,
  testId,
  value,
  anyLabel,
  options,
  onChange,
  inline = true,
}: {
  label: string;
  testId: string;
  value: string;
  anyLabel: string;
  options: readonly FilterOption[];
  onChange: (value: string) => void;
  /** Label beside the select (a browser's filter row) rather than above it (a filter bar). */
  inline?: boolean;
}) {
  return (
    <label className={inline ? 'field field--inline' : 'field'}>
      <span className="field__label">{label}</span>
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The same values as their own labels (judges, languages, categories). */
export const asOptions = (values: readonly string[] | undefined, label: (v: string) => string = (v) => v) =>
  (values ?? []).map((value) => ({ value, label: label(value) }));

/** A fact about the opened row, shown as a chip: its text, or the text with a test id and a tooltip. */
export type DetailChip = string | { text: string; testId?: string; title?: string };

/** One opened row: a way back, the row's id and chips, then what the protocol shows of it. */
export function ItemDetail({
  idPrefix,
  title,
  backLabel,
  onBack,
  chips,
  children,
}: DetailFrame & {
  /* idPrefix names the detail: test id and class `<prefix>-detail` (the protocol's layout of texts
     and cards hangs on the class), the heading's id `<prefix>-title`. */
  title: string;
  /** In order; a condition that does not hold (`false`, `null`) leaves its chip out. */
  chips: readonly (DetailChip | false | null)[];
  children: ReactNode;
}) {
  return (
    <article
      className={`flip-detail browser-detail ${idPrefix}-detail`}
      data-testid={`${idPrefix}-detail`}
      aria-labelledby={`${idPrefix}-title`}
    >
      <nav className="flip-detail__nav">
        <Button className="btn btn--ghost" onClick={onBack}>
          ← {backLabel}
        </Button>
      </nav>
      <header className="flip-detail__meta">
        <h2 id={`${idPrefix}-title`} className="flip-detail__id mono">
          {title}
        </h2>
        {chips.map((chip, i) =>
          !chip ? null : typeof chip === 'string' ? (
            <span key={i} className="chip">
              {chip}
            </span>
          ) : (
            <span key={i} className="chip" data-testid={chip.testId} title={chip.title}>
              {chip.text}
            </span>
          ),
        )}
      </header>
      {children}
    </article>
  );
}

// Model and dataset texts are React text children, never HTML; each is its own bidi isolate
// (dir="auto"), so an Arabic question reads right to left and cannot reorder what is around it.
export function ModelText({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="text text-block" dir="auto" data-testid={testId}>
      {text}
    </div>
  );
}

/** A labelled row of the detail's texts (inside `<section className="flip-texts">`). */
export function TextRow({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flip-texts__row">
      <div className="flip-texts__label">{label}</div>
      {children}
    </div>
  );
}

export type VerdictTone = 'right' | 'wrong' | 'tie';

/** One verdict: its title, the verdict as a chip, its tone against the gold answer, and what it said. */
export function VerdictCard({
  tone,
  title,
  verdict,
  testId,
  verdictTestId,
  children,
}: {
  tone: VerdictTone;
  title: string;
  verdict: string;
  testId: string;
  verdictTestId: string;
  children: ReactNode;
}) {
  return (
    <section className={`verdict-card verdict-card--${tone}`} data-testid={testId}>
      <header className="verdict-card__head">
        <h3 className="verdict-card__title">{title}</h3>
        <span className="chip" data-testid={verdictTestId}>
          {verdict}
        </span>
      </header>
      {children}
    </section>
  );
}

/** A verdict's own words (its reason or the failure), as text. */
export function VerdictReason({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="text verdict-card__reason" dir="auto" data-testid={testId}>
      {text}
    </div>
  );
}
