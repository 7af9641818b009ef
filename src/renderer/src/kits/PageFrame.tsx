// The top of a page: the breadcrumb back to where it sits, and the title with its intro and tools;
// and what it shows while its data is not there.
import { Children, Fragment, type ComponentProps, type ReactNode } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';

/** The way back: each child is a link (or crumb) to a page above, then the current page's name. */
export function Breadcrumb({
  testId,
  current,
  children,
}: {
  testId?: string;
  current: ReactNode;
  children: ReactNode;
}) {
  return (
    <nav className="breadcrumb" aria-label="breadcrumb" data-testid={testId}>
      {Children.toArray(children).map((crumb, i) => (
        <Fragment key={i}>
          {crumb}
          <span aria-hidden="true">/</span>
        </Fragment>
      ))}
      <span aria-current="page">{current}</span>
    </nav>
  );
}

/** The page's title, its intro sentence (none when undefined) and its tools on the right. */
export function PageHeader({
  title,
  intro,
  compact = false,
  tools,
}: {
  title: ReactNode;
  intro?: ReactNode;
  compact?: boolean;
  tools?: ReactNode;
}) {
  return (
    <header className={compact ? 'page__header page__header--compact' : 'page__header'}>
      <div>
        <h1 className="page__title">{title}</h1>
        {intro !== undefined && <p className="page__intro">{intro}</p>}
      </div>
      {tools && <div className="page__tools">{tools}</div>}
    </header>
  );
}

/** What a page shows while its data is not there: why it failed, with a retry, or that it is loading. */
export function LoadState({
  error,
  failed,
  loading,
  onRetry,
  testId,
}: {
  error: ComponentProps<typeof ErrorPanel>['error'] | null;
  /** The failure panel's title. */
  failed: string;
  loading: string;
  onRetry: () => void;
  /** The failure panel's test id. */
  testId?: string;
}) {
  return error ? (
    <ErrorPanel title={failed} error={error} onRetry={onRetry} testId={testId} />
  ) : (
    <p className="empty-note" role="status">
      {loading}
    </p>
  );
}
