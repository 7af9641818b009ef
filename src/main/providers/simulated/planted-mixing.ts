// Code-switching at a mixing ratio and a judge whose flips grow with it, for the keyless demo of
// Judge-LS's dose–response (issue 37).
//
// Translator: a transform prompt asking for "about NN% of the content words in <language>" gets
// the English texts with whole English words replaced in place by their pseudo form (the script's
// pseudo-language, pseudo-scripts.ts, or pseudo-Chinese words); everything else (spaces,
// punctuation, numbers, code) stays as written, so 0 % is the English itself. Which words switch
// is a fixed order of the word types (seeded by the word), cut where the ratio the app measures on
// the answer (shared/text/mixing.ts) comes nearest the asked one: the measured ratio lands within
// about one word type of it, and a word is written the same way in all three texts.
//
// Judge: a model whose name ends in `-mix<NN>` (optionally `-noise<MM>` after it) has no language
// effect of its own: it reads the English back (pseudoBackTranslate) and picks an answer from the
// two as a set, whatever their order. On a text whose measured mixing ratio is r > 0 it then takes
// the other answer with probability min(1, MM/100 + NN/100 · r), drawn per request; on English
// (r = 0) never. Its flip rate against English is so planted as MM % + NN % · r: slope NN/100.
// Pseudo-Chinese cannot be read back, so on LS:zh@… the base verdict is not its English one and
// the flips are not only the planted ones: plant slopes on a script with a pseudo-language.
import { LANGUAGE_CATALOGUE } from '../../../shared/languages';
import { mulberry32, type Rng } from '../../../shared/random';
import { contentWords, mixingCount, mixingRatio } from '../../../shared/text/mixing';
import type { ChatRequestSpec } from '../types';
import { skillOf } from './answers';
import { pseudoWord } from './pseudo-language';
import {
  hasPseudoScript,
  pseudoBackTranslate,
  pseudoTranslateScript,
  type PseudoScript,
} from './pseudo-scripts';
import { pick, seedOf } from './random';
import { followScore, taggedSections } from './reading';

const ASKED = /about (\d{1,3})% of the content words in ([A-Z][A-Za-z ]*?)(?:[.,]| and)/;

/** The ratio (0–1) and language a transform prompt asks for, or null (no mixing ratio asked). */
export function askedMixing(system: string): { ratio: number; code: string } | null {
  const m = ASKED.exec(system);
  if (!m || Number(m[1]) > 100) return null;
  const info = LANGUAGE_CATALOGUE.find((l) => l.en === m[2].trim());
  return info ? { ratio: Number(m[1]) / 100, code: info.code } : null;
}

// Kept as written (as the pseudo-languages keep them), and English words.
const KEEP = /```[\s\S]*?```|`[^`\n]*`|https?:\/\/\S+|[\w.+-]+@[\w-]+\.[\w.]+|\d+(?:[.,:/]\d+)*%?/y;
const WORD = /[A-Za-z][A-Za-z'’-]*/y;

/** The text with the words `switched` says replaced by `render` of them, the rest as written. */
function replaceWords(text: string, switched: (w: string) => boolean, render: (w: string) => string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    KEEP.lastIndex = i;
    const keep = KEEP.exec(text);
    if (keep) {
      out += keep[0];
      i += keep[0].length;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      out += switched(word[0]) ? render(word[0]) : word[0];
      i += word[0].length;
      continue;
    }
    out += text[i];
    i++;
  }
  return out;
}

function wordTypes(texts: readonly string[]): string[] {
  const types = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/[A-Za-z][A-Za-z'’-]*/g)) types.add(m[0].toLowerCase());
  return [...types];
}

/**
 * The English texts code-switched into `code` (its pseudo script, or pseudo-Chinese for zh/ja) with
 * the measured mixing ratio nearest `ratio`.
 */
export function mixedTexts(sources: readonly string[], ratio: number, code: string): string[] {
  const info = LANGUAGE_CATALOGUE.find((l) => l.code === code)!;
  const script = info.script;
  const render =
    script === 'Hans' || script === 'Jpan'
      ? (w: string) => pseudoWord(w)
      : (w: string) => pseudoTranslateScript(w, script as PseudoScript);
  const order = wordTypes(sources)
    .map((w) => ({ w, u: mulberry32(seedOf('mix-order', w))() }))
    .sort((a, b) => a.u - b.u || (a.w < b.w ? -1 : 1))
    .map((x) => x.w);
  const make = (k: number) => {
    const on = new Set(order.slice(0, k));
    return sources.map((t) => replaceWords(t, (w) => on.has(w.toLowerCase()), render));
  };
  const measured = (k: number) => mixingRatio(mixingCount(make(k), sources, info)) ?? 0;
  // The smallest k reaching the ratio (measured grows with k), then the nearer of it and k − 1.
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (measured(mid) >= ratio) hi = mid;
    else lo = mid + 1;
  }
  const k = lo > 0 && Math.abs(measured(lo - 1) - ratio) <= Math.abs(measured(lo) - ratio) ? lo - 1 : lo;
  return make(k);
}

// ---- the judge ------------------------------------------------------------------------

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

const REASONS = {
  A: 'Response A follows the instruction more closely. (simulated)',
  B: 'Response B follows the instruction more closely. (simulated)',
  tie: 'Neither response is clearly better. (simulated)',
} as const;

/** The pairwise verdict of a `-mix<NN>` model, or null when the request is not one it answers so. */
export function plantedMixingVerdict(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> | null {
  const planted = plantedMixing(spec.model);
  if (!planted || spec.response?.name !== 'pairwise_verdict') return null;
  const s = taggedSections(spec.messages.map((m) => m.content).join('\n\n'));
  const a = s.get('response_a') ?? s.get('output_a');
  const b = s.get('response_b') ?? s.get('output_b');
  if (a === undefined || b === undefined) return null;
  const instruction = s.get('instruction') ?? s.get('question') ?? '';
  const english = (t: string) => pseudoBackTranslate(t).trim();
  const [ea, eb] = [english(a), english(b)];
  const [x, y] = ea <= eb ? [ea, eb] : [eb, ea];
  const verdict = (winner: 'A' | 'B' | 'tie') => ({ winner, confidence: 0.7, reason: REASONS[winner] });
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
