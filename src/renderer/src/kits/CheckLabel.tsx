// A check box inside its label, so clicking the words ticks it too; every study's switch (only
// flagged rows, a probe, a part, a setting, batch mode) and the results page's switches are one.
import type { ReactNode } from 'react';

export function CheckLabel({
  label,
  checked,
  onChange,
  testId,
  className = 'checkbox',
  title,
  configKey,
  gap = false,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (on: boolean) => void;
  testId: string;
  /** The label's layout: `checkbox` inline, `check` a flex row, `results-switch__label`… */
  className?: string;
  title?: string;
  /** `data-config-key`: the config path the wizard scrolls to when the core refuses it. */
  configKey?: string;
  /**
   * The label's class spaces the box from its words (a flex row with a gap): no space character
   * then, so the label's text is its words alone. Without: a space, as between inline words.
   */
  gap?: boolean;
}) {
  return (
    <label className={className} title={title}>
      <input
        type="checkbox"
        data-testid={testId}
        data-config-key={configKey}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {gap ? null : ' '}
      {label}
    </label>
  );
}
