// The Monte Carlo runner of the validation (issue 33): replicates per cell, Monte Carlo standard
// errors, tolerance bands and the flags. The checks (checks.ts) say what to draw and
// what a replicate's outcome is; this file only counts.
import { cellRng, type Rng } from './rng';

/**
 * What one replicate gave. `hit`: the interval covered the truth (coverage), the test rejected
 * (type I error, power); null when the method reports no interval or test for this draw (it
 * says "undefined" and why), which is counted apart, not as a miss. `outOfRange`: an interval
 * reached outside its parameter's range. `value`: the estimate (bias checks).
 */
export interface Outcome {
  hit: boolean | null;
  outOfRange?: boolean;
  /** The interval is a single point: it claims certainty where the value should be undefined. */
  zeroWidth?: boolean;
  value?: number;
}

/**
 * coverage: share of 95% intervals holding the planted truth; type1: share of rejections at
 * α under a planted null (family-wise for Holm); power: share of rejections at a planted effect,
 * against the planner's predicted power; bias: mean estimate minus the planted value.
 */
export type Kind = 'coverage' | 'type1' | 'power' | 'bias';

export interface Cell {
  /** Unique within its check; also seeds the cell's stream. */
  key: string;
  n: number;
  /** Legend entry (one line per series in the figure). */
  series: string;
  /** The planted value (coverage, bias). */
  truth?: number;
  /** The planner's predicted power (power checks). */
  expected?: number;
  /** Inside the region where the method's caption claims it works: the CI subset asserts only there. */
  claimed?: boolean;
  /** Run by the CI subset (test/stats/validation-subset.test.ts). */
  ci?: boolean;
  /** Replicates at this cell when not the check's own (expensive cells). */
  reps?: number;
  draw: (rng: Rng) => Outcome;
}

export interface Check {
  id: string;
  title: string;
  /** The app functions exercised, as `name` (file). */
  functions: string;
  kind: Kind;
  /** 0.95 (coverage), α (type1), unused for power (each cell has its expected power). */
  nominal: number;
  reps: number;
  /** What is planted and how (one paragraph of VALIDATION.md). */
  design: string;
  /** Where the method is claimed to work (the CI subset asserts there). */
  claim: string;
  /** Bias checks: |bias| allowed at n ≥ 30 before a flag. */
  biasAllowance?: number;
  /** Cost of a replicate per unit of n against a plain rate's (the progress bar's weights): the bootstrap's 2000 resamples make it ~40. */
  costFactor?: number;
  /** Why cells with n ≥ 30 outside `claimed` are known to miss (the caption's "unreliable where"). */
  knownLimit?: string;
  cells: Cell[];
}

/** What a cell's replicates added up to; enough to judge the cell again (`--load`). */
export interface Counts {
  reps: number;
  defined: number;
  hits: number;
  outOfRange: number;
  zeroWidth: number;
  sum: number;
  sumSq: number;
}

export interface CellResult {
  check: string;
  counts: Counts;
  key: string;
  n: number;
  series: string;
  reps: number;
  /** Replicates with a defined outcome. */
  defined: number;
  /** Share of defined replicates that hit (coverage / rejection rate). */
  rate: number;
  /** Monte Carlo SE of rate: √(rate (1 − rate) / defined). */
  se: number;
  undefinedShare: number;
  outOfRangeShare: number;
  zeroWidthShare: number;
  /** Bias checks: mean estimate and its Monte Carlo SE. */
  mean?: number;
  meanSe?: number;
  truth?: number;
  expected?: number;
  claimed: boolean;
  /** The tolerance band of the statistic the cell is judged on (rate, or bias for bias checks). */
  band: [number, number];
  inBand: boolean;
  /** The flag: coverage < 93% at n ≥ 30, type I > 6.5%, bias beyond its allowance at n ≥ 30, power > 5 points short of the plan, or any interval outside its range. */
  flagged: boolean;
}

/** The run's seed when none is given (the CI subset's too): the number and the day it was first run. */
export const DEFAULT_SEED = 33_20261206;

/** Band half-width in Monte Carlo SEs: 4 SE one-sided is ~3e-5 per cell, so a seeded run with hundreds of cells is not flaky. */
export const BAND_Z = 4;
export const COVERAGE_FLAG = 0.93;
export const TYPE1_FLAG = 0.065;
export const POWER_SHORTFALL_FLAG = 0.05;
export const FLAG_MIN_N = 30;

/** The band and flag of a cell from its counts (pure, so the CI subset judges as the report does). */
export function judge(check: Check, cell: Cell, counts: Counts): CellResult {
  const { reps, defined, hits, outOfRange, zeroWidth, sum, sumSq } = counts;
  const rate = defined ? hits / defined : Number.NaN;
  const se = defined ? Math.sqrt((rate * (1 - rate)) / defined) : Number.NaN;
  const base = {
    check: check.id,
    counts,
    key: cell.key,
    n: cell.n,
    series: cell.series,
    reps,
    defined,
    rate,
    se,
    undefinedShare: (reps - defined) / reps,
    outOfRangeShare: outOfRange / reps,
    zeroWidthShare: zeroWidth / reps,
    truth: cell.truth,
    expected: cell.expected,
    claimed: cell.claimed ?? true,
  };
  // Both break a rule of the app's, wherever they happen: an interval stays inside its
  // parameter's range, and an undefined interval says so instead of shrinking to a point.
  const rangeFlag = outOfRange > 0 || zeroWidth > 0;
  // The band is set by the SE at the nominal value, not the estimate's own (which is 0 when
  // every replicate hit), so it is known before the run.
  const seAt = (p: number) => Math.sqrt((p * (1 - p)) / Math.max(1, defined));
  switch (check.kind) {
    case 'coverage': {
      const low = check.nominal - BAND_Z * seAt(check.nominal);
      return {
        ...base,
        band: [low, 1],
        inBand: defined === 0 || rate >= low,
        flagged: rangeFlag || (cell.n >= FLAG_MIN_N && rate < COVERAGE_FLAG),
      };
    }
    case 'type1': {
      const high = check.nominal + BAND_Z * seAt(check.nominal);
      return {
        ...base,
        band: [0, high],
        inBand: defined === 0 || rate <= high,
        flagged: rangeFlag || rate > TYPE1_FLAG,
      };
    }
    case 'power': {
      const e = cell.expected!;
      const half = BAND_Z * seAt(e);
      return {
        ...base,
        band: [e - half, e + half],
        inBand: Math.abs(rate - e) <= half,
        flagged: rangeFlag || rate < e - POWER_SHORTFALL_FLAG,
      };
    }
    case 'bias': {
      const mean = defined ? sum / defined : Number.NaN;
      const variance = defined > 1 ? (sumSq - defined * mean * mean) / (defined - 1) : 0;
      const meanSe = Math.sqrt(Math.max(0, variance) / Math.max(1, defined));
      const bias = mean - cell.truth!;
      const allowance = check.biasAllowance ?? 0.02;
      const half = allowance + BAND_Z * meanSe;
      return {
        ...base,
        mean,
        meanSe,
        band: [-half, half],
        inBand: defined === 0 || Math.abs(bias) <= half,
        flagged: rangeFlag || (cell.n >= FLAG_MIN_N && Math.abs(bias) > allowance),
      };
    }
  }
}

/** Runs `reps` replicates of one cell from its own stream. */
export function runCell(check: Check, cell: Cell, seed: number, reps: number): CellResult {
  const rng = cellRng(seed, check.id, cell.key);
  let defined = 0;
  let hits = 0;
  let outOfRange = 0;
  let zeroWidth = 0;
  let sum = 0;
  let sumSq = 0;
  for (let r = 0; r < reps; r++) {
    const o = cell.draw(rng);
    if (o.outOfRange) outOfRange++;
    if (o.zeroWidth) zeroWidth++;
    if (check.kind === 'bias') {
      if (o.value === undefined || !Number.isFinite(o.value)) continue;
      defined++;
      sum += o.value;
      sumSq += o.value * o.value;
      continue;
    }
    if (o.hit === null) continue;
    defined++;
    if (o.hit) hits++;
  }
  return judge(check, cell, { reps, defined, hits, outOfRange, zeroWidth, sum, sumSq });
}

/** Replicates of a cell in a run scaled by `scale` (`--reps` / the check's default), at least 50. */
export function repsFor(check: Check, cell: Cell, scale: number): number {
  return Math.max(50, Math.round((cell.reps ?? check.reps) * scale));
}

export interface ProgressSink {
  start(total: number): void;
  tick(units: number, label: string): void;
  done(): void;
}

/**
 * A progress bar on stderr weighted by replicates × n (a cell's cost is about proportional to
 * both); redrawn in place on a terminal, a line per check otherwise (CI logs).
 */
export function stderrProgress(): ProgressSink {
  const tty = process.stderr.isTTY === true;
  let total = 1;
  let doneUnits = 0;
  let started = 0;
  let lastLabel = '';
  return {
    start(t) {
      total = Math.max(1, t);
      started = Date.now();
    },
    tick(units, label) {
      doneUnits += units;
      const share = Math.min(1, doneUnits / total);
      const elapsed = (Date.now() - started) / 1000;
      const eta = share > 0 ? (elapsed / share) * (1 - share) : 0;
      const width = 30;
      const filled = Math.round(share * width);
      const bar = `[${'='.repeat(filled)}${' '.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%`;
      const line = `${bar} ${elapsed.toFixed(0)}s elapsed, ~${eta.toFixed(0)}s left  ${label}`;
      if (tty)
        process.stderr.write(
          `\r${line.slice(0, (process.stderr.columns ?? 100) - 1).padEnd(Math.min(99, (process.stderr.columns ?? 100) - 1))}`,
        );
      else if (label.split(' ')[0] !== lastLabel) process.stderr.write(`${line}\n`);
      lastLabel = label.split(' ')[0];
    },
    done() {
      if (tty) process.stderr.write('\n');
    },
  };
}

/** Runs the checks (every cell, or only the CI subset's), reporting progress. */
export function runChecks(
  checks: readonly Check[],
  opts: {
    seed: number;
    scale: number;
    only?: (check: Check, cell: Cell) => boolean;
    progress?: ProgressSink;
    /** Filled with each check's CPU seconds (what to trim when the run is too long). */
    cpuSeconds?: Map<string, number>;
  },
): CellResult[] {
  const work = checks.flatMap((check) =>
    check.cells.filter((cell) => !opts.only || opts.only(check, cell)).map((cell) => ({ check, cell })),
  );
  const cost = (w: { check: Check; cell: Cell }) =>
    repsFor(w.check, w.cell, opts.scale) * (w.cell.n + 20) * (w.check.costFactor ?? 1);
  opts.progress?.start(work.reduce((s, w) => s + cost(w), 0));
  const results: CellResult[] = [];
  for (const w of work) {
    const before = process.cpuUsage();
    results.push(runCell(w.check, w.cell, opts.seed, repsFor(w.check, w.cell, opts.scale)));
    const used = process.cpuUsage(before);
    opts.cpuSeconds?.set(
      w.check.id,
      (opts.cpuSeconds.get(w.check.id) ?? 0) + (used.user + used.system) / 1e6,
    );
    opts.progress?.tick(cost(w), `${w.check.id} ${w.cell.key}`);
  }
  opts.progress?.done();
  return results;
}
