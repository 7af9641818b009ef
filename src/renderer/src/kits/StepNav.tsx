// Where an opened row stands in its list, and the way to the row before and after it: the item
// viewer and a study's flip detail step through their lists alike (styles: styles/items.css).

/** The position (none: the row is not in the list) and the previous/next buttons, off at an end. */
export function StepNav({
  position,
  previous,
  next,
  onPrevious,
  onNext,
}: {
  position: string | null;
  previous: string;
  next: string;
  onPrevious?: () => void;
  onNext?: () => void;
}) {
  return (
    <>
      <span className="item-viewer__position">{position}</span>
      <div className="item-viewer__step">
        <button type="button" className="btn" onClick={onPrevious} disabled={!onPrevious}>
          ← {previous}
        </button>
        <button type="button" className="btn" onClick={onNext} disabled={!onNext}>
          {next} →
        </button>
      </div>
    </>
  );
}
