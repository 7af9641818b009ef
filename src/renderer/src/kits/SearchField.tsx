// The search box of a list's filter bar (the dataset's items, a study's flips): a labelled field
// that takes the rest of the bar's width.

export function SearchField({
  label,
  placeholder,
  value,
  onChange,
  testId,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="field field--grow">
      <span className="field__label">{label}</span>
      <input
        type="search"
        data-testid={testId}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
