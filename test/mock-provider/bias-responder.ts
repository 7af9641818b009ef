// A scripted bias-probes "model" for the mock provider, with PLANTED biases: the rewriter
// makes longer (+~50% words), shorter and Markdown variants; the judges score with
// - length: +1 point with probability 0.8 on a longer variant (+0.8 expected on a 5-point scale),
//   −1 with probability 0.2 on a shorter one;
// - format: +1 with probability 0.3 on the Markdown variant against the plain text (+0.3);
// - position (pair in view): +1 with probability 0.4 for the response shown first (+0.4);
// - pairwise: "A" regardless of content with probability 0.2, else the better response (a 60%
//   position-A rate); the worse response made longer wins with probability 0.5 more, as
//   Markdown with probability 0.3 more.
// Every answer is logged with what the mock knows it showed, so tests recompute the metrics.
import { createHash } from 'node:crypto';
import { stripMarkdown } from '../../src/main/protocols/bias-probes/strip-markdown';
import type { MockRequest } from './server';

export interface PairRecord {
  id: string;
  instruction: string;
  output_1: string;
  output_2: string;
  label: 1 | 2;
  subset?: string;
}

export const PLANTED = {
  longer: 0.8,
  shorter: -0.2,
  markdown: 0.3,
  pairFirst: 0.4,
  /** Share of pairwise verdicts that say "A" whatever is shown; the rest pick the better one. */
  positionLean: 0.2,
  /** The A rate that gives on original pairs in both orders: 0.2 + 0.8 × ½. */
  positionA: 0.6,
  pairwiseLongerFlip: 0.5,
  pairwiseMarkdownFlip: 0.3,
};
/** Share of longer rewrites the mock botches (too short): the audit must flag them. */
export const BOTCHED_LONGER = 0.05;

export type Shown = 'original' | 'plain' | 'longer' | 'shorter' | 'markdown';

export interface LoggedScore {
  model: string;
  itemId: string;
  slot: 'output_1' | 'output_2';
  condition: Shown;
  /** Pair in view: the target shown first or second; null when scored alone. */
  shown: 'first' | 'second' | null;
  score: number;
  /** How many times this exact request was asked before (0 = first; 1 = the noise floor's repeat). */
  ask: number;
}
export interface LoggedVerdict {
  model: string;
  itemId: string;
  /** What each position showed: slot and condition. */
  a: { slot: 'output_1' | 'output_2'; condition: Shown };
  b: { slot: 'output_1' | 'output_2'; condition: Shown };
  winner: 'A' | 'B';
  ask: number;
}

function unit(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

function section(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(`</${tag}>`, start);
  let body = text.slice(start + open.length, end);
  if (body.startsWith('\n')) body = body.slice(1);
  if (body.endsWith('\n')) body = body.slice(0, -1);
  return body;
}

/** Texts are known by instruction and text: LLMBar repeats some outputs across items. */
const tk = (instruction: string, text: string) => `${instruction}\u0000${text.trim()}`;

const words = (t: string) => t.split(/\s+/).filter(Boolean);

function longer(text: string, botched: boolean): string {
  const w = words(text);
  // A botched rewrite comes back cut to half (or, for one word, repeated four times): its
  // ratio lies outside any longer band, and its text differs from the original.
  if (botched)
    return w.length > 1 ? w.slice(0, Math.ceil(w.length / 2)).join(' ') : `${text} ${text} ${text} ${text}`;
  const extra = w.slice(0, Math.max(1, Math.round(w.length / 2) - 2));
  return `${text}\n\nIn other words: ${extra.join(' ')}`;
}

function shorter(text: string): string | null {
  const w = words(text);
  if (w.length < 30) return null;
  const kept = w.slice(0, Math.ceil(w.length * 0.7));
  const have = new Set(kept.join(' ').match(/\d+(?:\.\d+)?/g) ?? []);
  const lost = [...new Set(text.match(/\d+(?:\.\d+)?/g) ?? [])].filter((n) => !have.has(n));
  return [...kept, ...lost].join(' ');
}

function markdown(plain: string): string {
  const paragraphs = plain.split(/\n\n+/);
  return ['## Answer', '', ...paragraphs.map((p, i) => (i === 0 ? `**${p}**` : `- ${p}`))].join('\n');
}

/**
 * @param repeatChanges planted repeat changes per judge model: a request asked again (a later ask
 *   of the same prompt, as the noise floor's sample 1) is answered differently with this
 *   probability: a pointwise score moves by one point (up or down, drawn per unit), a pairwise
 *   verdict names the other response. Without it every answer is as before. The provider sees no
 *   sample index, so with it each answer's reason names its ask.
 */
export function biasResponder(items: readonly PairRecord[], repeatChanges?: Record<string, number>) {
  const asks = new Map<string, number>();
  const askOf = (req: MockRequest) => {
    const key = `${req.model}\u0000${req.schemaName ?? ''}\u0000${req.lastUser}`;
    const ask = asks.get(key) ?? 0;
    asks.set(key, ask + 1);
    return ask;
  };
  const changed = (ask: number, model: string, ...unitParts: string[]) =>
    ask > 0 && unit('repeat', model, ...unitParts) < (repeatChanges?.[model] ?? 0);
  const because = (text: string, ask: number) => (repeatChanges ? `${text} ask ${ask}` : text);
  const byInstruction = new Map<string, PairRecord[]>();
  for (const i of items) byInstruction.set(i.instruction, [...(byInstruction.get(i.instruction) ?? []), i]);
  /** Text the mock wrote or derived → what it is. */
  const known = new Map<string, { itemId: string; slot: 'output_1' | 'output_2'; condition: Shown }>();
  for (const i of items)
    for (const slot of ['output_1', 'output_2'] as const) {
      known.set(tk(i.instruction, stripMarkdown(i[slot])), { itemId: i.id, slot, condition: 'plain' });
      known.set(tk(i.instruction, i[slot]), { itemId: i.id, slot, condition: 'original' });
    }
  const scores: LoggedScore[] = [];
  const verdicts: LoggedVerdict[] = [];
  const rewrites: { itemId: string; slot: string; kind: string; text: string | null; botched: boolean }[] =
    [];

  const identify = (instruction: string, text: string) => {
    const k = known.get(tk(instruction, text));
    if (!k)
      throw new Error(`bias mock: unknown text for "${instruction.slice(0, 40)}": ${text.slice(0, 60)}`);
    return k;
  };
  const itemOf = (id: string) => items.find((i) => i.id === id)!;
  /** The content quality the mock gives a response: 2–4, better responses higher on average. */
  const base = (model: string, itemId: string, slot: string) => {
    const better = `output_${itemOf(itemId).label}` === slot;
    return (better ? 3 : 2) + (unit('base', model, itemId, slot) < 0.5 ? 1 : 0);
  };

  const respond = (req: MockRequest): unknown => {
    const text = req.lastUser;
    const instruction = section(text, 'instruction') ?? '';
    const task = section(text, 'rewrite_task');
    if (task) {
      const source = section(text, 'response')!;
      const candidates = byInstruction.get(instruction) ?? [];
      const found = candidates.flatMap((i) =>
        (['output_1', 'output_2'] as const)
          .filter((s) => i[s].trim() === source.trim() || stripMarkdown(i[s]).trim() === source.trim())
          .map((s) => ({ item: i, slot: s })),
      )[0];
      if (!found) throw new Error(`bias mock: rewrite of unknown text ${source.slice(0, 60)}`);
      const { item, slot } = found;
      let out: string | null;
      const botched = task === 'longer' && unit('botch', item.id, slot) < BOTCHED_LONGER;
      if (task === 'longer') out = longer(source, botched);
      else if (task === 'shorter') out = shorter(source);
      else out = markdown(source);
      rewrites.push({ itemId: item.id, slot, kind: task, text: out, botched });
      if (out === null) return 'NO_FILLER';
      known.set(tk(instruction, out), { itemId: item.id, slot, condition: task as Shown });
      return out;
    }
    if (req.schemaName === 'score_verdict') {
      const target = section(text, 'target');
      if (target) {
        const a = identify(instruction, section(text, 'response_a')!);
        const b = identify(instruction, section(text, 'response_b')!);
        const t = target === 'A' ? a : b;
        const shown = target === 'A' ? 'first' : 'second';
        const bump =
          shown === 'first' && unit('first', req.model, t.itemId, t.slot) < PLANTED.pairFirst ? 1 : 0;
        let score = base(req.model, t.itemId, t.slot) + bump;
        const ask = askOf(req);
        // The pair-shown score's repeat (the position probe's placebo) changes like the others,
        // inward at the scale's top.
        if (changed(ask, req.model, t.itemId, t.slot, 'pair', shown))
          score += unit('repeat-sign', req.model, t.itemId, t.slot) < 0.5 && score < 5 ? 1 : -1;
        scores.push({
          model: req.model,
          itemId: t.itemId,
          slot: t.slot,
          condition: t.condition,
          shown,
          score,
          ask,
        });
        return { score, reason: because(`mock pair ${shown}`, ask) };
      }
      const r = identify(instruction, section(text, 'response')!);
      let score = base(req.model, r.itemId, r.slot);
      if (r.condition === 'longer' && unit('longer', req.model, r.itemId, r.slot) < PLANTED.longer)
        score += 1;
      if (r.condition === 'shorter' && unit('shorter', req.model, r.itemId, r.slot) < -PLANTED.shorter)
        score -= 1;
      if (r.condition === 'markdown' && unit('md', req.model, r.itemId, r.slot) < PLANTED.markdown)
        score += 1;
      const ask = askOf(req);
      // Base scores lie in 2–4 before a bump, so a change of one point stays on the 1–5 scale.
      if (changed(ask, req.model, r.itemId, r.slot, r.condition))
        score += unit('repeat-sign', req.model, r.itemId, r.slot) < 0.5 ? 1 : -1;
      scores.push({
        model: req.model,
        itemId: r.itemId,
        slot: r.slot,
        condition: r.condition,
        shown: null,
        score,
        ask,
      });
      return { score, reason: because(`mock ${r.condition}`, ask) };
    }
    if (req.schemaName === 'pairwise_verdict') {
      const a = identify(instruction, section(text, 'response_a')!);
      const b = identify(instruction, section(text, 'response_b')!);
      const item = itemOf(a.itemId);
      const better = `output_${item.label}`;
      const order = a.slot === 'output_1' ? 'orig' : 'swap';
      let winner: 'A' | 'B' = a.slot === better ? 'A' : 'B';
      // The worse response's position, and whether it was modified.
      const worseSide = a.slot === better ? b : a;
      const worseLetter = a.slot === better ? 'B' : 'A';
      if (
        worseSide.condition === 'longer' &&
        unit('pw-long', req.model, item.id, order) < PLANTED.pairwiseLongerFlip
      )
        winner = worseLetter;
      if (
        worseSide.condition === 'markdown' &&
        unit('pw-md', req.model, item.id, order) < PLANTED.pairwiseMarkdownFlip
      )
        winner = worseLetter;
      // The position lean, drawn per (model, item, order) so every condition shares it.
      if (unit('pw-pos', req.model, item.id, order) < PLANTED.positionLean) winner = 'A';
      const ask = askOf(req);
      if (changed(ask, req.model, item.id, order, a.condition, b.condition))
        winner = winner === 'A' ? 'B' : 'A';
      verdicts.push({ model: req.model, itemId: item.id, a, b, winner, ask });
      return { winner, confidence: 0.8, reason: because(`mock ${winner}`, ask) };
    }
    throw new Error(`bias mock: unexpected request ${req.schemaName ?? 'text'}`);
  };
  return { respond, scores, verdicts, rewrites };
}
