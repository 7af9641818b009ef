// The power plan beside the cost (issue 24): the protocol's comparisons through its power model,
// with the rates of a pilot — the newest earlier run of the same judges that has answers (a
// simulated run counts, and is said to be one) — and, for a protocol people rate, the items the
// human-agreement interval needs. Protocol-neutral: the protocol's `power` capability names the
// comparisons; the models are src/shared/stats/power.ts's.
import { assumed, fisherZRow, type PlanAt } from '../../shared/paper/power-rows';
import type { PowerComparison, PowerPlan } from '../../shared/paper/types';
import { DEFAULT_ALPHA, DEFAULT_POWER } from '../../shared/stats/power';
import { anySimulated } from '../providers/config';
import type { Database } from '../store/db';
import { listExperiments } from '../store/experiments';
import { loadExperiment, modelsOf, type LoadedExperiment } from '../experiments/load';
import { metricsContext, resultCounts } from '../experiments/results';

/** The threshold a human-agreement ρ is read against (DESIGN.md section 5d). */
export const AGREEMENT_THRESHOLD = 0.8;
/** The agreement the inverse plans for when none is typed. */
const DEFAULT_AGREEMENT_RHO = 0.9;

/** Who judges, as a set: provider kind and model of every judge (labels may differ between runs). */
function judgeSet(exp: LoadedExperiment): string {
  return modelsOf(exp)
    .filter((m) => m.role === 'judge')
    .map((m) => `${exp.providers[m.provider]?.kind ?? m.provider}\u0000${m.model}`)
    .sort()
    .join('\u0001');
}

/** The newest other experiment of the same protocol and judges with answers, and its metrics. */
export function findPilot(
  db: Database,
  exp: LoadedExperiment,
): { exp: LoadedExperiment; metrics: unknown } | null {
  const judges = judgeSet(exp);
  const candidates = listExperiments(db)
    .filter((r) => r.protocol === exp.config.protocol && r.id !== exp.row.id && r.name !== exp.row.name)
    .sort((a, b) => b.id - a.id);
  for (const row of candidates) {
    let other: LoadedExperiment;
    try {
      other = loadExperiment(db, row.id);
    } catch {
      continue; // A stored config today's rules cannot read is no pilot.
    }
    if (judgeSet(other) !== judges || resultCounts(db, row.id).ok === 0) continue;
    const metrics = other.protocol.computeMetrics(metricsContext(db, other, false));
    return { exp: other, metrics };
  }
  return null;
}

/** The plan for an experiment (stored or a draft); null when its protocol has no power model. */
export function powerPlan(
  db: Database,
  exp: LoadedExperiment,
  effects: Readonly<Record<string, number>> = {},
  at: PlanAt = { alpha: DEFAULT_ALPHA, power: DEFAULT_POWER },
): PowerPlan | null {
  const hooks = exp.protocol.power;
  if (!hooks && !exp.protocol.annotation) return null;
  const pilot = hooks ? findPilot(db, exp) : null;
  const comparisons: PowerComparison[] = hooks
    ? hooks.comparisons(exp.view, pilot?.metrics ?? null, effects, at)
    : [];
  if (exp.protocol.annotation) comparisons.push(agreementRow(exp, effects, at));
  return {
    alpha: at.alpha,
    power: at.power,
    pilot: pilot
      ? {
          experimentId: pilot.exp.row.id,
          name: pilot.exp.row.name,
          simulated: anySimulated(pilot.exp.providers),
        }
      : null,
    comparisons,
  };
}

/** Human agreement: the items people rate for the Spearman ρ interval to exclude 0.8. */
function agreementRow(exp: LoadedExperiment, effects: Readonly<Record<string, number>>, at: PlanAt) {
  const id = 'human_agreement';
  return fisherZRow(
    {
      id,
      label: `Human agreement: Spearman ρ interval excludes ${AGREEMENT_THRESHOLD}`,
      labelKey: 'wizard.power.humanAgreement',
      unit: 'items',
      unitsPerItem: 1,
      n: exp.items.length,
    },
    AGREEMENT_THRESHOLD,
    assumed('rho1', 'expected ρ', null, DEFAULT_AGREEMENT_RHO),
    { typed: effects[id] },
    at,
  );
}
