// Planted instability for the keyless demo of repeated asks: a simulated model whose name ends in
// `-flip<NN>` (e.g. `sim-judge-strong-flip20`) answers every question with one base verdict (the
// draw of its first ask, the same for every repeat) and flips it on each ask, independently, with
// probability NN %: a pairwise winner A ↔ B (a tie becomes A or B), a score one point up or down
// (inward at the ends of the scale), a correctness verdict CORRECT ↔ INCORRECT (the extracted
// answer kept). Two asks of a pairwise or correctness question then disagree with
// probability 2p(1 − p). Generic: any study that asks a question more than once sees it; models
// without the suffix answer exactly as before.
import type { Rng } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { taggedSections } from './reading';

const FLIP_SUFFIX = /-flip(\d{1,2})$/;

/** The planted flip probability a model name asks for, or null (no suffix). */
export function plantedFlipRate(model: string): number | null {
  const m = FLIP_SUFFIX.exec(model);
  return m ? Number(m[1]) / 100 : null;
}

/** The same request as its first ask: what the base verdict is drawn from. */
export function firstAsk(spec: ChatRequestSpec): ChatRequestSpec {
  const { sample: _sample, ...rest } = spec;
  return rest;
}

/** The base answer, flipped with probability `p` (drawn from this ask's own `rng`). */
export function withPlantedFlip(spec: ChatRequestSpec, base: unknown, p: number, rng: Rng): unknown {
  if (rng() >= p || typeof base !== 'object' || base === null) return base;
  const answer = { ...(base as Record<string, unknown>) };
  if (spec.response?.name === 'pairwise_verdict') {
    const was = answer.winner;
    const winner = was === 'A' ? 'B' : was === 'B' ? 'A' : rng() < 0.5 ? 'A' : 'B';
    return {
      ...answer,
      winner,
      reason: `On another reading, Response ${winner} follows the instruction more closely. (simulated)`,
    };
  }
  if (spec.response?.name === 'correctness_verdict') {
    const verdict = answer.verdict === 'CORRECT' ? 'INCORRECT' : 'CORRECT';
    return {
      ...answer,
      verdict,
      explanation: `On another reading, the answer seems ${verdict === 'CORRECT' ? 'right' : 'wrong'} after all. (simulated)`,
    };
  }
  if (spec.response?.name === 'score_verdict' && typeof answer.score === 'number') {
    const text = spec.messages.map((m) => m.content).join('\n\n');
    const scale = Number((taggedSections(text).get('scale') ?? '1-5').split('-')[1]) || 5;
    const s = answer.score;
    const up = s <= 1 || (s < scale && rng() < 0.5);
    const score = s + (up ? 1 : -1);
    return {
      ...answer,
      score,
      reason: `On another reading, ${up ? 'a little better' : 'a little weaker'} than it first seemed. (simulated)`,
    };
  }
  return base;
}
