// Turning answers into variants and verdicts, tolerant of the ways models deviate from the
// schema when they answer in text mode, and strict about everything else (an error makes
// the runner ask again, then record the call as failed with its raw text).
import type { Winner } from '../../../shared/protocols/judge-ls/types';
import type { ParseResult } from '../types';
import type { VariantText, Verdict } from './model';

export {
  normalizeChoice,
  type ProbeChoice,
  type QualityChoice,
} from '../../../shared/protocols/judge-ls/choice';

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

/** JSON text, or the outermost {...} of a text that wraps it (code fences, a preamble). */
function parseJsonText(text: string): unknown {
  for (const candidate of [text, text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/**
 * The answer object: accepts the object itself, its JSON text, or the object wrapped under
 * its schema name ({"pairwise_verdict": {...}}), which json_object-mode models often send.
 */
function answerObject(json: unknown, name: string): Record<string, unknown> | string {
  let value = json;
  if (typeof value === 'string') {
    const parsed = parseJsonText(value);
    if (parsed === undefined) return 'the answer is not JSON';
    value = parsed;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'the answer is not a JSON object';
  const obj = value as Record<string, unknown>;
  const inner = obj[name];
  if (Object.keys(obj).length === 1 && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
    return inner as Record<string, unknown>;
  }
  return obj;
}

const VARIANT_FIELDS = [
  ['instruction', 'instruction'],
  ['output_1', 'output1'],
  ['output_2', 'output2'],
] as const;

/**
 * Parses a `language_variant`. Every field must be a string, and must not be blank where
 * the English text is not (a blank translation of a real text is a failed transform).
 * Without `english`, every field must be non-blank.
 */
export function parseVariant(json: unknown, english?: VariantText): ParseResult<VariantText> {
  const obj = answerObject(json, 'language_variant');
  if (typeof obj === 'string') return fail(obj);
  const out: VariantText = { instruction: '', output1: '', output2: '' };
  for (const [wire, field] of VARIANT_FIELDS) {
    const v = obj[wire];
    if (typeof v !== 'string') return fail(`"${wire}" is ${v === undefined ? 'missing' : 'not a string'}`);
    const englishBlank = english !== undefined && english[field].trim() === '';
    if (v.trim() === '' && !englishBlank) return fail(`"${wire}" is empty`);
    out[field] = v;
  }
  return { ok: true, value: out };
}

// "A", "a", "(A)", "Response A", "Output (a)", "Assistant B.", "**A**": a single letter A or B,
// optionally named as a response/output/answer/assistant and wrapped in brackets.
const WINNER_LETTER = /^(?:(?:response|output|answer|assistant|candidate)\s*)?[([]?\s*([ab])\s*[)\]]?$/i;

/** Normalizes a `winner` value; null when it names neither response nor a tie. */
export function normalizeWinner(raw: unknown): Winner | null {
  if (typeof raw !== 'string') return null;
  const s = raw
    .trim()
    .replace(/^[\s"'`*_]+|[\s"'`*_.!]+$/g, '')
    .trim();
  if (/^tie$/i.test(s)) return 'tie';
  const m = WINNER_LETTER.exec(s);
  return m ? (m[1].toUpperCase() as 'A' | 'B') : null;
}

function normalizeConfidence(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n)) return null;
  return Math.min(1, Math.max(0, n));
}

/**
 * Parses a `pairwise_verdict`. The winner must name A, B or a tie (case and "Response A"
 * style wording tolerated); confidence is clamped to [0, 1] and null when missing or not
 * numeric; a missing reason is an empty string.
 */
export function parseVerdict(json: unknown): ParseResult<Verdict> {
  const obj = answerObject(json, 'pairwise_verdict');
  if (typeof obj === 'string') return fail(obj);
  if (obj.winner === undefined) return fail('"winner" is missing');
  const winner = normalizeWinner(obj.winner);
  if (winner === null) return fail(`"winner" must be "A", "B" or "tie", got ${JSON.stringify(obj.winner)}`);
  const reason = typeof obj.reason === 'string' ? obj.reason : '';
  return { ok: true, value: { winner, confidence: normalizeConfidence(obj.confidence), reason } };
}
