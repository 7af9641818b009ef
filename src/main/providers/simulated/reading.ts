import type { ChatRequestSpec } from '../types';
import { contentUnits } from './pseudo-language';

// How the simulated judge reads a prompt: the tagged sections and a crude measure of how well
// a response follows an instruction. Both the answers and the rewrite/score stages use these,
// so they sit below both.

/** The texts a prompt marks with <tag>…</tag>, by tag name (the last one wins). */
export function taggedSections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/<([a-z][a-z0-9_]*)>\n?([\s\S]*?)\n?<\/\1>/gi))
    out.set(m[1].toLowerCase(), m[2]);
  return out;
}

/**
 * The instruction and the two responses as shown of a pairwise-verdict request (each study names
 * the sections its own way: response_a or output_a, instruction or question); null for any other
 * request, or one without both responses.
 */
export function shownPairOf(spec: ChatRequestSpec): { instruction: string; a: string; b: string } | null {
  if (spec.response?.name !== 'pairwise_verdict') return null;
  const sections = taggedSections(spec.messages.map((m) => m.content).join('\n\n'));
  const a = sections.get('response_a') ?? sections.get('output_a');
  const b = sections.get('response_b') ?? sections.get('output_b');
  if (a === undefined || b === undefined) return null;
  return { instruction: sections.get('instruction') ?? sections.get('question') ?? '', a, b };
}

/**
 * A planted judge's pairwise verdict (the -first, -lang and -mix models), its reason the same
 * plain words for every planted effect so a reader cannot tell which one answered.
 */
export function plantedVerdict(
  winner: 'A' | 'B' | 'tie',
  confidence: number,
): { winner: 'A' | 'B' | 'tie'; confidence: number; reason: string } {
  return {
    winner,
    confidence,
    reason:
      winner === 'tie'
        ? 'Neither response is clearly better. (simulated)'
        : `Response ${winner} follows the instruction more closely. (simulated)`,
  };
}

/**
 * How well a response seems to follow the instruction, from the texts alone: judges are told
 * that a response should hold neither more nor less than asked, and on LLMBar's pairs the
 * shorter, on-topic response is the better one about seven times in ten. So: brevity (in
 * content units, which survive the pseudo-translation) plus the share of the response that
 * takes up the instruction's words. Crude, roughly language-independent, better than chance.
 */
export function followScore(instruction: string, response: string): number {
  const asked = new Set(contentUnits(instruction));
  const given = contentUnits(response);
  if (!given.length) return -100;
  const precision = given.filter((u) => asked.has(u)).length / given.length;
  return -Math.log(1 + given.length) + 0.5 * precision;
}
