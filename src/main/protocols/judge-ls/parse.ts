// Turning transform answers into variants, tolerant of the ways models deviate from the schema
// when they answer in text mode, and strict about everything else (an error makes the runner ask
// again, then record the call as failed with its raw text). Verdicts are the judging kit's
// pairwise_verdict (src/main/judging/pairwise.ts).
import { answerObject, fail, type ParseResult } from '../../judging/answer';
import type { VariantText } from './model';

export {
  normalizeChoice,
  type ProbeChoice,
  type QualityChoice,
} from '../../../shared/protocols/judge-ls/choice';

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
