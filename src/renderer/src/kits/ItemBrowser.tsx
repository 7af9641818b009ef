// The frame every protocol's flip or unstable-item browser shares: a page with a way back to the
// results, filters kept in the URL, a count, the virtualized list, and one opened row shown as a
// detail with its texts and verdict cards. The protocol supplies the words, columns and cells.
import type { ReactNode } from 'react';
import type { ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import type { Navigate } from '../results/routes';
import '../results/results.css';
import './item-browser.css';

export interface ItemBrowserTexts {
  title: string;
  intro: string;
  toResults: string;
  loadFailed: string;
}

interface ItemBrowserPageProps {
  testId: string;
  texts: ItemBrowserTexts;
  experimentId: number;
  onNavigate: Navigate;
  loading: boolean;
  error: ApiError | null;
  /** The opened row's detail; while one is open the filters and list are not shown. */
  detail: ReactNode;
  children: ReactNode;
}

export function ItemBrowserPage({
  testId,
  texts,
  experimentId,
  onNavigate,
  loading,
  error,
  detail,
  children,
}: ItemBrowserPageProps) {
  return (
    <div className="page flips-page" data-testid={testId} aria-busy={loading}>
      <header className="page__header">
        <div>
          <h1 className="page__title">{texts.title}</h1>
          <p className="page__intro">{texts.intro}</p>
        </div>
        <div className="page__tools">
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => onNavigate({ name: 'results', experimentId, excludeFlagged: false })}
          >
            ← {texts.toResults}
          </button>
        </div>
      </header>
      {error && <ErrorPanel title={texts.loadFailed} error={error} />}
      {detail || children}
    </div>
  );
}

/** The filters' row: a group of `FilterSelect`s and check boxes. */
export function BrowserFilters({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <div className="browser-filters" role="group" aria-label={label}>
      {children}
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

/** One opened row: a way back, the row's id and chips, then what the protocol shows of it. */
export function ItemDetail({
  testId,
  className,
  titleId,
  title,
  backLabel,
  onBack,
  chips,
  children,
}: {
  testId: string;
  /** Beside `flip-detail`: the protocol's layout of texts and cards. */
  className: string;
  titleId: string;
  title: string;
  backLabel: string;
  onBack: () => void;
  chips: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className={`flip-detail ${className}`} data-testid={testId} aria-labelledby={titleId}>
      <nav className="flip-detail__nav">
        <button type="button" className="btn btn--ghost" onClick={onBack}>
          ← {backLabel}
        </button>
      </nav>
      <header className="flip-detail__meta">
        <h2 id={titleId} className="flip-detail__id mono">
          {title}
        </h2>
        {chips}
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
