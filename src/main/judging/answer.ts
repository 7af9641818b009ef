// Reading a judge's answer object as tolerantly as its meaning allows. The strict JSON Schema is
// what we ask for (structured output); what comes back is read here, by the verdict's parser, and
// only an answer no parser can read is asked again (and paid again).
import { extractJsonObject } from '../providers/structured';

/** What a parser returns: a value, or a reason the answer is unusable (the runner re-asks). */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

export function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

/**
 * The answer object: the object itself, its JSON text (also inside a ```json fence or after a
 * preamble), or the object wrapped under its schema name ({"pairwise_verdict": {...}}), which
 * json_object-mode models and some tool callers send. A string is the reason it is not one.
 */
export function answerObject(json: unknown, name: string): Record<string, unknown> | string {
  let value = json;
  if (typeof value === 'string') {
    const text = value;
    try {
      value = JSON.parse(text);
    } catch {
      value = extractJsonObject(text);
      if (value === undefined) return 'the answer is not JSON';
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'the answer is not a JSON object';
  const obj = value as Record<string, unknown>;
  const inner = obj[name];
  if (Object.keys(obj).length === 1 && typeof inner === 'object' && inner !== null && !Array.isArray(inner))
    return inner as Record<string, unknown>;
  return obj;
}

/** A number, or a numeric string ("0.8", " 4 "); null otherwise. */
export function numberOf(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** A text field: the string, or '' when the judge left it out (it is an explanation, not the verdict). */
export function textOf(raw: unknown): string {
  return typeof raw === 'string' ? raw : '';
}
