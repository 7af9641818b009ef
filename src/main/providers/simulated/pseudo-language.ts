import { mulberry32 } from '../../../shared/random';
import { remembered, seedOf } from './random';
import { hasPseudoScript, pseudoBackTranslate } from './pseudo-scripts';
import { keptInEnglish } from './words';

// A deterministic pseudo-translation: every English word becomes the same one or two Chinese
// characters wherever it appears (so shared text stays aligned, as a real translation must keep
// it), while numbers, code spans, URLs, line breaks and Markdown stay as written. The result is
// visibly another language and meaningless: it exists to exercise the pipeline, not to be read.

// Common characters, so the text looks like Chinese at a glance.
const CHARS =
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示冷域读';

const WORD = /[A-Za-z][A-Za-z'’-]*/y;
// Kept as written in every language: numbers (the audit compares them), code, URLs, e-mails.
const KEEP = /```[\s\S]*?```|`[^`\n]*`|https?:\/\/\S+|[\w.+-]+@[\w-]+\.[\w.]+|\d+(?:[.,:/]\d+)*%?/y;
const FULL_WIDTH: Record<string, string> = {
  ',': '，',
  '.': '。',
  '?': '？',
  '!': '！',
  ':': '：',
  ';': '；',
  '(': '（',
  ')': '）',
};

/** The fixed pseudo-Chinese rendering of one English word. */
export const pseudoWord: (word: string) => string = remembered((word) => {
  const rng = mulberry32(seedOf('word', word.toLowerCase()));
  const n = word.length <= 3 ? 1 : word.length <= 8 ? 2 : 3;
  let out = '';
  for (let i = 0; i < n; i++) out += CHARS[Math.floor(rng() * CHARS.length)];
  return out;
}, 50_000);

export type PseudoTarget = 'zh' | 'code-switch';

/**
 * Rewrites English text in pseudo-Chinese ('zh') or in pseudo code-switching ('code-switch':
 * Chinese carries the sentence, some terms stay English). Text already in Chinese is kept.
 */
export function pseudoTranslate(text: string, target: PseudoTarget): string {
  let out = '';
  let i = 0;
  // Whether the last thing written was an English word or kept token (needs a space before the next).
  let lastLatin = false;
  while (i < text.length) {
    KEEP.lastIndex = i;
    const keep = KEEP.exec(text);
    if (keep) {
      if (lastLatin) out += ' ';
      out += keep[0];
      i += keep[0].length;
      lastLatin = true;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      const w = word[0];
      if (target === 'code-switch' && keptInEnglish(w)) {
        if (lastLatin) out += ' ';
        out += w;
        lastLatin = true;
      } else {
        out += pseudoWord(w);
        lastLatin = false;
      }
      i += w.length;
      continue;
    }
    const ch = text[i];
    if (ch === ' ' || ch === '\t') {
      // Chinese writes no spaces between words; spaces between English terms are re-added above.
      if (i === 0 || text[i - 1] === '\n') out += ch; // keep indentation (lists, code)
    } else if (ch === '\n') {
      out += ch;
      lastLatin = false;
    } else {
      out += FULL_WIDTH[ch] ?? ch;
      lastLatin = false;
    }
    i++;
  }
  return out;
}

/**
 * Language-neutral content units of a text: English words of three letters or more (lower
 * case), and single Han characters. A pseudo-translated word keeps mapping to the same
 * characters, so overlaps between texts survive the translation roughly.
 */
export function contentUnits(text: string): readonly string[] {
  return unitsOf(text);
}

// Frozen: callers share one array per text. 5,000 texts (~12 MB at LLMBar's sizes) hold a
// study's items with their variants; an app that ran a demo keeps no more than that.
const unitsOf = remembered((text: string): readonly string[] => Object.freeze(unitsOfText(text)), 5_000);

function unitsOfText(text: string): string[] {
  const units: string[] = [];
  // A pseudo-language of another script reads as the English it came from (pseudo-scripts.ts).
  if (hasPseudoScript(text)) text = pseudoBackTranslate(text);
  for (const m of text.matchAll(/[A-Za-z]{3,}|\p{Script=Han}|\d+/gu)) {
    const u = m[0];
    if (/^[A-Za-z]/.test(u)) {
      const lower = u.toLowerCase();
      if (!STOPWORDS.has(lower)) units.push(...pseudoWord(lower));
    } else units.push(u);
  }
  return units;
}

const STOPWORDS = new Set(
  'the and for are but not you all any can had her was one our out has him his how its may new now see two who did get let say she too use that with have this will your from they been more when what were there their which would about could other into than then them these some only also such just like over most very'.split(
    ' ',
  ),
);
