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

export function refSensResponder(items: readonly QaRecord[]) {
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
    const verdict = unit('judge', req.model, item.id, answer) < p ? 'CORRECT' : 'INCORRECT';
    judgments.push({ model: req.model, question, answer, setting, verdict });
    return { extracted_answer: answer.slice(0, 40), explanation: `mock ${setting}`, verdict };
  };
  return { respond, generations, judgments };
}
