// Simulated answers for rewrite requests (plain text with a <rewrite_task> section: longer,
// shorter, markdown, or a warmer / harsher tone) and for `score_verdict` (an integer score of the <response>, or of the
// <target> one of <response_a>/<response_b>), with the biases a middling LLM judge shows: a
// longer text, Markdown and the first position each tend to score higher. Everything comes from
// the request; no protocol is imported.
import { followScore, taggedSections } from './reading';
import { contentUnits } from './pseudo-language';
import { mulberry32, type Rng } from '../../../shared/random';
import { pick, seedOf } from './random';
import { simulatedTone } from '../../../shared/simulated-tone';

const words = (t: string) => t.split(/\s+/).filter(Boolean);

/** What a longer rewrite adds after the original text (planted-length.ts finds the original by it). */
export const LONGER_TAIL = '\n\nTo put it another way: ';

// Wordings a paraphrase of judging instructions swaps in, one set per paraphrase (the k of
// <paraphrase>k of K</paraphrase>), so the K paraphrases differ from the original and each other
// while the sense and the length stay (the audit's band).
const PARAPHRASE_WORDS: [RegExp, string[]][] = [
  [/\bJudge how well\b/g, ['Assess how closely', 'Evaluate how well', 'Rate how faithfully']],
  [
    /\byou are an impartial judge\b/gi,
    ['You are a neutral evaluator', 'Act as a fair judge', 'You are an unbiased assessor'],
  ],
  [/\bDecide which\b/g, ['Determine which', 'Choose which', 'Say which']],
  [
    /\bfollows the instruction\b/g,
    ['follows the request', 'carries out the instruction', 'meets the instruction'],
  ],
  [/\bcorrectness\b/g, ['accuracy', 'being correct', 'factual accuracy']],
  [/\bhelpfulness\b/g, ['usefulness', 'how helpful it is', 'practical value']],
  [/\bno more and no less\b/g, ['neither more nor less', 'nothing more, nothing less', 'exactly that much']],
  [
    /\bare not merits in themselves\b/g,
    ['are not virtues on their own', 'do not count by themselves', 'earn no credit alone'],
  ],
  [/\bDo not let\b/g, ['Never let', "Don't allow", 'Do not allow']],
  [/\bdecide\b/g, ['settle it', 'sway you', 'be decisive']],
  [/\bresponses\b/g, ['answers', 'replies', 'outputs']],
  [/\bresponse\b/g, ['answer', 'reply', 'output']],
];

/** A paraphrase of judging instructions: the k-th wording of each phrase it knows, the rest kept. */
export function simulatedParaphrase(text: string, which: string | undefined): string {
  const k = Math.max(0, (Number(/^\s*(\d+)/.exec(which ?? '')?.[1]) || 1) - 1);
  let out = text;
  for (const [pattern, words] of PARAPHRASE_WORDS) out = out.replace(pattern, () => words[k % words.length]);
  return out;
}

/** A rewrite as a careful (mostly) model would make it; about one in twenty longer ones falls short. */
export function simulatedRewrite(task: string, sections: Map<string, string>, rng: Rng): string {
  const policy = sections.get('judging_instructions');
  if (policy !== undefined) return simulatedParaphrase(policy, sections.get('paraphrase'));
  const text = sections.get('response') ?? '';
  const w = words(text);
  if (task === 'longer') {
    const share = rng() < 0.05 ? 0.15 : 0.45 + 0.1 * rng();
    const extra = w.slice(0, Math.max(1, Math.round(w.length * share) - 3));
    return `${text}${LONGER_TAIL}${extra.join(' ')}`;
  }
  // The sentiment probe's tone rewrites: the content kept, framed in a warmer or a harsher tone.
  if (task === 'warmer' || task === 'harsher') return simulatedTone(task, text);
  if (task === 'shorter') {
    if (w.length < 40 || rng() < 0.5) return 'NO_FILLER';
    const kept = w.slice(0, Math.ceil(w.length * 0.75));
    const have = new Set(kept.join(' ').match(/\d+(?:\.\d+)?/g) ?? []);
    const lost = [...new Set(text.match(/\d+(?:\.\d+)?/g) ?? [])].filter((n) => !have.has(n));
    return [...kept, ...lost].join(' ');
  }
  const paragraphs = text.split(/\n\n+/);
  return ['## Summary', '', ...paragraphs.map((p, i) => (i === 0 ? `**${p}**` : `- ${p}`))].join('\n');
}

/** Markdown markers a reader notices at a glance: headings, list items, bold. */
function looksLikeMarkdown(text: string): boolean {
  return /^#{1,6} |^\s*[-*] |\*\*[^*]+\*\*/m.test(text);
}

/** A 1..scale score: the text heuristic, plus +1 leanings for length, Markdown and first position. */
export function simulatedScore(prompt: string, model: string): { score: number; reason: string } {
  const s = taggedSections(prompt);
  const scale = Number((s.get('scale') ?? '1-5').split('-')[1]) || 5;
  const target = s.get('target');
  const response = target ? (target === 'A' ? s.get('response_a') : s.get('response_b')) : s.get('response');
  const instruction = s.get('instruction') ?? '';
  const text = response ?? '';
  // Quality from the heuristic, mapped to the middle of the scale; the draw is seeded by the
  // content (what survives a rewrite), so a variant mostly keeps its original's score.
  const q = followScore(instruction, text) + Math.log(1 + contentUnits(text).length);
  const stable = mulberry32(seedOf('score', model, instruction, String(Math.round(q * 4))));
  const drift = mulberry32(seedOf('score-drift', model, prompt));
  let score = Math.round(scale * (0.45 + 0.25 * Math.tanh(q)) + (stable() - 0.5) * 2);
  const units = contentUnits(text).length;
  if (units > 120 && drift() < 0.5) score += 1;
  if (looksLikeMarkdown(text) && drift() < 0.35) score += 1;
  if (target === 'A' && drift() < 0.3) score += 1;
  score = Math.max(1, Math.min(scale, score));
  const reason = pick(drift, [
    'The response addresses the instruction with some gaps.',
    'Clear and mostly on point.',
    'Covers what was asked, though it could be tighter.',
  ]);
  return { score, reason: `${reason} (simulated)` };
}
