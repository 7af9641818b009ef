// Parsing answers: a correctness_verdict (DESIGN.md section 6) and a plain-text answer.
import type { Verdict } from '../../../shared/protocols/reference-sensitivity/types';
import type { ParseResult } from '../types';

export interface CorrectnessVerdict {
  extracted_answer: string;
  explanation: string;
  verdict: Verdict;
}

export function parseCorrectnessVerdict(json: unknown): ParseResult<CorrectnessVerdict> {
  let v = json;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return { ok: false, error: 'the answer is not a JSON object "correctness_verdict"' };
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return { ok: false, error: 'the answer is not a JSON object "correctness_verdict"' };
  const o = v as Record<string, unknown>;
  for (const f of ['extracted_answer', 'explanation'])
    if (typeof o[f] !== 'string') return { ok: false, error: `"${f}" must be a string` };
  const verdict = typeof o.verdict === 'string' ? o.verdict.trim().toUpperCase() : '';
  if (verdict !== 'CORRECT' && verdict !== 'INCORRECT')
    return {
      ok: false,
      error: `"verdict" must be "CORRECT" or "INCORRECT", got ${JSON.stringify(o.verdict)}`,
    };
  return {
    ok: true,
    value: { extracted_answer: o.extracted_answer as string, explanation: o.explanation as string, verdict },
  };
}

export function parseGeneratedAnswer(json: unknown): ParseResult<{ answer: string }> {
  if (typeof json !== 'string' || json.trim() === '')
    return { ok: false, error: 'the generated answer is empty' };
  return { ok: true, value: { answer: json.trim() } };
}
