// Judge-LS's power model (issue 24): per target language, the EN→target accuracy change
// (exact McNemar, the metrics' test) and the flip rate (exact binomial test of the rate against a
// reference rate p0), one unit per item (its two orders counted as one: see UNITS_PER_ITEM).
// Rates from a pilot's language invariance table, pooled over its judges, when one exists.
import {
  assumed,
  binomialRow,
  fallbackEffect,
  mcnemarRow,
  riseOverReference,
} from '../../../shared/paper/power-rows';
import type { PlanComparisons } from '../../../shared/paper/power-rows';
import type { RowSelector } from '../../../shared/paper/confirmatory';
import type { InvarianceRow, JudgeLsMetrics } from '../../../shared/protocols/judge-ls/types';

/**
 * Both answer orders of an item are judged, two (item, order) pairs per item and language, but
 * they share the item: a judge that misreads a translation misreads it in both orders. Counted
 * as independent pairs they would promise an effect √2 smaller than correlated orders can show
 * (issue 32 item 1: 0.044 on LLMBar's 419 items where fully correlated orders give 0.063), so the
 * plan counts one unit per item, which holds whatever the orders' correlation.
 */
const UNITS_PER_ITEM = 1;
/** Without a pilot: a share of pairs whose correctness differs between EN and the target, … */
const DEFAULT_DISCORDANT = 0.2;
/** … the flip rate a judge shows with nothing changed (the null of the flip-rate test), … */
const DEFAULT_NULL_FLIP = 0.05;
/** … and the effects the inverse plans for. */
const DEFAULT_CHANGE = 0.05;
const DEFAULT_FLIP_RISE = 0.05;

function pooled(rows: InvarianceRow[], of: (r: InvarianceRow) => number): number | null {
  const n = rows.reduce((s, r) => s + r.n, 0);
  return n ? rows.reduce((s, r) => s + of(r), 0) / n : null;
}

/** What the plan reads of the experiment (structural: this module stays off the seam's import ring). */
interface PlannedJudgeLs {
  items: readonly unknown[];
  options: { languages: readonly string[] };
}

const planComparisons: PlanComparisons<PlannedJudgeLs, JudgeLsMetrics> = (exp, pilot, effects, at) => {
  const n = exp.items.length * UNITS_PER_ITEM;
  return exp.options.languages.flatMap((lang) => {
    const comparison = `EN-${lang}`;
    const rows = pilot?.language_invariance.filter((r) => r.comparison === comparison) ?? [];
    const psi = pooled(rows, (r) => r.en_only_correct + r.target_only_correct);
    const flip = pooled(rows, (r) => r.flip_rate * r.n);
    const base = { unit: 'items', unitsPerItem: UNITS_PER_ITEM, n, labelParams: { comparison } };
    const change = `accuracy_change:${comparison}`;
    const flips = `flip_rate:${comparison}`;
    const p0 = assumed('p0', 'reference flip rate p0', null, DEFAULT_NULL_FLIP);
    return [
      mcnemarRow(
        {
          ...base,
          id: change,
          label: `Accuracy change ${comparison} (per judge)`,
          labelKey: 'power.accuracyChange',
        },
        assumed('psi', 'discordant share ψ', psi, DEFAULT_DISCORDANT),
        { typed: effects[change], fallback: fallbackEffect(null, DEFAULT_CHANGE) },
        at,
      ),
      binomialRow(
        { ...base, id: flips, label: `Flip rate ${comparison} (per judge)`, labelKey: 'power.flipRate' },
        p0,
        riseOverReference(effects[flips], flip, p0, DEFAULT_FLIP_RISE),
        at,
      ),
    ];
  });
};

/** The `power` capability of the Judge-LS plug-in (protocols/plugin.ts `PowerHooks`). */
export const judgeLsPower = {
  comparisons: planComparisons,
  /**
   * Both tests read the language-invariance row of their comparison (its flips, its correctness
   * counts and McNemar p); the accuracy change is also the McNemar row of the significance table.
   */
  reads(comparison: string): RowSelector[] {
    const [kind, pair] = comparison.split(':');
    if (!pair) return [];
    const invariance = { table: 'invariance', where: { comparison: pair } };
    if (kind === 'flip_rate') return [invariance];
    if (kind === 'accuracy_change')
      return [invariance, { table: 'significance', where: { test: 'McNemar (exact)', comparison: pair } }];
    return [];
  },
};
