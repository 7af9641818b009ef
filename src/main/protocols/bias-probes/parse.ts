// Parsing answers: score_verdict, pairwise_verdict (DESIGN.md section 6) and plain-text rewrites.
import type { ParseResult } from '../types';
import { NO_FILLER } from './prompts';

export interface ScoreVerdict {
  score: number;
  reason: string;
}
export interface PairwiseVerdict {
  winner: 'A' | 'B' | 'tie';
  confidence: number | null;
  reason: string;
}
/** A rewrite: its text, or `none` when the rewriter found no filler to cut. */
export type Rewrite = { text: string; none?: false } | { text: null; none: true };

/**
 * "A", "b", "Response A", "(A)", "**tie**": the letter or tie a verdict names, in any case and
 * wrapping; null when it names neither.
 */
export function normalizeWinner(raw: unknown): 'A' | 'B' | 'tie' | null {
  if (typeof raw !== 'string') return null;
  const s = raw
    .trim()
    .replace(/^(response|output|answer|assistant)\s*/i, '')
    .replace(/[\s"'`*_.()[\]!]/g, '')
    .toUpperCase();
  return s === 'A' || s === 'B' ? s : s === 'TIE' ? 'tie' : null;
}

function objectOf(json: unknown, name: string): Record<string, unknown> | string {
  let v = json;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return `the answer is not a JSON object "${name}"`;
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return `the answer is not a JSON object "${name}"`;
  return v as Record<string, unknown>;
}

export function parseScoreVerdict(json: unknown, scale: number): ParseResult<ScoreVerdict> {
  const o = objectOf(json, 'score_verdict');
  if (typeof o === 'string') return { ok: false, error: o };
  const raw = typeof o.score === 'string' && o.score.trim() !== '' ? Number(o.score) : o.score;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > scale)
    return {
      ok: false,
      error: `"score" must be an integer from 1 to ${scale}, got ${JSON.stringify(o.score)}`,
    };
  return { ok: true, value: { score: raw, reason: typeof o.reason === 'string' ? o.reason : '' } };
}

export function parsePairwiseVerdict(json: unknown): ParseResult<PairwiseVerdict> {
  const o = objectOf(json, 'pairwise_verdict');
  if (typeof o === 'string') return { ok: false, error: o };
  const winner = normalizeWinner(o.winner);
  if (winner === null)
    return { ok: false, error: `"winner" must be "A", "B" or "tie", got ${JSON.stringify(o.winner)}` };
  const c = typeof o.confidence === 'number' && Number.isFinite(o.confidence) ? o.confidence : null;
  return {
    ok: true,
    value: {
      winner,
      confidence: c === null ? null : Math.min(1, Math.max(0, c)),
      reason: typeof o.reason === 'string' ? o.reason : '',
    },
  };
}

export function parseRewrite(json: unknown): ParseResult<Rewrite> {
  if (typeof json !== 'string') return { ok: false, error: 'the rewrite is not text' };
  const text = json.trim();
  if (text === NO_FILLER) return { ok: true, value: { text: null, none: true } };
  // An empty rewrite is stored (the audit flags it) rather than asked again: it is the model's answer.
  return { ok: true, value: { text } };
}
