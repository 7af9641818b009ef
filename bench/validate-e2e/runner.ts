// The Monte Carlo runner of the end-to-end validation (issue 33): as bench/validate's, but a
// replicate is a whole study run through the app (asynchronous), so it counts detections of
// studies, not of statistics functions. Each replicate gets its own seed from (run seed, check,
// cell, replicate index): the CI subset's R replicates are the first R of the full run's.
import { hashSeed } from '../../src/shared/annotation/random';

/**
 * power: share of runs that flag a planted effect, against the planner's prediction; type1: share
 * of runs that flag an absent one; coverage: share of runs whose 95 % interval holds the planted
 * value (a replicate's `true` is "covered").
 */
export type Kind = 'power' | 'type1' | 'coverage';

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
  /** Replicates in the CI subset when not its default (a costly study runs fewer: a coarse guard). */
  ciReps?: number;
  /**
   * false: the interval is shown to explain another and makes no claim here (e.g. Wilson on an
   * item's two clustered orders, bench/validate's wilson-clustered): reported, never flagged.
   */
  claimed?: boolean;
  /**
   * Cells with the same runKey read the same study runs (one study, several statistics: the
   * replicate's seed comes from the runKey, not the cell), so they cost one run between them; the
   * first cell to ask pays its CPU.
   */
  runKey?: string;
  /** Replicates of the full run. */
  reps: number;
  /** One study run with this replicate's seed: did it flag the effect (null: the study reported no test, counted apart)? */
  replicate: (seed: number, index: number) => Promise<boolean | null>;
}

export interface Check {
  id: string;
  title: string;
  kind: Kind;
  /** α of the flag (type1's nominal rate); coverage checks: 1 − the interval's level. */
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
  claimed: boolean;
  band: [number, number];
  inBand: boolean;
  /**
   * The flag: power more than 5 points off the prediction, a false-positive rate above
   * 6.5 %, coverage below 93 % (claimed cells only).
   */
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
export const COVERAGE_FLAG = 0.93;

/** The seed of one replicate: a 32-bit number from its place in the run. */
export function replicateSeed(seed: number, check: string, cell: string, index: number): number {
  return hashSeed(`${seed}\u0000${check}\u0000${cell}\u0000${index}`);
}

/** The seed of a cell's replicate: shared by the cells of one runKey (whatever their check). */
export function cellSeed(seed: number, check: Check, cell: Cell, index: number): number {
  return cell.runKey === undefined
    ? replicateSeed(seed, check.id, cell.key, index)
    : replicateSeed(seed, '\u0000shared', cell.runKey, index);
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
  const nominal =
    check.kind === 'power' ? cell.expected! : check.kind === 'coverage' ? 1 - check.alpha : check.alpha;
  const se = Math.sqrt((nominal * (1 - nominal)) / Math.max(1, defined));
  const half = BAND_Z * se;
  // One-sided for error and coverage: a conservative test or a wide interval is not a failure.
  const band: [number, number] =
    check.kind === 'power'
      ? [nominal - half, nominal + half]
      : check.kind === 'coverage'
        ? [nominal - half, 1]
        : [0, nominal + half];
  const claimed = cell.claimed !== false;
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
    claimed,
    band,
    inBand: defined > 0 && rate >= band[0] && rate <= band[1],
    flagged:
      claimed &&
      (defined === 0 ||
        (check.kind === 'power'
          ? Math.abs(rate - nominal) > POWER_TOLERANCE
          : check.kind === 'coverage'
            ? rate < COVERAGE_FLAG
            : rate > TYPE1_FLAG)),
    cpuSeconds,
  };
}

/**
 * Runs `reps` replicates of a cell, one study after another (each is already concurrent inside);
 * `part` runs only the replicates whose index is i mod k (one process per core; --load adds the
 * parts' counts up, which are then the whole run's).
 */
export async function runCell(
  check: Check,
  cell: Cell,
  seed: number,
  reps: number,
  part: { i: number; k: number } = { i: 0, k: 1 },
  /** After each replicate: the counts so far (a run stopped early keeps them, a prefix of its replicates). */
  progress?: (sofar: CellResult) => void,
): Promise<CellResult> {
  const before = process.cpuUsage();
  let ran = 0;
  let defined = 0;
  let hits = 0;
  const result = () => {
    const used = process.cpuUsage(before);
    return judgeCell(check, cell, { reps: ran, defined, hits }, (used.user + used.system) / 1e6);
  };
  for (let i = part.i; i < reps; i += part.k) {
    const hit = await cell.replicate(cellSeed(seed, check, cell, i), i);
    ran++;
    if (hit !== null) {
      defined++;
      if (hit) hits++;
    }
    progress?.(result());
  }
  return result();
}
