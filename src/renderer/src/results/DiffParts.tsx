import type { DiffPart } from './reason-diff';

/**
 * The pieces of a diff as text (never HTML): removed struck through, added underlined. Each piece
 * is its own bidi isolate (dir="auto"): a right-to-left override or an unclosed embedding in a
 * model's text must not reorder the pieces around it.
 */
export function DiffParts({ parts }: { parts: readonly DiffPart[] }) {
  return parts.map((p, i) =>
    p.kind === 'added' ? (
      <ins key={i} className="diff-added" data-testid="diff-added" dir="auto">
        {p.text}
      </ins>
    ) : p.kind === 'removed' ? (
      <del key={i} className="diff-removed" data-testid="diff-removed" dir="auto">
        {p.text}
      </del>
    ) : (
      <span key={i} dir="auto">
        {p.text}
      </span>
    ),
  );
}
