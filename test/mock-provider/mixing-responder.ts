// A scripted "model" for Judge-LS's dose–response (issue 37) on the mock provider. Its translator
// reads the ratio the prompt asks for ("about NN% of the content words in Hindi") and writes each
// English word whose draw falls below it in its own letter-for-letter Devanagari cipher (whole word
// types, so a word is written alike everywhere); it knows nothing of the app's measure. Its judges
// decipher what they are shown, pick the item's gold output, and pick the other one with
// probability slope × r, r being the share of the words they are shown in Devanagari (their own
// count, with the platform's word segmenter): planted flips against English that grow with the
// ratio. Slopes are per model.
import type { Item } from '../../src/shared/domain';
import { unit } from './judge-ls-responder';
import type { MockRequest } from './server';

function between(text: string, tag: string): string {
  const open = `<${tag}>\n`;
  const start = text.indexOf(open);
  const end = text.indexOf(`\n</${tag}>`, start);
  if (start < 0 || end < 0) throw new Error(`mock: no <${tag}> in prompt`);
  return text.slice(start + open.length, end);
}

// a–z → क…, A–Z → अ… then the consonants after: every character a Devanagari letter.
const LOWER = Array.from({ length: 26 }, (_, i) => String.fromCodePoint(0x915 + i));
const UPPER = Array.from({ length: 26 }, (_, i) => String.fromCodePoint(i < 16 ? 0x905 + i : 0x92f + i - 16));
const ENC = new Map<string, string>();
const DEC = new Map<string, string>();
for (let i = 0; i < 26; i++) {
  for (const [latin, deva] of [
    [String.fromCharCode(97 + i), LOWER[i]],
    [String.fromCharCode(65 + i), UPPER[i]],
  ]) {
    ENC.set(latin, deva);
    DEC.set(deva, latin);
  }
}
const cipher = (w: string) => [...w].map((c) => ENC.get(c) ?? c).join('');
const decipher = (t: string) => [...t].map((c) => DEC.get(c) ?? c).join('');

const segmenter = new Intl.Segmenter('hi', { granularity: 'word' });

/** Share of the words of the texts (segments with a letter) written in Devanagari. */
export function devanagariShare(texts: readonly string[]): number {
  let words = 0;
  let deva = 0;
  for (const t of texts)
    for (const s of segmenter.segment(t)) {
      if (!s.isWordLike || !/\p{L}/u.test(s.segment)) continue;
      words++;
      if (/\p{Script=Devanagari}/u.test(s.segment)) deva++;
    }
  return words === 0 ? 0 : deva / words;
}

export function mixingResponder(items: readonly Item[], opts: { slopes: Record<string, number> }) {
  const byInstruction = new Map(items.map((i) => [i.instruction ?? '', i]));
  const calls: Record<string, number> = {};
  /** Each verdict on a mixed text: the judge's own r and whether it flipped (picked the non-gold output). */
  const verdicts: { model: string; sourceId: string; r: number; wrong: boolean }[] = [];

  const transform = (req: MockRequest) => {
    const m = /about (\d{1,3})% of the content words in Hindi/.exec(req.system ?? '');
    if (!m) throw new Error('mock: no Hindi mixing ratio in the transform prompt');
    const ratio = Number(m[1]) / 100;
    const mix = (t: string) =>
      t.replace(/[A-Za-z]+/g, (w) => (unit('mix', w.toLowerCase()) < ratio ? cipher(w) : w));
    return {
      instruction: mix(between(req.lastUser, 'instruction')),
      output_1: mix(between(req.lastUser, 'output_1')),
      output_2: mix(between(req.lastUser, 'output_2')),
    };
  };

  const judge = (req: MockRequest) => {
    const shown = ['instruction', 'response_a', 'response_b'].map((t) => between(req.lastUser, t));
    const item = byInstruction.get(decipher(shown[0]));
    if (!item) throw new Error('mock: quality prompt for an unknown instruction');
    const gold = item.label === 1 ? item.output1 : item.output2;
    const goldPos = decipher(shown[1]) === gold ? 'A' : 'B';
    const r = devanagariShare(shown);
    // One draw per item and text shown (both orders of a level share it): flips cluster by item.
    const wrong =
      r > 0 && unit('flip', req.model, item.sourceId, r.toFixed(6)) < (opts.slopes[req.model] ?? 0) * r;
    if (r > 0) verdicts.push({ model: req.model, sourceId: item.sourceId, r, wrong });
    const winner = wrong ? (goldPos === 'A' ? 'B' : 'A') : goldPos;
    return {
      winner,
      confidence: 0.8,
      reason: `Scripted verdict for ${item.sourceId} at r = ${r.toFixed(3)}.`,
    };
  };

  return {
    calls,
    verdicts,
    respond: (req: MockRequest) => {
      calls[`${req.api}:${req.schemaName}`] = (calls[`${req.api}:${req.schemaName}`] ?? 0) + 1;
      if (req.schemaName === 'language_variant') return transform(req);
      return judge(req);
    },
  };
}
