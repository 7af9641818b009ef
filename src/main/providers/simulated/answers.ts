import type { ChatRequestSpec } from '../types';
import { contentUnits, pseudoTranslate, type PseudoTarget } from './pseudo-language';
import { followScore, taggedSections } from './reading';
import { mulberry32, type Rng } from '../../../shared/random';
import { pick, seedOf } from './random';
import { simulatedRewrite, simulatedScore } from './rewrite-and-score';
import { pseudoBackTranslate, pseudoScriptOf, pseudoTranslateScript } from './pseudo-scripts';
import { askedMixing, mixedTexts } from './mixed-translation';

// What the simulated provider answers, by the requested schema name (DESIGN.md section 6).
// It knows no protocol: everything it uses is in the request itself, mostly the sections a
// prompt marks with tags (<instruction>…</instruction>). Where a protocol would know more (the
// gold answer), the simulated judge guesses from the texts, and so is only as good as a
// weak judge, which is what a demo should show.

function promptText(spec: ChatRequestSpec): string {
  return [spec.system ?? '', ...spec.messages.map((m) => m.content)].join('\n\n');
}

function userText(spec: ChatRequestSpec): string {
  return spec.messages.map((m) => m.content).join('\n\n');
}

/** The model's "skill": 0.45–0.85, fixed per model name, so judges differ as real ones do. */
export function skillOf(model: string): number {
  if (/weak|small|mini|nano|lite/i.test(model)) return 0.45 + 0.1 * mulberry32(seedOf('skill', model))();
  if (/strong|large|pro|max/i.test(model)) return 0.75 + 0.1 * mulberry32(seedOf('skill', model))();
  return 0.55 + 0.2 * mulberry32(seedOf('skill', model))();
}

// ---- language_variant ----------------------------------------------------------------

/** The target the prompt asks for: code-switching, Chinese, or (unknown) Chinese. */
export function targetOf(prompt: string): PseudoTarget {
  return /code[- ]?switch|\bLS\b|mix(ed|ing)? (the two|chinese and english|english and chinese)/i.test(prompt)
    ? 'code-switch'
    : 'zh';
}

/** Drops the digits of a text: the rare transformation mistake the audit must catch. */
function withoutNumbers(text: string): string {
  return text.replace(/\d+([.,]\d+)*/g, '几');
}

function languageVariant(spec: ChatRequestSpec, schema: JsonSchema, rng: Rng): Record<string, unknown> {
  const sections = taggedSections(userText(spec));
  const target = targetOf(promptText(spec));
  // Another script named (Arabic, Hindi, Telugu, Spanish…): its pseudo-language; else pseudo-Chinese.
  const script = pseudoScriptOf(spec.system ?? '', userText(spec));
  const props = Object.keys(schema.properties ?? {});
  // A mixing ratio asked for (issue 37, dose–response): whole words switched up to that ratio.
  const mixing = askedMixing(spec.system ?? '');
  if (mixing && props.every((k) => sections.has(k.toLowerCase()))) {
    const texts = mixedTexts(
      props.map((k) => sections.get(k.toLowerCase())!),
      mixing.ratio,
      mixing.code,
    );
    return Object.fromEntries(props.map((k, i) => [k, texts[i]]));
  }
  // About one variant in thirty loses its numbers, as a careless translator's would.
  const careless = rng() < 0.035 ? pick(rng, props) : undefined;
  const out: Record<string, unknown> = {};
  for (const key of props) {
    const source = sections.get(key.toLowerCase());
    if (source === undefined || (schema.properties?.[key] as JsonSchema).type !== 'string') {
      out[key] = valueFor(schema.properties![key] as JsonSchema, rng, key);
      continue;
    }
    const text = script
      ? pseudoTranslateScript(source, script.script, script.codeSwitch)
      : pseudoTranslate(source, target);
    out[key] = key === careless ? withoutNumbers(text) : text;
  }
  return out;
}

/**
 * A back-translation into English: the pseudo-languages of other scripts come back exactly
 * (pseudo-Chinese, a one-way mapping, comes back as it is, and so scores low).
 */
function backTranslation(spec: ChatRequestSpec, schema: JsonSchema, rng: Rng): Record<string, unknown> {
  const sections = taggedSections(userText(spec));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties ?? {})) {
    const source = sections.get(key.toLowerCase());
    out[key] =
      source === undefined || (schema.properties?.[key] as JsonSchema).type !== 'string'
        ? valueFor(schema.properties![key] as JsonSchema, rng, key)
        : pseudoBackTranslate(source);
  }
  return out;
}

/**
 * Share of the source's content units found in the translation (1 when the source has none):
 * recall, because a translation writes the source's stopwords too, which carry no content units.
 */
function unitOverlap(a: string, b: string): number {
  const ua = contentUnits(a);
  const ub = contentUnits(b);
  if (ua.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const u of ua) counts.set(u, (counts.get(u) ?? 0) + 1);
  let common = 0;
  for (const u of ub) {
    const c = counts.get(u) ?? 0;
    if (c > 0) {
      common++;
      counts.set(u, c - 1);
    }
  }
  return common / ua.length;
}

/**
 * Whether a translation says the same as its source, as a careful checker would judge it: each
 * translated field must share most content units (which survive every pseudo-language) with its
 * own source field, and more than with the other response's.
 */
function translationEquivalence(spec: ChatRequestSpec): Record<string, unknown> {
  const s = taggedSections(userText(spec));
  const problems: string[] = [];
  for (const [field, other] of [
    ['instruction', null],
    ['output_1', 'output_2'],
    ['output_2', 'output_1'],
  ] as const) {
    const source = s.get(`source_${field}`) ?? '';
    const translated = s.get(`translation_${field}`) ?? '';
    const own = unitOverlap(source, translated);
    const crossed = other === null ? 0 : unitOverlap(s.get(`source_${other}`) ?? '', translated);
    if (own < 0.6) problems.push(`${field} does not match its source`);
    else if (crossed > own) problems.push(`${field} reads like the source's ${other}`);
  }
  return {
    equivalent: problems.length === 0,
    reason: `${problems.length ? problems.join('; ') : 'Same content in all three texts.'} (simulated)`,
  };
}

// ---- pairwise_verdict ----------------------------------------------------------------

function candidates(sections: Map<string, string>): { instruction: string; a: string; b: string } | null {
  const instruction = sections.get('instruction') ?? sections.get('question') ?? '';
  const a = sections.get('response_a') ?? sections.get('output_a') ?? sections.get('a');
  const b = sections.get('response_b') ?? sections.get('output_b') ?? sections.get('b');
  return a === undefined || b === undefined ? null : { instruction, a, b };
}

const REASONS = {
  A: [
    'Response A follows the instruction more closely.',
    'Response A does what was asked; B drifts from the instruction.',
    'A covers the requested points; B misses some of them.',
  ],
  B: [
    'Response B follows the instruction more closely.',
    'Response B does what was asked; A drifts from the instruction.',
    'B covers the requested points; A misses some of them.',
  ],
  tie: ['Both responses follow the instruction equally well.', 'Neither response is clearly better.'],
} as const;

/**
 * A verdict with the habits of a middling LLM judge: it follows the text heuristic with the
 * model's skill, otherwise guesses with a lean towards the first position (position bias),
 * and sometimes calls a tie. Most draws are seeded by what survives translation (the model
 * the numbers, lines and relative size of the two responses), the rest by the whole prompt: the same pair in another
 * language mostly gets the same verdict, and sometimes not (a flip).
 */
/** Share of Han characters among the letters of a text. */
function hanShare(text: string): number {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return han + latin ? han / (han + latin) : 0;
}

/**
 * Share of letters outside plain A–Z: Han, and the pseudo-languages' accented Latin, Arabic and
 * Devanagari letters (pseudo-scripts.ts), so a tie probe in any of them is seen as one.
 */
function foreignShare(text: string): number {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const plain = text.match(/[A-Za-z]/g)?.length ?? 0;
  return letters ? (letters - plain) / letters : 0;
}

/**
 * Which script measure tells the two responses apart: Han share first (the measure tie probes
 * against ZH have always been simulated with), else the share of other non-English letters.
 */
function scriptMeasure(a: string, b: string): ((t: string) => number) | null {
  if (Math.abs(hanShare(a) - hanShare(b)) > 0.5) return hanShare;
  if (Math.abs(foreignShare(a) - foreignShare(b)) > 0.5) return foreignShare;
  return null;
}

/** Responses in different scripts with the same numbers and lines: one answer, translated. */
function sameAnswerTwoLanguages(a: string, b: string, shape: (t: string) => string): boolean {
  return scriptMeasure(a, b) !== null && shape(a) === shape(b);
}

/** How much better B must look than A to win a heuristic call (in followScore units). */
const POSITION_LEAN = 0.12;

function pairwiseVerdict(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> {
  const c = candidates(taggedSections(userText(spec)));
  const skill = skillOf(spec.model);
  // What the pseudo-translation keeps exactly: numbers and line breaks, and roughly the ratio of sizes.
  const shape = (t: string) => `${(t.match(/\d+/g) ?? []).join(',')}|${t.split('\n').length}`;
  const ratio = (a: string, b: string) =>
    String(Math.round(Math.log((1 + contentUnits(a).length) / (1 + contentUnits(b).length)) * 2));
  const stable = c ? mulberry32(seedOf('verdict', spec.model, shape(c.a), shape(c.b), ratio(c.a, c.b))) : rng;
  const draw = rng() < 0.3 ? rng : stable;
  let winner: 'A' | 'B' | 'tie';
  let confidence: number;
  const diff = c ? followScore(c.instruction, c.a) - followScore(c.instruction, c.b) : 0;
  if (c && sameAnswerTwoLanguages(c.a, c.b, shape)) {
    // Likely one answer and its translation: often a tie, else a mild lean to the English one.
    const r = draw();
    const share = scriptMeasure(c.a, c.b)!;
    const englishFirst = share(c.a) < share(c.b);
    const prefersEnglish = r < 0.45 + 0.55 * 0.62;
    winner = r < 0.45 ? 'tie' : prefersEnglish === englishFirst ? 'A' : 'B';
    confidence = winner === 'tie' ? 0.8 : 0.55 + 0.2 * rng();
  } else if (c && Math.abs(diff) < 0.01 && draw() < 0.5) {
    winner = 'tie';
    confidence = 0.5;
  } else if (c && draw() < skill) {
    // Close calls go to the first response: the position bias real judges show.
    winner = diff + POSITION_LEAN > 0 ? 'A' : 'B';
    confidence = Math.min(0.98, 0.6 + Math.abs(diff) / 4 + 0.2 * rng());
  } else {
    const r = draw();
    winner = r < 0.06 ? 'tie' : r < 0.74 ? 'A' : 'B';
    confidence = 0.5 + 0.3 * rng();
  }
  return {
    winner,
    confidence: Math.round(confidence * 100) / 100,
    reason: `${pick(rng, REASONS[winner])} (simulated)`,
  };
}

// ---- plain text and correctness_verdict -----------------------------------------------

/**
 * A short answer in the language of the prompt: a few words of the question itself (so an Arabic
 * question gets an Arabic answer), as a model that restates instead of answering would give.
 */
function plainAnswer(spec: ChatRequestSpec, rng: Rng): string {
  const words = userText(spec)
    .split(/\s+/)
    .filter((w) => /\p{L}{2,}/u.test(w));
  if (words.length === 0) return sentence(rng);
  const n = Math.min(words.length, 1 + Math.floor(rng() * 3));
  const start = Math.floor(rng() * (words.length - n + 1));
  return words
    .slice(start, start + n)
    .join(' ')
    .replace(/[?？؟]+$/u, '');
}

/** The text after a label line ("Generated answer:") up to the next blank line. */
function labelled(text: string, label: RegExp): string | null {
  const m = label.exec(text);
  if (!m) return null;
  return text
    .slice(m.index + m[0].length)
    .replace(/^\s*\n/, '')
    .split(/\n\s*\n/)[0]
    .trim();
}

const squash = (t: string) =>
  t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, '');

/**
 * A correctness verdict with the habits the reference-sensitivity protocol measures: with a
 * reference shown it mostly checks the answer against it (the weaker the model, the noisier);
 * without one it cannot know, and accepts generously (weaker models more so), so wrong answers
 * get accepted without a reference and rejected with one: flips NR → RV.
 */
function correctnessVerdict(spec: ChatRequestSpec, rng: Rng): Record<string, unknown> {
  const text = userText(spec);
  const answer = labelled(text, /generated answer[^\n:]*:/i) ?? text.slice(-200);
  const refBlock = labelled(text, /reference answer[^\n:]*:/i);
  const refs = (refBlock ?? '')
    .split('\n')
    .map((l) => l.replace(/^\s*[-*•]\s*/, '').trim())
    .filter(Boolean);
  const skill = skillOf(spec.model);
  const stable = mulberry32(seedOf('correctness', spec.model, text));
  const extracted = answer.split(/\s+/).slice(0, 8).join(' ');
  let correct: boolean;
  let why: string;
  if (refs.length > 0) {
    const a = squash(answer);
    const matches = refs.some((r) => {
      const s = squash(r);
      return s !== '' && a !== '' && (a.includes(s) || s.includes(a));
    });
    const compare = /compare/i.test(text);
    const noise = (1 - skill) * (compare ? 0.12 : 0.25);
    correct = stable() < noise ? !matches : matches;
    why = matches ? 'The answer matches a reference answer.' : 'The answer does not match the reference.';
  } else {
    correct = stable() < 0.35 + 0.45 * (1 - skill);
    why = correct
      ? 'The answer looks plausible for the question.'
      : 'The answer does not seem to address the question.';
  }
  return {
    extracted_answer: rng() < 0.02 ? '' : extracted,
    explanation: `${why} (simulated)`,
    verdict: correct ? 'CORRECT' : 'INCORRECT',
  };
}

// ---- any other schema ----------------------------------------------------------------

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, unknown>;
  required?: string[];
  items?: unknown;
  enum?: unknown[];
  const?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
}

const WORDS = ['simulated', 'answer', 'the', 'response', 'is', 'plausible', 'and', 'consistent'];

function sentence(rng: Rng, min = 1, max = Infinity): string {
  const n = 3 + Math.floor(rng() * 6);
  let s = Array.from({ length: n }, () => pick(rng, WORDS)).join(' ');
  s = s[0].toUpperCase() + s.slice(1) + '.';
  while (s.length < min) s += ' ' + s;
  return s.slice(0, max);
}

/** A valid value for a JSON Schema (the subset structured outputs use), chosen by the seed. */
export function valueFor(schema: JsonSchema, rng: Rng, name = '', depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return pick(rng, schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return valueFor(pick(rng, alternatives) as JsonSchema, rng, name, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {}))
        out[k] = valueFor(v as JsonSchema, rng, k, depth + 1);
      return out;
    }
    case 'array': {
      const n = Math.max(schema.minItems ?? 0, depth > 3 ? 0 : 1 + Math.floor(rng() * 2));
      return Array.from({ length: n }, () =>
        valueFor((schema.items ?? {}) as JsonSchema, rng, name, depth + 1),
      );
    }
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const hi =
        schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : lo + 10);
      if (type === 'integer') return Math.ceil(lo) + Math.floor(rng() * (Math.floor(hi) - Math.ceil(lo) + 1));
      // Confidence-like numbers in [0, 1] read better rounded.
      return Math.round((lo + rng() * (hi - lo)) * 100) / 100;
    }
    case 'boolean':
      return rng() < 0.5;
    case 'null':
      return null;
    case 'string':
    default:
      return sentence(rng, schema.minLength ?? 1, schema.maxLength ?? Infinity);
  }
}

// ---- the answer ----------------------------------------------------------------------

/** What the simulated model answers: the JSON object (or, for a plain-text schema, its text). */
export function simulatedAnswer(spec: ChatRequestSpec, rng: Rng): unknown {
  // No schema asked for: a plain-text answer (a rewrite of a tagged text, or e.g. a generated
  // answer to a question).
  if (!spec.response) {
    const sections = taggedSections(userText(spec));
    const task = sections.get('rewrite_task');
    return task ? simulatedRewrite(task, sections, rng) : plainAnswer(spec, rng);
  }
  const schema = spec.response.schema as JsonSchema;
  switch (spec.response.name) {
    case 'language_variant':
      return languageVariant(spec, schema, rng);
    case 'back_translation':
      return backTranslation(spec, schema, rng);
    case 'translation_equivalence':
      return withSchemaExtras(translationEquivalence(spec), schema, rng);
    case 'pairwise_verdict':
      return withSchemaExtras(pairwiseVerdict(spec, rng), schema, rng);
    case 'score_verdict':
      return withSchemaExtras(simulatedScore(userText(spec), spec.model), schema, rng);
    case 'correctness_verdict':
      return withSchemaExtras(correctnessVerdict(spec, rng), schema, rng);
    default:
      // A plain-text answer (a schema of type string) is answered as text.
      return valueFor(schema, rng, spec.response.name);
  }
}

/**
 * A known verdict asked with properties of its own (an edited schema) still gets every property
 * the schema names; the verdict's own fields come first and are left as they are. Nothing is
 * drawn when nothing is missing, so the answers to the app's own schemas do not change.
 */
function withSchemaExtras(answer: object, schema: JsonSchema, rng: Rng): object {
  const out: Record<string, unknown> = { ...answer };
  for (const [k, v] of Object.entries(schema.properties ?? {}))
    if (!(k in out)) out[k] = valueFor(v as JsonSchema, rng, k, 1);
  return out;
}

/** An answer a real model sometimes gives: not the JSON asked for. */
export function unparseableText(rng: Rng): string {
  return pick(rng, [
    'I am sorry, but I cannot compare these responses without more context.',
    'Sure! Here is my evaluation:\n\n{"winner": "A", "confidence": 0.8, "reason": "A is better"',
    'Both responses have merits. Overall I would lean slightly towards one of them.',
  ]);
}
