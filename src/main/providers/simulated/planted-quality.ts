// Planted judge–human agreement for the end-to-end validation (issue 33, bench/validate-e2e): a
// simulated pointwise judge whose name ends in `-quality<NN>` (e.g. `sim-judge-strong-r1-quality10`)
// scores each response its planted quality, a point of the scale drawn uniformly from the model
// and the response text, except that each ask, with NN %, gives a uniform score instead. The
// bench's simulated annotators read the same quality (`plantedQuality`) and add noise of their
// own, so the joint law of the judge's score and the people's median is known exactly and with it
// the population Spearman ρ and weighted κ the agreement report's intervals must cover.
// `-quality100` is a judge unrelated to people (ρ = 0). Models without the suffix answer as before.
import type { Rng } from '../../../shared/random';
import { mulberry32 } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { seedOf } from './random';
import { taggedSections } from './reading';

const QUALITY_SUFFIX = /-quality(\d{1,3})$/;

/** The per-ask share of uniform scores a model name asks for (0–1), or null (no suffix). */
export function plantedQualityNoise(model: string): number | null {
  const m = QUALITY_SUFFIX.exec(model);
  return m && Number(m[1]) <= 100 ? Number(m[1]) / 100 : null;
}

/**
 * The planted quality of a response on a 1–max scale: uniform over the scale's points, the same
 * for the judge and for the people who read the response (keyed by its trimmed text).
 */
export function plantedQuality(model: string, response: string, max: number): number {
  return 1 + Math.floor(mulberry32(seedOf('planted-quality', model, response.trim()))() * max);
}

/** The score of a `-quality<NN>` model, or null when the request is not a pointwise score it answers. */
export function plantedQualityScore(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> | null {
  if (spec.response?.name !== 'score_verdict') return null;
  const s = taggedSections(spec.messages.map((m) => m.content).join('\n\n'));
  const response = s.get('response');
  if (response === undefined || s.has('target')) return null;
  const max = Number((s.get('scale') ?? '1-5').split('-')[1]) || 5;
  const noise = plantedQualityNoise(spec.model) ?? 0;
  const score = rng() < noise ? 1 + Math.floor(rng() * max) : plantedQuality(spec.model, response, max);
  return { score, reason: 'Scored by its planted quality. (simulated)' };
}
