// The Monte Carlo runner of the end-to-end validation (issue 33): as bench/validate's, but a
// replicate is a whole study run through the app (asynchronous), so it counts detections of
// studies, not of statistics functions. Each replicate gets its own seed from (run seed, check,
// cell, replicate index): the CI subset's R replicates are the first R of the full run's.
import { hashSeed } from '../../src/shared/annotation/random';

/** power: share of runs that flag a planted effect, against the planner's prediction; type1: share of runs that flag an absent one. */
export type Kind = 'power' | 'type1';

export interface Cell {
  /** Unique within its check; also seeds its replicates. */
  key: string;
  /** Items per study run. */
  n: number;
  /** What is planted, in words (the table's column). */
  planted: string;
  /** The planner's predicted power (power cells). */
  expected?: number;
  /** How the prediction was made (one line of the report). */
  plan?: string;
  /** Run by the CI subset (test/validation/e2e-planted.test.ts). */
  ci?: boolean;
  /** Replicates of the full run. */
  reps: number;
  /** One study run with this replicate's seed: did it flag the effect (null: the study reported no test, counted apart)? */
  replicate: (seed: number, index: number) => Promise<boolean | null>;
}

export interface Check {
  id: string;
  title: string;
  kind: Kind;
  /** α of the flag (type1's nominal rate). */
  alpha: number;
  /** What is planted, run and read (one paragraph of the report). */
  design: string;
  cells: Cell[];
}

export interface CellResult {
  check: string;
  key: string;
  kind: Kind;
  n: number;
  planted: string;
  reps: number;
  defined: number;
  hits: number;
  rate: number;
  /** Monte Carlo SE of rate at the nominal (prediction or α), known before the run. */
  se: number;
  expected?: number;
  plan?: string;
  band: [number, number];
  inBand: boolean;
  /** The flag: power more than 5 points off the prediction, or a false-positive rate above 6.5 %. */
  flagged: boolean;
  cpuSeconds: number;
}

/** The run's seed when none is given (the CI subset's too), as bench/validate's. */
export const DEFAULT_SEED = 33_20261206;
/** Band half-width in Monte Carlo SEs, as bench/validate's: 4 SE is ~3e-5 per cell one-sided, so a seeded run is not flaky. */
export const BAND_Z = 4;
/** The criterion: the measured power within 5 points of the planner's. */
export const POWER_TOLERANCE = 0.05;
export const TYPE1_FLAG = 0.065;

/** The seed of one replicate: a 32-bit number from its place in the run. */
export function replicateSeed(seed: number, check: string, cell: string, index: number): number {
  return hashSeed(`${seed}\u0000${check}\u0000${cell}\u0000${index}`);
}

/** The band and flag of a cell from its counts. */
export function judgeCell(
  check: Check,
  cell: Cell,
  counts: { reps: number; defined: number; hits: number },
  cpuSeconds: number,
): CellResult {
  const { reps, defined, hits } = counts;
  const rate = defined ? hits / defined : Number.NaN;
  const nominal = check.kind === 'power' ? cell.expected! : check.alpha;
  const se = Math.sqrt((nominal * (1 - nominal)) / Math.max(1, defined));
  const half = BAND_Z * se;
  const band: [number, number] =
    check.kind === 'power' ? [nominal - half, nominal + half] : [0, nominal + half];
  return {
    check: check.id,
    key: cell.key,
    kind: check.kind,
    n: cell.n,
    planted: cell.planted,
    reps,
    defined,
    hits,
    rate,
    se,
    expected: cell.expected,
    plan: cell.plan,
    band,
    inBand: defined > 0 && rate >= band[0] && rate <= band[1],
    flagged:
      defined === 0 ||
      (check.kind === 'power' ? Math.abs(rate - nominal) > POWER_TOLERANCE : rate > TYPE1_FLAG),
    cpuSeconds,
  };
}

/** Runs `reps` replicates of a cell, one study after another (each is already concurrent inside). */
export async function runCell(check: Check, cell: Cell, seed: number, reps: number): Promise<CellResult> {
  const before = process.cpuUsage();
  let defined = 0;
  let hits = 0;
  for (let i = 0; i < reps; i++) {
    const hit = await cell.replicate(replicateSeed(seed, check.id, cell.key, i), i);
    if (hit === null) continue;
    defined++;
    if (hit) hits++;
  }
  const used = process.cpuUsage(before);
  return judgeCell(check, cell, { reps, defined, hits }, (used.user + used.system) / 1e6);
}
