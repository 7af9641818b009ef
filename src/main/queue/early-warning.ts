// The early warning (RunOptions.earlyWarning): a watched group whose first answers are mostly
// unusable gets its lane paused, so a broken prompt costs a dozen calls, not thousands. Counts
// are kept across the runs of one engine (an experiment's rounds).
import { EARLY_WARNING } from './engine-types';
import type { Lane } from './lane';
import type { RunState, Unit } from './run-state';

type PauseLane = (lane: Lane<Unit>, kind: string, reason: string, label: string) => void;

export class EarlyWarning {
  /** Answers seen per watched group. */
  private readonly watched = new Map<string, { answers: number; unusable: number; over: boolean }>();
  /** The (group, request) answers counted already, so a stored answer counts once across rounds. */
  private readonly watchedIds = new Set<string>();

  constructor(private readonly pauseLane: PauseLane) {}

  /**
   * Counts an answer of a watched group; pauses the unit's lane when more than half of the
   * group's first answers were unusable. Re-asks count too: each is an answer paid for.
   */
  watch(r: RunState, u: Unit, usable: boolean): void {
    const ew = r.opts.earlyWarning;
    if (!ew || ew.answers <= 0) return;
    for (const group of u.groups) {
      const label = ew.label(group);
      if (label === null) continue;
      this.watchedIds.add(`${group}\u0000${u.id}`);
      const w = this.countAnswer(group, usable, ew.answers);
      if (!w || w.over || w.unusable * 2 <= ew.answers) continue;
      w.over = true;
      this.pauseLane(
        u.lane,
        EARLY_WARNING,
        `${label}: ${w.unusable} of its first ${w.answers} answers could not be used. Its calls are paused; the others go on. Look at the failed answers, fix the cause, then resume this judge.`,
        label,
      );
    }
  }

  /**
   * A judge's first answers are its first overall, not a retry's: answers stored before this
   * run (an earlier run, "Retry failed") count, once per request, before any new one.
   */
  watchStored(r: RunState, group: string, id: number, usable: boolean): void {
    const ew = r.opts.earlyWarning;
    if (!ew || ew.answers <= 0 || ew.label(group) === null) return;
    const key = `${group}\u0000${id}`;
    if (this.watchedIds.has(key)) return;
    this.watchedIds.add(key);
    this.countAnswer(group, usable, ew.answers);
  }

  /** The person chose to go on: the groups with this label are no longer watched. */
  stopWatching(r: RunState | null, label: string): void {
    for (const [group, w] of this.watched) if (r?.opts.earlyWarning?.label(group) === label) w.over = true;
  }

  /** Adds one answer to a watched group's count (none once it is over); returns the count. */
  private countAnswer(group: string, usable: boolean, first: number) {
    let w = this.watched.get(group);
    if (!w) this.watched.set(group, (w = { answers: 0, unusable: 0, over: false }));
    if (w.over) return null;
    w.answers++;
    if (!usable) w.unusable++;
    // Enough answers seen without a warning: the judge works.
    if (w.answers >= first && w.unusable * 2 <= first) w.over = true;
    return w;
  }
}
