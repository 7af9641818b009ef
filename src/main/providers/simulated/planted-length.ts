// Planted length effect for the end-to-end validation (issue 33, bench/validate-e2e): a simulated
// pointwise judge whose name ends in `-long<NN>` (e.g. `sim-judge-strong-long30`) scores every
// response at the middle of the scale, except that on a planted NN % of responses it scores the
// simulated rewriter's longer variant one point higher. The bias-probes length probe (longer −
// original score) then has a known truth: each difference is 1 with probability NN %, else 0.
// `-long<NN>-noise<MM>` adds per-ask noise: each score moves one point down with MM/2 % and up
// with MM/2 %, so the difference has mean NN/100 and variance r(1 − r) + 2·MM/100, a planted
// d_z the power planner reads. `-long0-noise<MM>` is the null: symmetric differences, no effect.
// Which responses carry the effect is a draw from the model and the original text (the longer
// variant is the original, LONGER_TAIL and more), so the original and its variant agree.
// Models without the suffix answer exactly as before.
import type { Rng } from '../../../shared/random';
import { mulberry32 } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { seedOf } from './random';
import { taggedSections } from './reading';
import { LONGER_TAIL } from './rewrite-and-score';

// A `-bias-<probe><NN>` knob may follow (planted-bias.ts): the probe validation plants it on this
// judge, whose answers without it are known (bench/validate-e2e/probes.ts).
const LONG_SUFFIX = /-long(\d{1,3})(?:-noise(\d{1,2}))?(?:-bias-[a-z][a-z0-9_]*?\d{1,3})?$/;

/** The planted share of responses whose longer variant scores a point higher (0–1), or null. */
export function plantedLengthRate(model: string): number | null {
  const m = LONG_SUFFIX.exec(model);
  return m && Number(m[1]) <= 100 ? Number(m[1]) / 100 : null;
}

/** The per-ask noise of a `-long<NN>` model: its `-noise<MM>` share, else none. */
export function plantedLengthNoise(model: string): number {
  const m = LONG_SUFFIX.exec(model);
  return m?.[2] === undefined ? 0 : Number(m[2]) / 100;
}

/** The original of a response: the text before the rewriter's longer tail, trimmed. */
function originalOf(response: string): { original: string; longer: boolean } {
  const at = response.indexOf(LONGER_TAIL.trim());
  return at < 0
    ? { original: response.trim(), longer: false }
    : { original: response.slice(0, at).trim(), longer: true };
}

/** Whether the model scores the longer variant of this (original) response a point higher. */
export function lengthPlanted(model: string, response: string): boolean {
  const rate = plantedLengthRate(model);
  if (rate === null) return false;
  return mulberry32(seedOf('planted-length', model, originalOf(response).original))() < rate;
}

/** The score of a `-long<NN>` model, or null when the request is not a pointwise score it answers. */
export function plantedLengthScore(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> | null {
  if (spec.response?.name !== 'score_verdict') return null;
  const s = taggedSections(spec.messages.map((m) => m.content).join('\n\n'));
  const response = s.get('response');
  // One response scored alone; a pair's target (the position probe) is not this judge's.
  if (response === undefined || s.has('target')) return null;
  const scale = Number((s.get('scale') ?? '1-5').split('-')[1]) || 5;
  const { longer } = originalOf(response);
  const bump = longer && lengthPlanted(spec.model, response) ? 1 : 0;
  const e = plantedLengthNoise(spec.model);
  const r = rng();
  const noise = r < e / 2 ? -1 : r < e ? 1 : 0;
  // The middle of the scale, with room for the bump and the noise either way.
  const score = Math.ceil(scale / 2) + bump + noise;
  return { score, reason: 'Scored at the middle of the scale. (simulated)' };
}
