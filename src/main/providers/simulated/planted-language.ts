// Planted language flips for the end-to-end validation (issue 33, bench/validate-e2e): a
// simulated pairwise judge whose name ends in `-lang<NN>` (e.g. `sim-judge-strong-lang10`) keeps
// one answer of an item in every language and both orders, except on a planted NN % of items,
// where in a translation it prefers the other answer (an item with no answer to prefer, a tie in
// English, gets "A"). A language study's flip rate then has a known truth: NN % of (item, order) pairs,
// the two orders of an item flipping together. `-lang0` is the judge with no language effect;
// `-lang<NN>-noise<MM>` adds per-ask noise (each ask takes the other answer with MM %, ties stay
// ties), the same for a repeat of an English ask as for its translation: with `-lang0-noise<MM>`
// language flips and repeat flips have one rate, the null of the noise floor's excess test.
//
// Which answer is which across languages: the simulated translator's pseudo-Chinese maps every
// English word to the same characters (pseudo-language.ts), so an answer's characters after that
// mapping (its English words mapped, its Chinese kept; numbers, code and punctuation left out,
// and 几, which a careless translation writes for dropped numbers) are one key in English and in
// its pseudo-Chinese. A prompt is a translation when its texts hold a Han character (LLMBar's
// English texts hold none). Models without the suffix answer exactly as before.
import type { Rng } from '../../../shared/random';
import { mulberry32 } from '../../../shared/random';
import type { ChatRequestSpec } from '../types';
import { pseudoTranslate } from './pseudo-language';
import { seedOf } from './random';
import { memoByText } from '../../../shared/text-memo';
import { plantedVerdict, shownPairOf } from './reading';

const LANG_SUFFIX = /-lang(\d{1,3})(?:-noise(\d{1,2}))?$/;

/** The planted share of items that flip in a translation (0–1), or null (no suffix). */
export function plantedLanguageRate(model: string): number | null {
  const m = LANG_SUFFIX.exec(model);
  return m && Number(m[1]) <= 100 ? Number(m[1]) / 100 : null;
}

/** The per-ask noise of a `-lang<NN>` model: its `-noise<MM>` share, else none. */
export function plantedLanguageNoise(model: string): number {
  const m = LANG_SUFFIX.exec(model);
  return m?.[2] === undefined ? 0 : Number(m[2]) / 100;
}

const HAN = /\p{Script=Han}/gu;

/**
 * An answer's language-free key: the Han characters of its pseudo-Chinese, without 几. Remembered
 * by answer text: every verdict of a `-lang` model asks for both answers' keys, and the
 * same answers come back in every order, language and repeat (the pseudo-translation was a
 * fortieth of a simulated study's CPU).
 */
export const languageKey = memoByText(2_000_000, (text) =>
  (pseudoTranslate(text.trim(), 'zh').match(HAN) ?? []).filter((c) => c !== '几').join(''),
);

/**
 * Whether the model flips the item with these two answers (in any order, in any language) in a
 * translation. Public so a test can count the planted items of its dataset.
 */
export function languageFlipPlanted(model: string, answerA: string, answerB: string): boolean {
  const rate = plantedLanguageRate(model);
  if (rate === null) return false;
  const [x, y] = [languageKey(answerA), languageKey(answerB)].sort();
  return mulberry32(seedOf('planted-language', model, x, y))() < rate;
}

/** The pairwise verdict of a `-lang<NN>` model, or null when the request is not one it answers so. */
export function plantedLanguageVerdict(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> | null {
  const shown = shownPairOf(spec);
  if (!shown) return null;
  const { instruction, a, b } = shown;
  const verdict = plantedVerdict;
  const translated = `${instruction}${a}${b}`.match(HAN) !== null;
  const flips = translated && languageFlipPlanted(spec.model, a, b);
  const keyA = languageKey(a);
  const [x, y] = [keyA, languageKey(b)].sort();
  if (x === y) return flips ? verdict('A', 0.6) : verdict('tie', 0.9);
  // Drawn from the answers' keys (and the model): the same answer in every language and order.
  const kept = mulberry32(seedOf('language-base', spec.model, x, y))() < 0.5 ? x : y;
  const chosen = flips ? (kept === x ? y : x) : kept;
  const noisy = rng() < plantedLanguageNoise(spec.model);
  return verdict((chosen === keyA) !== noisy ? 'A' : 'B', 0.6);
}
