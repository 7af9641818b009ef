// A scripted reference-sensitivity "model" for the mock provider, with planted over-acceptance:
// generators answer with the first gold answer or a fixed wrong answer; judges accept correct
// answers almost always and wrong ones at a rate that depends on the language and on whether a
// reference is shown (Telugu: 40% without a reference, 5% with one). Every answer it gives is
// logged, so tests recompute the metrics from this log.
import { createHash } from 'node:crypto';
import type { MockRequest } from './server';

export interface QaRecord {
  id: string;
  question: string;
  answers: string[];
  language: string;
}

export type LoggedSetting = 'NR' | 'RV' | 'RC';

export interface LoggedGeneration {
  model: string;
  question: string;
  answer: string;
}
export interface LoggedJudgment {
  model: string;
  question: string;
  answer: string;
  setting: LoggedSetting;
  verdict: 'CORRECT' | 'INCORRECT';
  /** 0 the first time this content was asked, 1 the second (a repeat), … */
  ask: number;
}

/** Planted acceptance of wrong answers, by language: [without reference, with reference]. */
export const WRONG_ACCEPT: Record<string, [number, number]> = {
  te: [0.4, 0.05],
  en: [0.1, 0.05],
  ar: [0.1, 0.05],
};
/** Planted acceptance of correct answers (any setting). */
export const RIGHT_ACCEPT = 0.95;
/** Share of questions a generator answers with the gold answer. */
export const GENERATOR_ACCURACY = 0.6;
export const WRONG_ANSWER = 'Nobody knows.';

function unit(...parts: string[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

function field(text: string, label: string, next: string[]): string {
  const start = text.indexOf(`${label}\n`);
  if (start < 0) throw new Error(`mock: no "${label}" in prompt`);
  const from = start + label.length + 1;
  let end = text.length;
  for (const n of next) {
    const at = text.indexOf(`\n\n${n}`, from);
    if (at >= 0) end = Math.min(end, at);
  }
  return text.slice(from, end);
}

/**
 * @param repeatFlips planted repeat flips per judge model: an NR prompt asked again (a later ask of
 *   the same content) gives the other verdict for answers whose draw falls below the probability.
 *   The provider sees no sample index, so each verdict names its ask in its explanation.
 */
export function refSensResponder(items: readonly QaRecord[], repeatFlips?: Record<string, number>) {
  const asks = new Map<string, number>();
  const byQuestion = new Map(items.map((i) => [i.question, i]));
  const generations: LoggedGeneration[] = [];
  const judgments: LoggedJudgment[] = [];
  const respond = (req: MockRequest): unknown => {
    if (!req.schema) {
      const item = byQuestion.get(req.lastUser);
      if (!item) throw new Error(`mock: unknown question ${req.lastUser.slice(0, 40)}`);
      const answer = unit('gen', req.model, item.id) < GENERATOR_ACCURACY ? item.answers[0] : WRONG_ANSWER;
      generations.push({ model: req.model, question: item.question, answer });
      return answer;
    }
    const text = req.lastUser;
    const question = field(
      text,
      text.slice(0, text.indexOf('\n')).endsWith(':') ? text.slice(0, text.indexOf('\n')) : '',
      ['Reference answer(s):', 'Generated answer:'],
    );
    const item = byQuestion.get(question);
    if (!item) throw new Error(`mock: unknown question in judge prompt ${question.slice(0, 40)}`);
    const hasRef = text.includes('Reference answer(s):');
    const setting: LoggedSetting = !hasRef ? 'NR' : text.includes('Before deciding') ? 'RC' : 'RV';
    const answer = field(text, 'Generated answer:', ['Before deciding']);
    const correct = item.answers.includes(answer);
    const [nr, withRef] = WRONG_ACCEPT[item.language] ?? [0.1, 0.05];
    const p = correct ? RIGHT_ACCEPT : setting === 'NR' ? nr : withRef;
    // One draw per (model, question, answer): a judge that rejects a wrong answer with the
    // reference also rejects it without one unless the NR rate says otherwise (monotone).
    const first = unit('judge', req.model, item.id, answer) < p ? 'CORRECT' : 'INCORRECT';
    const content = `${req.model}\u0000${text}`;
    const ask = asks.get(content) ?? 0;
    asks.set(content, ask + 1);
    const flips =
      ask > 0 &&
      setting === 'NR' &&
      unit('repeat', req.model, item.id, answer) < (repeatFlips?.[req.model] ?? 0);
    const verdict = flips ? (first === 'CORRECT' ? 'INCORRECT' : 'CORRECT') : first;
    judgments.push({ model: req.model, question, answer, setting, verdict, ask });
    const explanation = repeatFlips ? `mock ${setting} ask ${ask}` : `mock ${setting}`;
    return { extracted_answer: answer.slice(0, 40), explanation, verdict };
  };
  return { respond, generations, judgments };
}
