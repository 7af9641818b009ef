// The mock of the prompt probes (bandwagon, refinement, identity: a note appended to the judge's
// message, read against a neutral twin), on the probe harness: the bias mock answers, with the
// probe's effect planted where the test reads the probe's note and every noted answer logged, and a
// profile row is checked against that log. Each probe's test says how its notes read; nothing here
// knows a probe.
import { expect } from 'vitest';
import type { ProbeRow } from '../../src/shared/protocols/bias-probes/types';
import { biasResponder } from '../mock-provider/bias-responder';
import type { MockRequest } from '../mock-provider/server';
import {
  expectHolm,
  expectPairwiseRow,
  expectPointwiseRow,
  fnvUnit as unit,
  isNullJudge,
  jitter,
  pairFromLog,
  plant,
  RECORDS,
  tagged,
  useProbeHarness,
  type HarnessOptions,
  type Verdict,
} from './probe-harness';

export { RECORDS };

/** The planted share of noted units a variant note moves: a point up, or the verdict to the worse response. */
export const PLANTED = 0.5;
/** A null judge's own noise: each request (either arm) moved with this probability, independently. */
const NULL_NOISE = 0.3;

/** What the test reads in a request's last paragraph: the effect, and the note's arm. */
export interface NoteReading {
  effect: string;
  arm: 'variant' | 'base';
}

export interface Logged extends Verdict {
  model: string;
  effect: string;
  arm: 'variant' | 'base';
  /** The request without its note: the same for the variant and the base ask of one unit. */
  key: string;
  instruction: string;
  /** Pairwise: the letter the worse (non-gold) response is shown under, from the dataset. */
  worse?: 'A' | 'B';
}

/** The letter the worse response is shown under, found from the dataset (not from the probe). */
function worseLetter(user: string): 'A' | 'B' {
  const instruction = tagged(user, 'instruction');
  const a = tagged(user, 'response_a');
  const r = RECORDS.find((x) => x.instruction === instruction && (x.output_1 === a || x.output_2 === a))!;
  const aIsBetter = (r.label === 1 ? r.output_1 : r.output_2) === a;
  return aIsBetter ? 'B' : 'A';
}

/**
 * The core and the mock for one test file. Judges whose model ends in `-null` get no planted
 * effect, only noise alike in both arms (the effect off); the others move PLANTED of the
 * variant-noted units: pointwise +1 below the top, pairwise the verdict to the worse response.
 */
export function usePromptProbeRun(
  read: (lastParagraph: string) => NoteReading | null,
  opts?: HarnessOptions,
) {
  const base = biasResponder(RECORDS);
  const log: Logged[] = [];
  const respond = (req: MockRequest): unknown => {
    const answer = base.respond(req) as Verdict;
    const text = req.lastUser;
    const at = text.lastIndexOf('\n\n');
    const note = at < 0 ? null : read(text.slice(at + 2));
    if (!note || (answer.score === undefined && answer.winner === undefined)) return answer;
    const key = text.slice(0, at);
    const worse = answer.winner !== undefined ? worseLetter(text) : undefined;
    if (isNullJudge(req.model)) {
      if (unit('null', req.model, note.arm, text) < NULL_NOISE)
        jitter(answer, unit('sign', req.model, note.arm, text) < 0.5);
    } else if (note.arm === 'variant' && unit('planted', note.effect, req.model, key) < PLANTED)
      plant(answer, worse);
    log.push({ model: req.model, ...note, key, instruction: tagged(text, 'instruction'), ...answer, worse });
    return answer;
  };
  const h = useProbeHarness(respond, opts);

  /** The log's variant − base units of one judge model and effect (first asks; a repeat answers alike). */
  const units = (model: string, effect: string, pairwise: boolean) =>
    pairFromLog(
      log.filter((l) => l.model === model && l.effect === effect && (l.winner !== undefined) === pairwise),
      (l) => l.arm,
      (l) => l.key,
    );

  /** A pointwise profile row against the log: mean, interval, Wilcoxon, RR; planted or not. */
  function checkPointwiseRow(row: ProbeRow, model: string, n: number) {
    const pairs = units(model, row.effect, false);
    expectPointwiseRow(
      row,
      pairs.map(({ variant, base }) => ({ diff: variant.score! - base.score!, item: variant.instruction })),
      n,
    );
    if (isNullJudge(model)) expect(row.significant).toBe(false);
    else {
      // +1 on half the noted responses below the top of the scale.
      expect(row.significant).toBe(true);
      expect(row.mean).toBeGreaterThan(0.25);
      expect(row.mean).toBeLessThan(0.7);
      expect(row.mean_ci![0]).toBeGreaterThan(0);
    }
  }

  /** A pairwise profile row against the log: the worse response's win score change, flip rate, RR. */
  function checkPairwiseRow(row: ProbeRow, model: string, n: number) {
    const pairs = units(model, row.effect, true);
    expectPairwiseRow(
      row,
      pairs.map(({ variant, base }) => ({
        variant: variant.winner,
        base: base.winner,
        target: variant.worse!,
      })),
      n,
    );
    if (isNullJudge(model)) expect(row.significant).toBe(false);
    else {
      expect(row.significant).toBe(true);
      expect(row.flip_rate).toBeGreaterThan(0.3);
      expect(row.mean_ci![0]).toBeGreaterThan(0);
    }
  }

  // The harness itself, extended: its core and mock are set by its hook, after this returns.
  return Object.assign(h, { log, checkPointwiseRow, checkPairwiseRow, checkHolm: expectHolm });
}
