// The power plan in plain English, for `judge-lab estimate` / `run` and the Methods text's
// sample-size rationale. The glossary's "Power" entry names the same formulas.
import type { PowerComparison, PowerModel, PowerPlan } from '../../shared/paper/types';

/** Each model's test and formula, as the CLI, the glossary and the Methods name them. */
export const POWER_MODEL_NAMES: Record<PowerModel, string> = {
  'mcnemar-exact': 'exact McNemar test, unconditional power summed over the Bin(n, ψ) discordant pairs',
  'binomial-exact': 'exact binomial test against p0',
  'paired-t': 'paired t test (noncentral t)',
  'wilcoxon-are': 'Wilcoxon signed-rank test via its ARE 3/π against the paired t',
  'fisher-z': 'Fisher-z interval of Spearman ρ, SE 1/√(n − 3)',
};

const num = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(3));

/** "ψ = 0.200 (default)" / "ψ = 0.183 (pilot)". */
function assumptions(c: PowerComparison): string {
  return c.assumptions.map((a) => `${a.name} = ${num(a.value)} (${a.source})`).join(', ');
}

export function comparisonLine(c: PowerComparison): string {
  const mde = c.mde === null ? `undefined (${c.mdeUndefined})` : num(c.mde);
  const items = c.itemsNeeded === null ? `undefined (${c.itemsUndefined})` : `${c.itemsNeeded} items`;
  const given = assumptions(c);
  return (
    `  ${c.label} [${c.id}]\n` +
    `    ${POWER_MODEL_NAMES[c.model]}; ${c.n} ${c.unit}; ${c.effectScale}` +
    (given ? `; ${given}` : '') +
    '\n' +
    `    smallest detectable effect: ${mde}; for an effect of ${num(c.effect)}` +
    `${c.effectTyped ? '' : ' (default)'}: ${items}\n`
  );
}

export function powerText(plan: PowerPlan): string {
  const pilot = plan.pilot
    ? `rates from the pilot "${plan.pilot.name}" (experiment ${plan.pilot.experimentId}` +
      `${plan.pilot.simulated ? ', simulated' : ''})`
    : 'no earlier run of these judges: default rates';
  return (
    `Power (${Math.round(plan.power * 100)}% power, two-sided α = ${plan.alpha}; ${pilot}):\n` +
    plan.comparisons.map(comparisonLine).join('') +
    '  Give an effect with --effect ID=VALUE for the items it needs.\n'
  );
}
