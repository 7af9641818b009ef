// A labelled number box of the annotation pages: the label text, then the box, inside one
// <label> so clicking the text focuses the box.
export function NumberField({
  label,
  value,
  onChange,
  testId,
  min,
  max,
  step,
}: {
  label: string;
  value: number;
  /** The box's text as a number (an emptied box gives 0, as Number('') does). */
  onChange: (value: number) => void;
  testId: string;
  min?: number;
  max?: number;
  step?: number;
}) {
  return (
    <label>
      {label}{' '}
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        value={value}
        data-testid={testId}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </label>
  );
}
