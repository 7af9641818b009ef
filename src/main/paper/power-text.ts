// The power plan in plain English, for `judge-lab estimate` / `run` and the Methods text's
// sample-size rationale. The glossary's "Power" entry names the same formulas.
import type { EffectSource, PowerComparison, PowerModel, PowerPlan } from '../../shared/paper/types';

/** Each model's test and formula, as the CLI, the glossary and the Methods name them. */
export const POWER_MODEL_NAMES: Record<PowerModel, string> = {
  'mcnemar-exact': 'exact McNemar test, unconditional power summed over the Bin(n, ψ) discordant pairs',
  'binomial-exact': 'exact binomial test against p0',
  'paired-t': 'paired t test (noncentral t)',
  'wilcoxon-are': 'Wilcoxon signed-rank test via its ARE 3/π against the paired t',
  'fisher-z': 'Fisher-z interval of Spearman ρ, SE 1/√(n − 3)',
};

const num = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(3));

/** Where a figure came from, as the line says it: "default", "pilot run "name"", "user-set". */
function sourceText(source: EffectSource, pilot: PowerPlan['pilot']): string {
  if (source === 'user') return 'user-set';
  if (source === 'pilot' && pilot) return `pilot run "${pilot.name}"`;
  return source;
}

/** "ψ = 0.200 (default)" / "ψ = 0.183 (pilot run "p")". */
function assumptions(c: PowerComparison, pilot: PowerPlan['pilot']): string {
  return c.assumptions.map((a) => `${a.name} = ${num(a.value)} (${sourceText(a.source, pilot)})`).join(', ');
}

export function comparisonLine(c: PowerComparison, pilot: PowerPlan['pilot'] = null): string {
  const mde = c.mde === null ? `undefined (${c.mdeUndefined})` : num(c.mde);
  const items = c.itemsNeeded === null ? `undefined (${c.itemsUndefined})` : `${c.itemsNeeded} items`;
  const given = assumptions(c, pilot);
  return (
    `  ${c.label} [${c.id}]\n` +
    `    ${POWER_MODEL_NAMES[c.model]}; ${c.n} ${c.unit}; ${c.effectScale}` +
    (given ? `; ${given}` : '') +
    '\n' +
    `    smallest detectable effect: ${mde}; for an effect of ${num(c.effect)}` +
    ` (${sourceText(c.effectSource, pilot)}): ${items}\n`
  );
}

export function powerText(plan: PowerPlan): string {
  const pilot = plan.pilot
    ? `rates from the pilot "${plan.pilot.name}" (experiment ${plan.pilot.experimentId}` +
      `${plan.pilot.simulated ? ', simulated' : ''})`
    : 'no earlier run of these judges: default rates';
  return (
    `Power (${Math.round(plan.power * 100)}% power, two-sided α = ${plan.alpha}; ${pilot}):\n` +
    plan.comparisons.map((c) => comparisonLine(c, plan.pilot)).join('') +
    '  Give an effect with --effect ID=VALUE for the items it needs.\n'
  );
}
