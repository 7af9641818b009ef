// A scripted Judge-LS "model" for the mock provider: it translates by tagging the text
// (so tests know every variant without reading the app's tables), judges with a known,
// deterministic accuracy, and logs every verdict it gives. Tests compute expected metrics
// from this log alone.
import { createHash } from 'node:crypto';
import type { Item } from '../../src/shared/domain';
import type { Fault, MockRequest } from './server';

export const ZH_TAG = '【中文】';
export const LS_TAG = '【混合】';

export type VerdictLang = 'EN' | 'ZH' | 'LS';

export interface LoggedVerdict {
  model: string;
  sourceId: string;
  kind: 'quality' | 'tie_probe';
  language: VerdictLang | 'EN-ZH';
  /** quality: orig | swap; tie probe: en_zh | zh_en. */
  order: string;
  winner: 'A' | 'B' | 'tie';
  /** 0 for the first time this content was asked, 1 for the second (a repeat), … */
  ask: number;
}

function between(text: string, tag: string): string {
  const open = `<${tag}>\n`;
  const start = text.indexOf(open);
  const end = text.indexOf(`\n</${tag}>`, start);
  if (start < 0 || end < 0) throw new Error(`mock: no <${tag}> in prompt`);
  return text.slice(start + open.length, end);
}

/** A number in [0, 1) from a string: the mock's only source of "randomness". */
export function unit(...parts: string[]): number {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

/** Items whose ZH output_1 loses its numbers: the audit must flag them. */
export function dropsNumbers(item: Pick<Item, 'sourceId' | 'output1'>): boolean {
  return ((item.output1 ?? '').match(/\d+(\.\d+)?/g) ?? []).length >= 2 && unit('drop', item.sourceId) < 0.2;
}

export function translate(text: string, lang: 'ZH' | 'LS', opts: { dropNumbers?: boolean } = {}): string {
  const body = opts.dropNumbers ? text.replace(/\d+(\.\d+)?/g, '几') : text;
  return (lang === 'ZH' ? ZH_TAG : LS_TAG) + body;
}

function untag(text: string): { lang: VerdictLang; text: string } {
  if (text.startsWith(ZH_TAG)) return { lang: 'ZH', text: text.slice(ZH_TAG.length) };
  if (text.startsWith(LS_TAG)) return { lang: 'LS', text: text.slice(LS_TAG.length) };
  return { lang: 'EN', text };
}

export interface JudgeProfile {
  /** Chance of picking the gold output, per language of the comparison. */
  accuracy: Record<VerdictLang, number>;
  tieRate: number;
  /** Extra chance to say "A" regardless (position bias). */
  positionBias: number;
  /** Chance a tie probe is a tie; otherwise EN wins with enPreference. */
  probeTie: number;
  enPreference: number;
}

export const DEFAULT_PROFILES: Record<string, JudgeProfile> = {
  'gpt-4.1-mini': {
    accuracy: { EN: 0.82, ZH: 0.76, LS: 0.74 },
    tieRate: 0.04,
    positionBias: 0.06,
    probeTie: 0.5,
    enPreference: 0.62,
  },
  'claude-haiku-4-5': {
    accuracy: { EN: 0.8, ZH: 0.79, LS: 0.71 },
    tieRate: 0.08,
    positionBias: 0.03,
    probeTie: 0.6,
    enPreference: 0.55,
  },
};

export interface JudgeLsResponder {
  respond: (req: MockRequest) => unknown;
  /** Answers that are never parseable, for one request content: re-asked, then recorded failed. */
  faultFor: (req: MockRequest) => Fault | undefined;
  verdicts: LoggedVerdict[];
  /** Usable verdicts, one per request content (a re-sent request counts once). */
  uniqueVerdicts(): LoggedVerdict[];
  /** Contents answered with a sticky malformed reply (they end failed). */
  stickyFailures: Set<string>;
}

/**
 * @param items the dataset, to find which item and output a prompt shows
 * @param failRate share of judge requests (per content) that always get a malformed answer
 */
export function judgeLsResponder(
  items: readonly Item[],
  opts: {
    profiles?: Record<string, JudgeProfile>;
    failRate?: number;
    /**
     * Planted repeat flips, per model: an English quality prompt asked again (a later ask of the
     * same content) answers otherwise (A↔B, a tie becomes A) for the (item, order) pairs whose
     * draw falls below the probability. The provider cannot see a sample index: repeats are told
     * apart by arrival, so each answer names its ask in its reason.
     */
    repeatFlips?: Record<string, number>;
  } = {},
): JudgeLsResponder {
  const profiles = opts.profiles ?? DEFAULT_PROFILES;
  const bySource = new Map<string, Item>();
  for (const item of items)
    bySource.set(`${item.instruction}\u0000${item.output1}\u0000${item.output2}`, item);
  const byInstructionPair = new Map<string, Item>();
  for (const item of items) byInstructionPair.set(`${item.output1}\u0000${item.output2}`, item);
  for (const item of items) {
    byInstructionPair.set(`${item.output2}\u0000${item.output1}`, item);
  }
  const verdicts: LoggedVerdict[] = [];
  const unique = new Map<string, LoggedVerdict>();
  const sticky = new Set<string>();
  const asks = new Map<string, number>();
  const contentKey = (req: MockRequest) => `${req.model}\u0000${req.lastUser}`;

  // A translation that dropped numbers no longer matches its English: remember its source.
  const englishOf = new Map<string, string>();
  const side = (text: string) => {
    const t = untag(text);
    return { lang: t.lang, text: englishOf.get(t.text) ?? t.text };
  };

  /** Which item and outputs a judge prompt shows, with each side's language. */
  const locate = (prompt: string) => {
    const a = side(between(prompt, 'response_a'));
    const b = side(between(prompt, 'response_b'));
    // A tie probe shows the same output twice (EN and ZH); a quality prompt shows both outputs.
    if (a.text === b.text) {
      const hit = items.find((it) => it.output1 === a.text || it.output2 === a.text);
      if (!hit) throw new Error('mock: tie probe for unknown output');
      return { item: hit, kind: 'tie_probe' as const, a, b };
    }
    const item = byInstructionPair.get(`${a.text}\u0000${b.text}`);
    if (!item) throw new Error('mock: quality prompt for unknown pair');
    return { item, kind: 'quality' as const, a, b };
  };

  const judge = (req: MockRequest) => {
    const profile = profiles[req.model];
    if (!profile) throw new Error(`mock: no judge profile for ${req.model}`);
    const { item, kind, a } = locate(req.lastUser);
    let v: LoggedVerdict;
    if (kind === 'tie_probe') {
      const order = a.lang === 'EN' ? 'en_zh' : 'zh_en';
      const r = unit('probe', req.model, item.sourceId, order);
      const enWins =
        r >= profile.probeTie && unit('pref', req.model, item.sourceId, order) < profile.enPreference;
      const winner =
        r < profile.probeTie ? 'tie' : (enWins ? order === 'en_zh' : order !== 'en_zh') ? 'A' : 'B';
      v = { model: req.model, sourceId: item.sourceId, kind, language: 'EN-ZH', order, winner, ask: 0 };
    } else {
      const order = a.text === item.output1 ? 'orig' : 'swap';
      const lang = a.lang;
      const goldPos = (item.label === 1) === (order === 'orig') ? 'A' : 'B';
      const other = goldPos === 'A' ? 'B' : 'A';
      const r = unit('q', req.model, item.sourceId, lang, order);
      const winner =
        r < profile.tieRate
          ? 'tie'
          : r < profile.tieRate + profile.positionBias
            ? 'A'
            : unit('c', req.model, item.sourceId, lang) < profile.accuracy[lang]
              ? goldPos
              : other;
      const ask = asks.get(contentKey(req)) ?? 0;
      const flips =
        ask > 0 &&
        lang === 'EN' &&
        unit('repeat', req.model, item.sourceId, order) < (opts.repeatFlips?.[req.model] ?? 0);
      const given = flips ? (winner === 'A' ? 'B' : 'A') : winner;
      v = { model: req.model, sourceId: item.sourceId, kind, language: lang, order, winner: given, ask: 0 };
    }
    v.ask = asks.get(contentKey(req)) ?? 0;
    asks.set(contentKey(req), v.ask + 1);
    verdicts.push(v);
    unique.set(contentKey(req), v);
    return {
      winner: v.winner,
      confidence: 0.5 + unit('conf', req.lastUser) / 2,
      reason:
        `Scripted verdict for ${v.sourceId} <b>${v.language}</b> (${v.order}): ${v.winner}.` +
        (opts.repeatFlips ? ` Ask ${v.ask}.` : ''),
    };
  };

  const transform = (req: MockRequest) => {
    const lang = /Rewrite the following in Simplified Chinese/.test(req.lastUser) ? 'ZH' : 'LS';
    const instruction = between(req.lastUser, 'instruction');
    const o1 = between(req.lastUser, 'output_1');
    const o2 = between(req.lastUser, 'output_2');
    const item = bySource.get(`${instruction}\u0000${o1}\u0000${o2}`);
    const drop = lang === 'ZH' && item !== undefined && dropsNumbers(item);
    const out1 = translate(o1, lang, { dropNumbers: drop });
    englishOf.set(untag(out1).text, o1);
    return {
      instruction: translate(instruction, lang),
      output_1: out1,
      output_2: translate(o2, lang),
    };
  };

  return {
    verdicts,
    stickyFailures: sticky,
    // A content that always got a malformed reply was never a usable verdict.
    uniqueVerdicts: () => [...unique].filter(([k]) => !sticky.has(k)).map(([, v]) => v),
    respond: (req) => (req.schemaName === 'language_variant' ? transform(req) : judge(req)),
    faultFor: (req) => {
      if (req.schemaName !== 'pairwise_verdict' || !opts.failRate) return undefined;
      if (unit('fail', req.model, req.lastUser) >= opts.failRate) return undefined;
      sticky.add(contentKey(req));
      return 'malformed';
    },
  };
}
