// The early warning (RunOptions.earlyWarning): a watched group whose first questions mostly got
// unusable answers gets its lane paused, so a broken prompt costs a dozen calls, not thousands.
// Counts are of distinct questions (a repeat of the same prompt, at any temperature, and a
// re-ask are the same question), and are kept across the runs of one engine (an experiment's
// rounds).
import { createHash } from 'node:crypto';
import type { Database } from '../store/db';
import { getRequestJson } from '../store/ledger';
import { EARLY_WARNING } from './engine-types';
import type { Lane } from './lane';
import type { RunState, Unit } from './run-state';

type PauseLane = (lane: Lane<Unit>, kind: string, reason: string, label: string) => void;

interface Watched {
  /** Per question seen: whether any of its answers was usable. */
  questions: Map<string, boolean>;
  unusable: number;
  over: boolean;
}

/**
 * What a request asks, without what only repeats it: its sample index and temperature. K asks
 * of one question the judge cannot answer are one unusable question, not K.
 */
export function questionOf(requestJson: string | undefined, id: number): string {
  if (requestJson === undefined) return `#${id}`;
  const c = JSON.parse(requestJson) as Record<string, unknown>;
  const { sample: _sample, temperature: _temperature, ...question } = c;
  return createHash('sha256').update(JSON.stringify(question)).digest('base64');
}

export class EarlyWarning {
  private readonly watched = new Map<string, Watched>();
  /** The question of each request seen (read from the ledger while its group is watched). */
  private readonly questionOfId = new Map<number, string>();

  constructor(
    private readonly db: Database,
    private readonly pauseLane: PauseLane,
  ) {}

  /**
   * Counts an answer of a watched group; pauses the unit's lane when more than half of the
   * group's first questions got an unusable answer.
   */
  watch(r: RunState, u: Unit, usable: boolean): void {
    const ew = r.opts.earlyWarning;
    if (!ew || ew.answers <= 0) return;
    for (const group of u.groups) {
      const label = ew.label(group);
      if (label === null) continue;
      const w = this.countAnswer(group, u.id, usable, ew.answers);
      if (!w || w.over || w.unusable * 2 <= ew.answers) continue;
      w.over = true;
      this.pauseLane(
        u.lane,
        EARLY_WARNING,
        `${label}: ${w.unusable} of its first ${w.questions.size} answers could not be used (distinct questions; repeats of one question count once). Its calls are paused; the others go on. Look at the failed answers, fix the cause, then resume this judge.`,
        label,
      );
    }
  }

  /**
   * A judge's first answers are its first overall, not a retry's: answers stored before this
   * run (an earlier run, "Retry failed") count, once per question, before any new one.
   */
  watchStored(r: RunState, group: string, id: number, usable: boolean): void {
    const ew = r.opts.earlyWarning;
    if (!ew || ew.answers <= 0 || ew.label(group) === null) return;
    this.countAnswer(group, id, usable, ew.answers);
  }

  /** The person chose to go on: the groups with this label are no longer watched. */
  stopWatching(r: RunState | null, label: string): void {
    for (const [group, w] of this.watched) if (r?.opts.earlyWarning?.label(group) === label) w.over = true;
  }

  /**
   * Adds an answer to its question in a watched group (none once it is over). A question is
   * unusable while none of its answers was usable: a re-ask or a repeat that worked makes it
   * usable again. Returns the count.
   */
  private countAnswer(group: string, id: number, usable: boolean, first: number): Watched | null {
    let w = this.watched.get(group);
    if (!w) this.watched.set(group, (w = { questions: new Map(), unusable: 0, over: false }));
    if (w.over) return null;
    let q = this.questionOfId.get(id);
    if (q === undefined) {
      q = questionOf(getRequestJson(this.db, id), id);
      this.questionOfId.set(id, q);
    }
    const answered = w.questions.get(q);
    if (answered === undefined) {
      w.questions.set(q, usable);
      if (!usable) w.unusable++;
    } else if (!answered && usable) {
      w.questions.set(q, true);
      w.unusable--;
    }
    // Enough questions seen without a warning: the judge works.
    if (w.questions.size >= first && w.unusable * 2 <= first) w.over = true;
    return w;
  }
}
