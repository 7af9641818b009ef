// A progress bar that tells answered calls from failed ones: a full bar of failures must not
// read as a run done (issue 32 item 7). The counts are in the label; colour only helps.

export function SplitBar({
  total,
  done,
  failed,
  label,
  small = false,
}: {
  total: number;
  done: number;
  failed: number;
  /** What a screen reader hears (the counts in words). */
  label: string;
  small?: boolean;
}) {
  const of = Math.max(1, total);
  const pct = (n: number) => `${Math.min(100, Math.max(0, (n / of) * 100))}%`;
  return (
    <div
      className={`split-bar${small ? ' split-bar--small' : ''}`}
      role="img"
      aria-label={label}
      data-done={done}
      data-failed={failed}
    >
      <span className="split-bar__done" style={{ width: pct(done) }} />
      <span className="split-bar__failed" style={{ width: pct(failed) }} />
    </div>
  );
}
