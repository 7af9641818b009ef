// The labels spreadsheet a person fills for `annotate import-labels` (DESIGN.md section 5d): one
// row a unit, its blinded text to read (prompt, context, responses as the rating screen shows
// them), an empty value column named after the set's scale, and the unit's opaque id as item_id,
// which the importer accepts. Without it a person could not learn the ids without reading SQLite.
import type { AnnotationView, RatingScale } from '../../shared/annotation/types';
import { toCsv } from '../report/csv';

export interface TemplateUnit {
  unitUid: string;
  view: AnnotationView;
}

/** What a value cell may hold, for the person filling it (and the CLI's message). */
export function scaleHint(scale: RatingScale): string {
  if (scale.kind === 'score') return `an integer from ${scale.min} to ${scale.max}`;
  if (scale.kind === 'preference') return 'A, B or tie (or 1, 2, 0)';
  return `one of ${scale.labels.join(', ')}`;
}

/** Response columns: one "response", or "response_a", "response_b", … as the screen labels them. */
function responseHeaders(count: number): string[] {
  if (count <= 1) return ['response'];
  return Array.from({ length: count }, (_, i) => `response_${String.fromCharCode(97 + i)}`);
}

/**
 * The template as CSV (BOM, CRLF, cells that a spreadsheet would run as formulas defused): the
 * columns the importer reads (item_id, annotator, the scale's value column, comment) first, the
 * text to read after them. `annotator` prefills that column; empty otherwise.
 */
export function labelTemplateCsv(
  scale: RatingScale,
  units: readonly TemplateUnit[],
  annotator: string | null,
): string {
  const width = Math.max(1, ...units.map((u) => u.view.responses.length));
  const withContext = units.some((u) => (u.view.context ?? '') !== '');
  const header = [
    'item_id',
    'annotator',
    scale.kind,
    'comment',
    'prompt',
    ...(withContext ? ['context'] : []),
    ...responseHeaders(width),
  ];
  const rows = units.map((u) => [
    u.unitUid,
    annotator ?? '',
    '',
    '',
    u.view.prompt,
    ...(withContext ? [u.view.context ?? ''] : []),
    ...Array.from({ length: width }, (_, i) => u.view.responses[i] ?? ''),
  ]);
  return toCsv(header, rows);
}
