// The flip browser's rows (API `experiments.protocolView`, view "flips"): one generated answer as
// one judge graded it in each setting. Types only; model text travels as plain strings.
import type { Setting, Transition, Verdict } from './types';

export const FLIPS_VIEW = 'flips';

export interface SettingVerdictView {
  status: 'ok' | 'failed';
  verdict: Verdict | null;
  extracted: string | null;
  explanation: string | null;
  /** Why there is no verdict (status failed). */
  reason: string | null;
}

export type FlipChange = 'correct_to_incorrect' | 'incorrect_to_correct';

export interface FlipRowView {
  judge: string;
  generator: string;
  sourceId: string;
  itemId: number;
  language: string;
  question: string;
  gold: string[];
  answer: string;
  humanLabel: Verdict | null;
  verdicts: Partial<Record<Setting, SettingVerdictView>>;
  /** Transitions whose two verdicts are valid and differ, with the direction of the change. */
  flips: Partial<Record<Transition, FlipChange>>;
  /** With the noise floor on: NR asked again, unchanged, gave the other verdict ("flipped on repeat as well"). */
  nrRepeatFlipped?: boolean;
}

export interface FlipsQuery {
  judge?: string;
  generator?: string;
  language?: string;
  /** Only rows that flip in this transition (with `flipsOnly`, any transition). */
  transition?: Transition;
  change?: FlipChange;
  /** Default true: only rows with at least one flip (in `transition` when given). */
  flipsOnly?: boolean;
  offset?: number;
  limit?: number;
}

export interface FlipsView {
  rows: FlipRowView[];
  /** Rows matching the filters (rows holds `limit` of them from `offset`). */
  total: number;
  judges: string[];
  generators: string[];
  languages: string[];
  settings: Setting[];
}
