// Planted probe effects for keyless runs (issue 35): a simulated judge whose name ends
// in `-bias-<probe id><NN>` (e.g. `sim-judge-bias-authority40`) answers as the plain simulated judge
// does, except that on the calls the probe's `detect` recognises (the side its perturbation
// favours: a letter pairwise, the scored response pointwise) NN % move toward that side — the
// verdict to the favoured letter, or the score one point up (capped at the scale's top). Which
// calls move is a stable draw from the model and the request (one judged unit: an item in one
// order, or one response), so a rerun moves the same ones. Any registered probe plants its effect
// this way with no code here; models without the suffix answer exactly as before.
import { mulberry32 } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { seedOf } from './random';
import { taggedSections } from './reading';

/** Where a probe's perturbation shows in a judge call, and the side it favours (or none). */
export type PlantedDetect = (
  prompt: { system: string; user: string },
  mode: 'pointwise' | 'pairwise',
) => 'A' | 'B' | 'response' | null;

// The probes' detectors, by probe id: set by the study that declares the probes (its plug-in),
// so this provider names no study; none set, no knob plants anything.
let detectorOf: (probe: string) => PlantedDetect | undefined = () => undefined;

/** Tells the simulated judge how to find each probe's perturbation (a study's plug-in calls it). */
export function setPlantedDetectors(lookup: (probe: string) => PlantedDetect | undefined): void {
  detectorOf = lookup;
}

const BIAS_SUFFIX = /-bias-([a-z][a-z0-9_]*?)(\d{1,3})$/;

/** The probe a `-bias-<id><NN>` model plants and the share of its detected calls it moves, or null. */
export function plantedBias(model: string): { probe: string; rate: number } | null {
  const m = BIAS_SUFFIX.exec(model);
  return m && Number(m[2]) <= 100 ? { probe: m[1], rate: Number(m[2]) / 100 } : null;
}

/**
 * The answer with the probe's effect planted: `answer` (the plain simulated judge's) moved when the
 * probe detects its perturbation in this call and the unit's draw falls under the rate.
 */
export function withPlantedBias(spec: ChatRequestSpec, answer: unknown): unknown {
  const knob = plantedBias(spec.model);
  const name = spec.response?.name;
  if (!knob || (name !== 'pairwise_verdict' && name !== 'score_verdict')) return answer;
  const detect = detectorOf(knob.probe);
  if (!detect || typeof answer !== 'object' || answer === null) return answer;
  const user = spec.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const mode = name === 'pairwise_verdict' ? 'pairwise' : 'pointwise';
  const side = detect({ system: spec.system ?? '', user }, mode);
  if (side === null) return answer;
  if (mulberry32(seedOf('planted-bias', spec.model, user))() >= knob.rate) return answer;
  const out = { ...(answer as Record<string, unknown>) };
  if (mode === 'pairwise') {
    if (side !== 'response') out.winner = side;
  } else if (typeof out.score === 'number') {
    const top = Number((taggedSections(user).get('scale') ?? '1-5').split('-')[1]) || 5;
    out.score = Math.min(top, out.score + 1);
  }
  return out;
}
