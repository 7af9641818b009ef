// Self-consistency's power model (issue 32 item 8): per judge and temperature condition, the
// two rates the metrics report as confirmatory claims a paper makes — the share of questions
// whose repeats disagree (1 − `unanimous_rate`), and with both orders asked the share of items
// whose majority of the first k repeats changes with the order (1 − `position_by_k`
// consistency, per odd k) — each by the exact binomial test against a reference rate p0. The
// metrics' intervals cluster by item (a pair's two orders move together); the binomial counts
// questions as independent, so with both orders the disagreement row is optimistic by at most
// the design effect of two questions per item, which the label says by naming its unit.
import { assumed, binomialRow, riseOverReference } from '../../../shared/paper/power-rows';
import type { PlanComparisons } from '../../../shared/paper/power-rows';
import type { RowSelector } from '../../../shared/paper/confirmatory';
import type { PowerComparison } from '../../../shared/paper/types';
import type { Item } from '../../../shared/domain';
import { ALL, type SelfConsistencyMetrics } from '../../../shared/protocols/self-consistency/types';
import { modeOf, scItem } from './item';

/** What the plan reads of the experiment (structural: this module stays off the seam's import ring). */
interface PlannedSc {
  items: readonly Item[];
  options: {
    repeats: number;
    conditions: readonly { id: string; temperature: number | null }[];
    orders: readonly string[];
  };
}

/** Without a pilot: the disagreement rate a judge is held to (the null of the test), … */
const DEFAULT_NULL_DISAGREE = 0.05;
/** … the position-inconsistency rate held to, … */
const DEFAULT_NULL_POSITION = 0.05;
/** … and the rise over either that the inverse plans for. */
const DEFAULT_RISE = 0.05;

/** Odd k = 1, 3, … ≤ K: the votes `position_by_k` reports. */
const oddKs = (K: number) => Array.from({ length: Math.ceil(K / 2) }, (_, i) => 2 * i + 1);

/** Count-weighted share over rows, null without any. */
function pooled<R>(rows: readonly R[], n: (r: R) => number, hits: (r: R) => number): number | null {
  const total = rows.reduce((s, r) => s + n(r), 0);
  return total ? rows.reduce((s, r) => s + hits(r), 0) / total : null;
}

export const disagreementId = (condition: string) => `disagreement:${condition}`;
export const positionId = (condition: string, k: number) => `position_inconsistency:${condition}:k=${k}`;

const planComparisons: PlanComparisons<PlannedSc, SelfConsistencyMetrics> = (exp, pilot, effects, at) => {
  const { repeats, conditions, orders } = exp.options;
  // Unanimity among K repeats depends on K: a pilot asked another number of times says nothing
  // about this plan's rate.
  const usable = pilot !== null && pilot.repeats === repeats ? pilot : null;
  // A single response has no order: one question per item.
  const pairwise = modeOf(exp.items.map(scItem)) === 'pairwise';
  const questionsPerItem = pairwise ? orders.length : 1;
  const out: PowerComparison[] = [];
  for (const c of conditions) {
    const stability = (usable?.stability ?? []).filter((r) => r.condition === c.id && r.category === ALL);
    const disagree = pooled(
      stability,
      (r) => r.questions,
      (r) => r.questions - r.unanimous,
    );
    const p0 = assumed('p0', 'reference disagreement rate p0', null, DEFAULT_NULL_DISAGREE);
    const id = disagreementId(c.id);
    out.push(
      binomialRow(
        {
          id,
          label: `Repeats disagree (1 − unanimous rate) vs p0, ${c.id} (per judge)`,
          labelKey: 'power.repeatDisagreement',
          labelParams: { condition: c.id },
          unit: 'questions',
          unitsPerItem: questionsPerItem,
          n: exp.items.length * questionsPerItem,
        },
        p0,
        riseOverReference(effects[id], disagree, p0, DEFAULT_RISE),
        at,
      ),
    );
    // Position by k: only pairs asked in both orders have an order to change.
    if (orders.length < 2 || !pairwise) continue;
    for (const k of oddKs(repeats)) {
      const rows = (usable?.position_by_k ?? []).filter((r) => r.condition === c.id && r.k === k);
      const inconsistent = pooled(
        rows,
        (r) => r.n,
        (r) => r.n - r.consistent,
      );
      const q0 = assumed('p0', 'reference position-inconsistency rate p0', null, DEFAULT_NULL_POSITION);
      const pid = positionId(c.id, k);
      out.push(
        binomialRow(
          {
            id: pid,
            label: `Majority of ${k} changes with the order vs p0, ${c.id} (per judge)`,
            labelKey: 'power.positionInconsistency',
            labelParams: { condition: c.id, k: String(k) },
            unit: 'items',
            unitsPerItem: 1,
            n: exp.items.length,
          },
          q0,
          riseOverReference(effects[pid], inconsistent, q0, DEFAULT_RISE),
          at,
        ),
      );
    }
  }
  return out;
};

/** The `power` capability of the self-consistency plug-in (protocols/plugin.ts `PowerHooks`). */
export const selfConsistencyPower = {
  comparisons: planComparisons,
  /**
   * The disagreement of a condition is its stability rows (every category: the rate per
   * category is the same claim's breakdown); position at k is its `position_by_k` row.
   */
  reads(comparison: string, metrics: SelfConsistencyMetrics): RowSelector[] {
    const [kind, conditionId, kPart] = comparison.split(':');
    const condition = metrics.conditions.find((c) => c.id === conditionId);
    if (!condition) return [];
    if (kind === 'disagreement') return [{ table: 'stability', where: { condition_id: condition.id } }];
    if (kind === 'position_inconsistency' && kPart?.startsWith('k='))
      return [{ table: 'position_by_k', where: { condition_id: condition.id, k: kPart.slice(2) } }];
    return [];
  },
};
