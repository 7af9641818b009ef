// A scripted judge for repeated asks (the self-consistency protocol), with PLANTED instability:
// every question (model × temperature × prompt) has a base verdict (the gold one with
// probability BASE_ACCURACY, seeded by the content), and each ask of it independently flips
// that verdict with the model's probability (`flip[model]`): pairwise A ↔ B, pointwise the score
// one point up or down (inward at the ends of the scale). So two asks of one question disagree
// with probability 2p(1 − p). One item per model (`poison`) is always answered with a winner no
// parser reads, so its repeats fail. Every answer is logged with a nonce in its reason, so a test
// ties each stored repeat to the answer the mock gave.
import { createHash } from 'node:crypto';
import type { MockRequest } from './server';

export const BASE_ACCURACY = 0.75;

export interface RepeatItem {
  id: string;
  instruction: string;
  /** Pairwise: output_1, output_2 and label; pointwise: response and human_score. */
  output_1?: string;
  output_2?: string;
  label?: 1 | 2;
  response?: string;
  human_score?: number;
}

export interface LoggedRepeat {
  nonce: number;
  model: string;
  temperature: number | undefined;
  itemId: string;
  /** orig (A = output_1), swap, or '-' (pointwise). */
  order: 'orig' | 'swap' | '-';
  /** The n-th ask of this question (0-based, re-asks included). */
  ask: number;
  flipped: boolean;
  /** Pairwise: the winner said; pointwise: the score; null: the unreadable answer. */
  winner: 'A' | 'B' | null;
  score: number | null;
}

function unit(...parts: (string | number | undefined)[]): number {
  return createHash('sha256').update(parts.map(String).join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

function section(text: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text);
  return m?.[1];
}

export function repeatsResponder(
  items: readonly RepeatItem[],
  flip: Record<string, number>,
  opts: { poison?: Record<string, string>; scale?: number } = {},
) {
  const scale = opts.scale ?? 5;
  const byText = new Map<string, { item: RepeatItem; slot: 'output_1' | 'output_2' | 'response' }>();
  for (const i of items) {
    if (i.output_1 !== undefined)
      byText.set(`${i.instruction}\u0000${i.output_1}`, { item: i, slot: 'output_1' });
    if (i.output_2 !== undefined)
      byText.set(`${i.instruction}\u0000${i.output_2}`, { item: i, slot: 'output_2' });
    if (i.response !== undefined)
      byText.set(`${i.instruction}\u0000${i.response}`, { item: i, slot: 'response' });
  }
  const log: LoggedRepeat[] = [];
  const asks = new Map<string, number>();
  let nonce = 0;

  const identify = (instruction: string, text: string) => {
    const hit = byText.get(`${instruction}\u0000${text}`);
    if (!hit) throw new Error(`repeats mock: unknown text ${text.slice(0, 60)}`);
    return hit;
  };

  const respond = (req: MockRequest): unknown => {
    const p = flip[req.model];
    if (p === undefined) throw new Error(`repeats mock: no flip probability for model ${req.model}`);
    const text = req.lastUser;
    const instruction = section(text, 'instruction') ?? '';
    const question = `${req.model}\u0000${req.temperature}\u0000${text}`;
    const ask = asks.get(question) ?? 0;
    asks.set(question, ask + 1);
    const flipped = unit('flip', question, ask) < p;
    const n = ++nonce;
    if (req.schemaName === 'pairwise_verdict') {
      const a = identify(instruction, section(text, 'response_a')!);
      const item = a.item;
      const order = a.slot === 'output_1' ? 'orig' : 'swap';
      const base = {
        model: req.model,
        temperature: req.temperature,
        itemId: item.id,
        order,
        ask,
        flipped,
      } as const;
      if (opts.poison?.[req.model] === item.id) {
        log.push({ nonce: n, ...base, winner: null, score: null });
        return { winner: 'C', confidence: 0.5, reason: `unreadable (answer ${n})` };
      }
      // The base verdict: the gold output with probability BASE_ACCURACY, the same for every ask.
      const goldShownAt = (item.label === 1) === (order === 'orig') ? 'A' : 'B';
      const right = unit('base', req.model, req.temperature, item.id, order) < BASE_ACCURACY;
      const baseWinner = right ? goldShownAt : goldShownAt === 'A' ? 'B' : 'A';
      const winner = flipped ? (baseWinner === 'A' ? 'B' : 'A') : baseWinner;
      log.push({ nonce: n, ...base, winner, score: null });
      // Readable but not always strict: "Response A" on some asks.
      return {
        winner: ask % 3 === 1 ? `Response ${winner}` : winner,
        confidence: flipped ? 0.55 : 0.85,
        reason: `Response ${winner} follows the instruction ${flipped ? 'somewhat' : 'clearly'} better (answer ${n})`,
      };
    }
    if (req.schemaName === 'score_verdict') {
      const r = identify(instruction, section(text, 'response')!);
      const item = r.item;
      const base = {
        model: req.model,
        temperature: req.temperature,
        itemId: item.id,
        order: '-',
        ask,
        flipped,
      } as const;
      const human = item.human_score ?? 3;
      const right = unit('base', req.model, req.temperature, item.id) < BASE_ACCURACY;
      const baseScore = right
        ? human
        : Math.min(scale, Math.max(1, human + (unit('off', item.id) < 0.5 ? -1 : 1)));
      let score = baseScore;
      if (flipped) {
        const up = baseScore === 1 || (baseScore < scale && unit('dir', question, ask) < 0.5);
        score = baseScore + (up ? 1 : -1);
      }
      log.push({ nonce: n, ...base, winner: null, score });
      return {
        score,
        reason: `Scored ${score} of ${scale}: ${flipped ? 'on reflection' : 'as it reads'} (answer ${n})`,
      };
    }
    throw new Error(`repeats mock: unexpected schema ${req.schemaName}`);
  };

  /** The logged answer a stored reason names. */
  const byNonce = (reason: string): LoggedRepeat | undefined => {
    const m = /\(answer (\d+)\)$/.exec(reason);
    return m ? log.find((l) => l.nonce === Number(m[1])) : undefined;
  };

  return { respond, log, byNonce };
}
