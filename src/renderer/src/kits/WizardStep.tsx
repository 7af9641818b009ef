// What a protocol's wizard step is made of: the step's frame, its slice of the draft with the
// step's problems, and the controls several studies ask for (a provider and model, the score
// scale, one of a few choices).
import { useMemo, type ReactNode } from 'react';
import { Field } from '../components/Field';
import { isPresetId, type PresetId } from '../lib/providers';
import type { StepId } from '../lib/experiment-config';
import type { WizardDraft } from '../lib/wizard-draft';
import { useWizard } from '../stores/wizard';
import { useStepIssues, type ShownIssue } from '../wizard/issues';
import { PresetOptions } from '../wizard/PresetOptions';

/** A step's heading and intro around its fields. */
export function WizardStepFrame({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {title}
      </h2>
      <p className="wizard-step__intro">{intro}</p>
      {children}
    </section>
  );
}

/** A protocol's slice of the draft: read from the whole draft, changed, and read by its step. */
export interface DraftSlice<T> {
  /** Changes the slice (callable anywhere: no hook, no re-render of its own). */
  edit: (fn: (own: T) => T) => void;
  /** In the step: the slice, the step's problems, and the first problem of a field. */
  useStep: (step: StepId) => {
    own: T;
    issues: ShownIssue[];
    err: (field: string) => string | undefined;
  };
}

export function draftSlice<T>(
  read: (draft: WizardDraft) => T,
  write: (draft: WizardDraft, own: T) => WizardDraft,
): DraftSlice<T> {
  return {
    edit: (fn) => useWizard.getState().update((d) => write(d, fn(read(d)))),
    useStep: function useStep(step) {
      const draft = useWizard((s) => s.draft);
      const own = useMemo(() => read(draft), [draft]);
      const issues = useStepIssues(step);
      return { own, issues, err: (f) => issues.find((i) => i.field === f)?.message };
    },
  };
}

/** Which provider preset a model is called through (judge, rewriter, translator, generator). */
export function ProviderSelect({
  label,
  testId,
  value,
  error,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  error?: string;
  onChange: (preset: PresetId) => void;
}) {
  return (
    <Field label={label} error={error}>
      <select
        data-testid={testId}
        value={value}
        onChange={(e) => isPresetId(e.target.value) && onChange(e.target.value)}
      >
        <PresetOptions />
      </select>
    </Field>
  );
}

/** A model name as the provider spells it. */
export function ModelInput({
  label,
  testId,
  value,
  error,
  list,
  placeholder,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  error?: string;
  /** The id of a datalist of suggested models. */
  list?: string;
  placeholder?: string;
  onChange: (model: string) => void;
}) {
  return (
    <Field label={label} error={error}>
      <input
        type="text"
        className="mono"
        data-testid={testId}
        list={list}
        spellCheck={false}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

/** The score scale of a pointwise judge: 1–5 or 1–10. */
export function ScaleSelect({
  label,
  hint,
  testId,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  testId: string;
  value: 5 | 10;
  onChange: (scale: 5 | 10) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value === '10' ? 10 : 5)}>
        <option value="5">1–5</option>
        <option value="10">1–10</option>
      </select>
    </Field>
  );
}

/** One of a few choices as radio buttons in a fieldset; `children` follow them (a problem, a note). */
export function RadioChoice<V extends string>({
  legend,
  name,
  values,
  value,
  label,
  testId,
  onChange,
  children,
}: {
  legend: string;
  name: string;
  values: readonly V[];
  value: V;
  label: (v: V) => string;
  testId: (v: V) => string;
  onChange: (v: V) => void;
  children?: ReactNode;
}) {
  return (
    <fieldset className="form-grid">
      <legend>{legend}</legend>
      {values.map((v) => (
        <label key={v} className="checkbox">
          <input
            type="radio"
            name={name}
            data-testid={testId(v)}
            checked={value === v}
            onChange={() => onChange(v)}
          />{' '}
          {label(v)}
        </label>
      ))}
      {children}
    </fieldset>
  );
}

/** An option that is on or off, with a bold name and a sentence saying what it does. */
export function OptionCheck({
  testId,
  configKey,
  title,
  text,
  checked,
  disabled,
  onChange,
}: {
  testId: string;
  /** The config key it sets, for the summary's "where is this in the config" links. */
  configKey?: string;
  title: string;
  text: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="check check--block">
      <input
        type="checkbox"
        data-testid={testId}
        data-config-key={configKey}
        disabled={disabled}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        <strong>{title}</strong>
        <span className="check__text">{text}</span>
      </span>
    </label>
  );
}
