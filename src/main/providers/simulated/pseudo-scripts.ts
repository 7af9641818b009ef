import { LANGUAGE_CATALOGUE, type Script } from '../../../shared/languages';
import { keptInEnglish, mapWords } from './words';

// Pseudo-languages in other scripts (issue 37), beside pseudo-Chinese (pseudo-language.ts): each
// English letter becomes a fixed letter of the target script (a capital in Arabic, Devanagari or
// Telugu, which have none, gets a marker before it), punctuation its script's form, while numbers,
// code, URLs and e-mails stay as written. Unlike pseudo-Chinese the mapping is one-to-one, so a
// simulated back-translation recovers the English exactly: a faithful translation scores chrF 100
// and an unfaithful one (planted-unfaithful.ts) scores low, which is what the check must tell.

export type PseudoScript = 'Latn' | 'Arab' | 'Deva' | 'Telu';

interface Alphabet {
  /** 26 letters for a..z. */
  letters: string[];
  /** Put before a capital's letter; null: the script has capitals of its own (Latin). */
  capital: string | null;
  punctuation: Record<string, string>;
}

const ALPHABETS: Record<PseudoScript, Alphabet> = {
  // Accented Latin: reads like a Latin-script language, and stays apart from English letters,
  // so code-switched English words survive the back-translation as they are.
  Latn: { letters: [...'áƀçđéƒğħíĵķłḿñóṕɋřšŧúṽŵẋýž'], capital: null, punctuation: {} },
  Arab: {
    letters: [...'ابتثجحخدذرزسشصضطظعغفقكلمنه'],
    capital: 'ـ',
    punctuation: { ',': '،', '?': '؟', ';': '؛' },
  },
  Deva: { letters: [...'अबचदएफगहइजकलमनओपखरसतउवशषयझ'], capital: '॰', punctuation: { '.': '।' } },
  Telu: { letters: [...'అబచదఎఫగహఇజకలమనఒపఖరసతఉవశషయఝ'], capital: '౿', punctuation: {} },
};

const SCRIPTS = Object.keys(ALPHABETS) as PseudoScript[];

/** Letter (lower or upper case, as written) → its pseudo form; and back. */
const ENCODE = new Map<string, string>();
const DECODE = new Map<string, string>();
for (const script of SCRIPTS) {
  const a = ALPHABETS[script];
  a.letters.forEach((ch, i) => {
    const lower = String.fromCharCode(97 + i);
    const upper = lower.toUpperCase();
    const up = a.capital === null ? ch.toUpperCase() : a.capital + ch;
    ENCODE.set(`${script}:${lower}`, ch);
    ENCODE.set(`${script}:${upper}`, up);
    DECODE.set(ch, lower);
    DECODE.set(up, upper);
  });
  for (const [from, to] of Object.entries(a.punctuation)) {
    ENCODE.set(`${script}:${from}`, to);
    DECODE.set(to, from);
  }
}
const CAPITAL_MARKERS = new Set(SCRIPTS.map((s) => ALPHABETS[s].capital).filter((c) => c !== null));

function encodeChar(script: PseudoScript, ch: string): string {
  return ENCODE.get(`${script}:${ch}`) ?? ch;
}

/** English text in a pseudo-language of `script`; code-switched: some words stay English. */
export function pseudoTranslateScript(text: string, script: PseudoScript, codeSwitch = false): string {
  return mapWords(
    text,
    (w) => (codeSwitch && keptInEnglish(w) ? w : [...w].map((c) => encodeChar(script, c)).join('')),
    (c) => encodeChar(script, c),
  );
}

/**
 * Back into English: every pseudo letter and punctuation mark of any script becomes what it came
 * from; everything else (English words, numbers, code, pseudo-Chinese, which cannot be undone)
 * stays as it is.
 */
export function pseudoBackTranslate(text: string): string {
  const chars = [...text];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (CAPITAL_MARKERS.has(ch) && i + 1 < chars.length && DECODE.has(ch + chars[i + 1])) {
      out += DECODE.get(ch + chars[i + 1]);
      i++;
    } else out += DECODE.get(ch) ?? ch;
  }
  return out;
}

/** Whether a text holds any pseudo letter (so reading it needs pseudoBackTranslate first). */
export function hasPseudoScript(text: string): boolean {
  for (const ch of text) if (DECODE.has(ch)) return true;
  return false;
}

// "Chinese" alone too: the LS prompt names "Chinese-English code-switching", never "Simplified Chinese".
const NAMES = [
  ...LANGUAGE_CATALOGUE.map((l) => ({ re: new RegExp(`\\b${l.en}\\b`), script: l.script })),
  { re: /\bChinese\b/, script: 'Hans' as Script },
];

function firstLanguageScript(text: string): Script | null {
  let best: { at: number; script: Script } | null = null;
  for (const n of NAMES) {
    const m = n.re.exec(text);
    if (m && (!best || m.index < best.at)) best = { at: m.index, script: n.script };
  }
  return best?.script ?? null;
}

/**
 * The pseudo script a translation request asks for, from the first language it names (system
 * prompt first): null for Chinese or Japanese, for a script without a pseudo-language, and for a
 * prompt naming none, which pseudo-Chinese answers as it always has.
 */
export function pseudoScriptOf(
  system: string,
  user: string,
): { script: PseudoScript; codeSwitch: boolean } | null {
  const script = firstLanguageScript(system) ?? firstLanguageScript(user);
  if (script === null || !(SCRIPTS as string[]).includes(script)) return null;
  const codeSwitch = /code[- ]?switch/i.test(system + '\n' + user);
  return { script: script as PseudoScript, codeSwitch };
}
