import { useId, type ReactNode } from 'react';

/**
 * One card of the run page (and the preregistration panel beside it): a section named by its
 * title, with its hint under the title when it has one.
 */
export function RunCard({
  title,
  hint,
  hintTestId,
  className,
  testId,
  children,
}: {
  title: ReactNode;
  hint?: ReactNode;
  hintTestId?: string;
  /** Classes beside `run-card`. */
  className?: string;
  testId?: string;
  children?: ReactNode;
}) {
  // The title names the section; its id is generated, so no two cards can share one.
  const titleId = useId();
  return (
    <section
      className={className ? `run-card ${className}` : 'run-card'}
      data-testid={testId}
      aria-labelledby={titleId}
    >
      <h2 id={titleId} className="run-card__title">
        {title}
      </h2>
      {hint !== undefined && (
        <p className="hint" data-testid={hintTestId}>
          {hint}
        </p>
      )}
      {children}
    </section>
  );
}
