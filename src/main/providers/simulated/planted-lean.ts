// Planted position lean for checking the paired position test (issue 32 item 1): a simulated
// model whose name ends in `-first<NN>` (e.g. `sim-judge-strong-first10`) is a pairwise judge
// with no position bias of its own, except on a planted NN % of items, where it picks the answer
// shown first (A) in both orders. `-first0` is the same judge with the lean off.
//
// Which items carry the lean is a function of the model and the item's two answers as a set (so
// both orders of an item agree, and a test can count the planted items from the data with
// `leanPlanted`). Off the planted items the judge picks one of the two answers from that same
// set, whatever the order, and then each ask, independently, takes the other answer with
// probability LEAN_NOISE: inconsistent items then split evenly between both-first and
// both-second, the null the paired test holds. Models without the suffix answer as before
// (their own first-position lean, `answers.ts`, is untouched: golden metrics stay byte-identical).
// An optional `-noise<NN>` after it (e.g. `-first0-noise20`) sets that per-ask noise to NN %:
// the end-to-end validation (bench/validate-e2e) needs a null with many discordant items, where
// the exact test's size can be measured, not one where it can hardly reject at all.
import type { Rng } from '../../../shared/random';
import { mulberry32 } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { skillOf } from './answers';
import { pick, seedOf } from './random';
import { followScore, plantedVerdict, shownPairOf } from './reading';

// A `-bias-<probe><NN>` knob may follow (planted-bias.ts): the probe validation plants it on this
// judge, whose answers without it are known (bench/validate-e2e/probes.ts).
const LEAN_SUFFIX = /-first(\d{1,3})(?:-noise(\d{1,2}))?(?:-bias-[a-z][a-z0-9_]*?\d{1,3})?$/;

/** Chance that one ask of an unplanted item takes the other answer: symmetric, order-blind noise. */
export const LEAN_NOISE = 0.005;
/** Chance that an unplanted item is a tie in both orders. */
export const LEAN_TIE = 0.02;

/** The planted share of items a model name asks for (0–1), or null (no suffix). */
export function plantedLeanRate(model: string): number | null {
  const m = LEAN_SUFFIX.exec(model);
  return m && Number(m[1]) <= 100 ? Number(m[1]) / 100 : null;
}

/** The per-ask noise of a `-first<NN>` model: its `-noise<NN>` share, else LEAN_NOISE. */
export function plantedLeanNoise(model: string): number {
  const m = LEAN_SUFFIX.exec(model);
  return m?.[2] === undefined ? LEAN_NOISE : Number(m[2]) / 100;
}

/** The item's answers as a set: the same key whichever is shown first. */
function unordered(a: string, b: string): [string, string] {
  const x = a.trim();
  const y = b.trim();
  return x <= y ? [x, y] : [y, x];
}

/**
 * Whether the model leans to the first position on the item with these two answers (in any
 * order). Public so a test can count the planted items of its dataset.
 */
export function leanPlanted(model: string, answerA: string, answerB: string): boolean {
  const rate = plantedLeanRate(model);
  if (rate === null) return false;
  return mulberry32(seedOf('planted-lean', model, ...unordered(answerA, answerB)))() < rate;
}

/** The pairwise verdict of a `-first<NN>` model, or null when the request is not one it answers so. */
export function plantedLeanVerdict(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> | null {
  const shown = shownPairOf(spec);
  if (!shown) return null;
  const { instruction, a, b } = shown;
  const verdict = plantedVerdict;
  if (leanPlanted(spec.model, a, b)) return verdict('A', 0.7);
  const [x, y] = unordered(a, b);
  if (x === y) return verdict('tie', 0.9);
  // Drawn from the set of answers (and the model), never from their order.
  const stable = mulberry32(seedOf('lean-base', spec.model, instruction.trim(), x, y));
  if (stable() < LEAN_TIE) return verdict('tie', 0.5);
  const better = followScore(instruction, x) >= followScore(instruction, y) ? x : y;
  const chosen = stable() < skillOf(spec.model) ? better : pick(stable, [x, y]);
  const shownFirst = chosen === a.trim();
  const flipped = rng() < plantedLeanNoise(spec.model);
  return verdict(shownFirst !== flipped ? 'A' : 'B', 0.6);
}
