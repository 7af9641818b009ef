// Preregistration (issue 24 part 2; docs/DESIGN.md "Paper kit"): the analysis plan locked before
// a run, what the experiment was when it was locked, and the deviations found since. Types that
// cross the doors; protocol-neutral (a confirmatory comparison is named by the power plan's id).
import type { PowerPlan } from './types';

/** Corrections a family of confirmatory tests may use. */
export const PREREG_CORRECTIONS = ['holm', 'bonferroni', 'none'] as const;
export type PreregCorrection = (typeof PREREG_CORRECTIONS)[number];

/** The plan a user locks: the config key `preregistration` (shared/DESIGN.md §2) or the lock form. */
export interface PreregistrationPlan {
  /** The confirmatory comparisons, by the power plan's comparison id (e.g. "accuracy_change:EN-ZH"). */
  confirmatory: string[];
  /** The primary one of them (default: the first). */
  primary?: string;
  /** The hypotheses in the researcher's words. */
  hypotheses?: string;
  alpha: number;
  /** The correction across the confirmatory family. */
  correction: PreregCorrection;
  /** The exclusion rule (e.g. "items the audit flags are left out"). */
  exclusions: string;
  /** The stopping rule (e.g. "all planned items; no interim look"). */
  stopping: string;
}

/** One confirmatory comparison as the power plan gave it at the lock. */
export interface PreregComparison {
  id: string;
  label: string;
  /** Units the test counts per judge, and the smallest detectable effect at 80% power and the plan's α. */
  n: number;
  unit: string;
  mde: number | null;
  mdeUndefined?: string;
}

/** What the experiment was when the plan was locked: what later deviations are measured against. */
export interface PreregSnapshot {
  protocol: string;
  /** The config as stored (variable names of keys only, never a key), without its name and its `preregistration`. */
  config: Record<string, unknown>;
  /** The items the experiment uses: how many, and SHA-256 of their source ids in order. */
  items: number;
  itemsSha256: string;
  /** Judges as "provider kind / model", sorted. */
  judges: string[];
  /** Answers already usable when the plan was locked (0: locked before any data). */
  answersAtLock: number;
  /**
   * Answers of the plan already stored when it was locked, usable or not (any stored answer is
   * data seen). Absent on locks made before it was recorded: `answersAtLock` stands in.
   */
  answersStored?: number;
  /** Texts a person had edited by hand when the plan was locked. */
  editedAtLock: number;
  /** The confirmatory comparisons with their power at the lock (empty when the protocol has no power model). */
  comparisons: PreregComparison[];
}

/** One lock, as stored: never edited; a later version supersedes it and says why. */
export interface PreregistrationLock {
  version: number;
  plan: PreregistrationPlan;
  snapshot: PreregSnapshot;
  /** Why this version supersedes the one before (null for version 1). */
  reason: string | null;
  lockedAt: string;
  /** SHA-256 of the canonical JSON of { experiment, version, plan, snapshot, reason, lockedAt }. */
  sha256: string;
  /** Set when the stored content no longer hashes to `sha256` (changed after locking). */
  tampered?: true;
}

/** Kinds of deviation from the locked plan, found from the stored experiment. */
export type PreregDeviationKind =
  | 'locked_after_data'
  | 'amended'
  | 'sample_size'
  | 'items_changed'
  | 'judges'
  | 'config'
  | 'comparison_missing'
  | 'texts_edited'
  | 'answers_missing';

export interface PreregDeviation {
  kind: PreregDeviationKind;
  /** In English; `params` fill the UI's words for it (`prereg.deviation.<kind>`). */
  text: string;
  params: Record<string, string | number>;
}

/** An experiment's preregistration: every lock (oldest first), the one in force, and the deviations. */
export interface PreregistrationView {
  experimentId: number;
  locks: PreregistrationLock[];
  /** The newest lock; null when none was locked (every analysis is exploratory). */
  active: PreregistrationLock | null;
  deviations: PreregDeviation[];
  /**
   * The first lock came after data: how many answers were stored when it was locked. Its
   * comparisons are then "registered after data collection", never plainly confirmatory. Null:
   * no lock, or locked before any answer.
   */
  afterData: { answers: number; lockedAt: string } | null;
  /**
   * Answers of the plan stored now: a lock made now would be registered after data collection
   * when this is above 0 (the lock form asks to confirm first).
   */
  answersStored: number;
  /**
   * The comparison ids a plan may name (the power plan's), for the lock form; `labelKey` and
   * `labelParams` name the label in the protocol's UI strings, as the power plan's do.
   */
  comparisons: { id: string; label: string; labelKey?: string; labelParams?: Record<string, string> }[];
}

/**
 * What the Methods files state beyond the results: the locked plans with their deviations, and the
 * power plan for the items used (src/main/paper/preregistration.ts `paperInputs` computes both).
 */
export interface PaperInputs {
  preregistration: PreregistrationView;
  power: PowerPlan | null;
}

/** Answers stored when a lock was made (data seen), as far as the lock recorded it. */
export function answersStoredAtLock(lock: Pick<PreregistrationLock, 'snapshot'>): number {
  return lock.snapshot.answersStored ?? lock.snapshot.answersAtLock;
}

/** When the first of these locks was made after data: its time and the answers stored by then. */
export function lockedAfterData(
  locks: readonly Pick<PreregistrationLock, 'snapshot' | 'lockedAt'>[],
): { answers: number; lockedAt: string } | null {
  const first = locks[0];
  if (!first) return null;
  const answers = answersStoredAtLock(first);
  return answers > 0 ? { answers, lockedAt: first.lockedAt } : null;
}

/**
 * The manifest's `preregistration` (shared/DESIGN.md §2: the lock's hash and time): the lock in
 * force, which comparisons are confirmatory (everything else exported is exploratory), the
 * versions it superseded and the deviations found.
 */
export function manifestPreregistration(view: PreregistrationView) {
  const a = view.active;
  if (!a) return null;
  return {
    version: a.version,
    sha256: a.sha256,
    locked_at: a.lockedAt,
    confirmatory: a.plan.confirmatory,
    primary: a.plan.primary ?? a.plan.confirmatory[0],
    alpha: a.plan.alpha,
    correction: a.plan.correction,
    superseded: view.locks
      .slice(0, -1)
      .map((l) => ({ version: l.version, sha256: l.sha256, locked_at: l.lockedAt })),
    reason: a.reason,
    // A plan locked once answers were stored is not a preregistration: said so beside the lock.
    registered_after_data_collection: view.afterData !== null,
    answers_stored_at_first_lock: view.afterData?.answers ?? 0,
    deviations: view.deviations.map((d) => ({ kind: d.kind, text: d.text })),
  };
}
