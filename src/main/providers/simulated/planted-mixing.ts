// A judge whose flips grow with the mixing ratio, for the keyless demo of a code-switching dose–response
// (issue 37; the translator that honours a ratio is mixed-translation.ts). A model whose name ends
// in `-mix<NN>` (optionally `-noise<MM>` after it) has no language effect of its own: it reads the English back (pseudoBackTranslate) and picks an answer from the
// two as a set, whatever their order. On a text whose measured mixing ratio is r > 0 it then takes
// the other answer with probability min(1, MM/100 + NN/100 · r), drawn per request; on English
// (r = 0) never. Its flip rate against English is so planted as MM % + NN % · r: slope NN/100.
// Pseudo-Chinese cannot be read back, so on LS:zh@… the base verdict is not its English one and
// the flips are not only the planted ones: plant slopes on a script with a pseudo-language.
import { mulberry32, type Rng } from '../../../shared/random';
import { contentWords } from '../../../shared/text/mixing';
import type { ChatRequestSpec } from '../types';
import { skillOf } from './answers';
import { hasPseudoScript, pseudoBackTranslate } from './pseudo-scripts';
import { pick, seedOf } from './random';
import { followScore, plantedVerdict, shownPairOf } from './reading';

const MIX_SUFFIX = /-mix(\d{1,3})(?:-noise(\d{1,2}))?$/;

/** The planted slope (0–1 per unit of ratio) and noise of a `-mix<NN>[-noise<MM>]` model, or null. */
export function plantedMixing(model: string): { slope: number; noise: number } | null {
  const m = MIX_SUFFIX.exec(model);
  if (!m || Number(m[1]) > 100) return null;
  return { slope: Number(m[1]) / 100, noise: m[2] === undefined ? 0 : Number(m[2]) / 100 };
}

/** The judge's reading of the mixing ratio of what it is shown: its content words not in English. */
export function shownMixingRatio(texts: readonly string[]): number {
  let words = 0;
  let other = 0;
  for (const t of texts)
    for (const w of contentWords(t)) {
      words++;
      if (hasPseudoScript(w) || /[^\p{Script=Latin}\p{M}'’-]/u.test(w)) other++;
    }
  return words === 0 ? 0 : other / words;
}

/** The pairwise verdict of a `-mix<NN>` model, or null when the request is not one it answers so. */
export function plantedMixingVerdict(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> | null {
  const planted = plantedMixing(spec.model);
  const shown = planted ? shownPairOf(spec) : null;
  if (!planted || !shown) return null;
  const { instruction, a, b } = shown;
  const english = (t: string) => pseudoBackTranslate(t).trim();
  const [ea, eb] = [english(a), english(b)];
  const [x, y] = ea <= eb ? [ea, eb] : [eb, ea];
  const verdict = (winner: 'A' | 'B' | 'tie') => plantedVerdict(winner, 0.7);
  // The base: drawn from the English answers as a set (and the model), never from their order.
  const stable = mulberry32(seedOf('mix-base', spec.model, english(instruction), x, y));
  let chosen: string | null;
  if (x === y || stable() < 0.02) chosen = null;
  else {
    const better = followScore(english(instruction), x) >= followScore(english(instruction), y) ? x : y;
    chosen = stable() < skillOf(spec.model) ? better : pick(stable, [x, y]);
  }
  const r = shownMixingRatio([instruction, a, b]);
  const flip = r > 0 && rng() < Math.min(1, planted.noise + planted.slope * r);
  if (flip) chosen = chosen === null ? pick(rng, [x, y]) : chosen === x ? y : x;
  if (chosen === null) return verdict('tie');
  return verdict(chosen === ea ? 'A' : 'B');
}
