import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckLabel } from '../kits/CheckLabel';
import './i18n';

/** A switch above the results (which items every table counts): its label, what it does now, more. */
export function ResultsSwitch({
  testId,
  boxTestId,
  label,
  on,
  onChange,
  hint,
  hintTestId,
  children,
}: {
  testId?: string;
  boxTestId: string;
  label: string;
  on: boolean;
  onChange: (on: boolean) => void;
  /** What the switch leaves out as it stands; none without. */
  hint?: ReactNode;
  hintTestId?: string;
  children?: ReactNode;
}) {
  return (
    <div className="results-switch" data-testid={testId}>
      <CheckLabel
        className="results-switch__label"
        gap
        testId={boxTestId}
        checked={on}
        onChange={onChange}
        label={label}
      />
      {hint !== undefined && (
        <span className="hint results-switch__hint" data-testid={hintTestId}>
          {hint}
        </span>
      )}
      {children}
    </div>
  );
}

/**
 * "Without flagged items": every table and chart again without the items a user flagged. The
 * results page says beside it what the switch does; an opened bundle shows the switch alone.
 */
export function FlaggedSwitch({
  count,
  on,
  onChange,
  hint = false,
}: {
  count: number;
  on: boolean;
  onChange: (on: boolean) => void;
  hint?: boolean;
}) {
  const { t } = useTranslation('results');
  return (
    <ResultsSwitch
      boxTestId="exclude-flagged"
      label={t('withoutFlagged', { count })}
      on={on}
      onChange={onChange}
      hint={hint ? (on ? t('withoutFlaggedOn', { count }) : t('withoutFlaggedOff')) : undefined}
    />
  );
}
