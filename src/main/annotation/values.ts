// What people type into a rating set, checked once: annotator names, guidelines text and rated
// values (as stored), with the words a refusal uses for a scale and a name made safe for a file.
import { onScale } from '../../shared/annotation/agreement';
import type { RatingScale, RatingValue } from '../../shared/annotation/types';
import { AppError } from '../base/errors';
import { DECIMAL_NUMBER } from '../base/input-limits';

export const MAX_ANNOTATOR_NAME = 100;
/** Guidelines longer than this are a document to link, not instructions to show beside each item. */
export const MAX_GUIDELINES = 200_000;

export function guidelinesText(raw: string): string {
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text.length > MAX_GUIDELINES)
    throw new AppError('invalid_params', `Guidelines may hold up to ${MAX_GUIDELINES} characters`);
  return text;
}

export function annotatorName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > MAX_ANNOTATOR_NAME) {
    throw new AppError('invalid_params', `An annotator name needs 1–${MAX_ANNOTATOR_NAME} characters`);
  }
  return name;
}

/** A value as stored: scores as numbers; preferences '1' | '2' | 'tie'; labels as on the scale. */
export function normalizeValue(scale: RatingScale, raw: RatingValue): RatingValue | null {
  if (scale.kind === 'score') {
    // Only decimal text counts as a score: Number() would read "0x5" as 5.
    const text = String(raw).trim();
    const n = typeof raw === 'number' ? raw : DECIMAL_NUMBER.test(text) ? Number(text) : NaN;
    return Number.isInteger(n) && onScale(scale, n) ? n : null;
  }
  const s = String(raw).trim();
  if (scale.kind === 'preference') {
    const v =
      s === '0' ? 'tie' : s.toLowerCase() === 'a' ? '1' : s.toLowerCase() === 'b' ? '2' : s.toLowerCase();
    return onScale(scale, v) ? v : null;
  }
  return scale.labels.find((l) => l.toLowerCase() === s.toLowerCase()) ?? null;
}

/** A set or annotator name as a file name part. */
export function fileStem(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'annotation-set';
}

export function describeScale(scale: RatingScale): string {
  if (scale.kind === 'score') return `an integer ${scale.min}–${scale.max}`;
  if (scale.kind === 'preference') return '1, 2 or tie';
  return scale.labels.join(' or ');
}
