// Paired comparisons that several studies report with the same statistics, so each study states
// only what it compares and the columns, methods and method sentences stay one definition:
// - the repeat-flip noise floor: a change's flips beside the judge's own repeat flips on the same
//   units (a language; a reference setting), with the paired excess and
//   the item-clustered McNemar of change-only vs repeat-only flips;
// - the position lean: items choosing the first-shown answer in both orders against the second
//   in both (pairwise studies, k-vote majorities).
import { NEWCOMBE_PAIRED_METHOD } from '../stats/paired';
import { FIRST_RATE_METHOD, POSITION_TEST_METHOD } from '../stats/position';
import { col, withMethod, type TableColumn } from './table';
import type { CI } from './format';

/**
 * A noise-floor row's statistics as metrics.json holds them, alike in every study: the change's
 * flips beside the judge's own repeat flips on the same units (the columns below read these keys).
 */
export interface RepeatFloorExcess {
  n: number;
  /** Under the change, on these units. */
  flip_rate: number;
  flip_rate_ci: CI;
  /** Under repetition (the same request again), on the same units. */
  repeat_flip_rate: number;
  repeat_flip_rate_ci: CI;
  /** flip_rate − repeat_flip_rate. */
  excess_flip_rate: number;
  /** Newcombe's paired 95% CI (method 10) on the 2×2 of flipped under the change × under repetition. */
  excess_flip_rate_ci: CI;
  both_flipped: number;
  repeat_only: number;
  neither: number;
  /** Exact McNemar of change-only vs repeat-only flips, item-clustered. */
  mcnemar_p: number;
}

/** What a noise-floor table compares with the repeat: its column of change-only flips. */
export interface RepeatFloorChange {
  /** Header of the flip rate under the change ("Flip", "Flip rate"). */
  flipHeader: string;
  /** Key and header of the count of units only the change flipped ("language_only", "Language only"). */
  onlyKey: string;
  onlyHeader: string;
}

/** A noise-floor table's columns after its row keys: n, the two flip rates, the excess and the test. */
export function repeatFloorColumns(change: RepeatFloorChange): TableColumn[] {
  return [
    col('n', 'n', 'int'),
    col('flip_rate', change.flipHeader, 'pct'),
    withMethod(col('flip_rate_ci', '95% CI', 'ci'), 'Wilson'),
    col('repeat_flip_rate', 'Repeat flip', 'pct'),
    withMethod(col('repeat_flip_rate_ci', '95% CI', 'ci'), 'Wilson'),
    col('excess_flip_rate', 'Excess', 'pct'),
    withMethod(col('excess_flip_rate_ci', '95% CI', 'ci'), 'Newcombe paired, method 10'),
    col('both_flipped', 'Both flipped', 'int'),
    col(change.onlyKey, change.onlyHeader, 'int'),
    col('repeat_only', 'Repeat only', 'int'),
    col('mcnemar_p', 'McNemar p', 'p'),
    col('mcnemar_p_holm', 'Holm p', 'p'),
  ];
}

/**
 * The caption's sentence on the excess and its test, in the words of the change: "excess =
 * `excess`, with the Newcombe … on the paired 2×2 of flipped under `under` × flipped under
 * repetition. McNemar: exact two-sided test of `only`-only vs repeat-only flips, item-clustered".
 */
export function repeatFloorMethods(words: { excess: string; under: string; only: string }): string {
  return (
    `excess = ${words.excess}, with the ${NEWCOMBE_PAIRED_METHOD} (95%) on the paired 2×2 of flipped ` +
    `under ${words.under} × flipped under repetition. McNemar: exact two-sided test of ${words.only}-only ` +
    'vs repeat-only flips, item-clustered'
  );
}

/**
 * The position-lean columns: both first, both second, the first rate with its paired interval,
 * the lean test and its Holm p (under `holmKey`; `holmMethod` names Holm in CSV/XLSX headers).
 */
export function positionLeanColumns(holm: { key: string; method: boolean }): TableColumn[] {
  const holmColumn = col(holm.key, 'Holm p', 'p');
  return [
    col('both_first', 'Both first', 'int'),
    col('both_second', 'Both second', 'int'),
    col('first_rate', 'First rate', 'pct'),
    withMethod(col('first_rate_ci', '95% CI', 'ci'), FIRST_RATE_METHOD),
    withMethod(col('lean_p', 'Lean p', 'p'), POSITION_TEST_METHOD),
    holm.method ? withMethod(holmColumn, 'Holm') : holmColumn,
  ];
}
