// Gates: thresholds a judge must meet, with defaults from the literature (each says where it
// comes from), the researcher's changes merged in, and the verdict over every measurement.
import { z } from 'zod';
import {
  type GateCheck,
  type GateDeclaration,
  type GateDefinition,
  type GateMeasurement,
  type GateResult,
  type GateSettings,
} from './types';

/**
 * The card's own gates: the position gate, which several studies measure (each with its paired
 * lean test), and agreement with people, which the card measures itself from annotation sets.
 * A study's own gates are declared in its folder (its plug-in's `reportCard.gates`).
 */
export const POSITION_GATE: GateDeclaration = {
  id: 'position_consistency',
  comparator: 'at_least',
  threshold: 0.9,
  ciMustClear: false,
  unit: 'pct',
  source: 'Zheng et al. (2023), MT-Bench: the same verdict in both orders; threshold 0.9: Judge Lab default',
  text: {
    en: { name: 'Position consistency' },
    zh: {
      name: '位置一致性',
      source: 'Zheng et al. (2023), MT-Bench：两种顺序给出相同判决；阈值 0.9：Judge Lab 默认值',
    },
  },
};

export const HUMAN_RHO_GATE: GateDeclaration = {
  id: 'human_rho',
  comparator: 'at_least',
  threshold: 0.8,
  ciMustClear: true,
  unit: 'num',
  thresholdRange: [-1, 1],
  source:
    'Bavaresco et al. (2024), LLMs instead of human judges? (ρ with people); 0.8 with the interval above it: Judge Lab default',
  text: {
    en: { name: 'ρ with people' },
    zh: {
      name: '与人工评分的 ρ',
      source:
        'Bavaresco et al. (2024)，LLMs instead of human judges?（与人工评分的 ρ）；0.8 且区间整体高于它：Judge Lab 默认值',
    },
  },
};

/** The gates in the order the card lists them: the card's position gate, the studies', people. */
export function gateDeclarations(studies: readonly GateDeclaration[]): GateDeclaration[] {
  const all = [POSITION_GATE, ...studies, HUMAN_RHO_GATE];
  // Two studies may declare one gate (the same property measured two ways): the first wins.
  return all.filter((g, i) => all.findIndex((x) => x.id === g.id) === i);
}

const settingSchema = z
  .object({
    threshold: z.number().finite().optional(),
    ciMustClear: z.boolean().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

/**
 * The shape of gate settings; which gate ids exist is known only from the declarations, so
 * `gateSettingIssues` refuses an id no study declares.
 */
export const gateSettingsSchema = z.record(z.string(), settingSchema);

/**
 * Checks a schema cannot say: a gate no declaration names, shares within [0, 1], an absolute bound
 * above 0, a threshold outside the gate's own range (a correlation's [-1, 1]).
 */
export function gateSettingIssues(
  settings: GateSettings,
  declared: readonly Pick<GateDeclaration, 'id' | 'unit' | 'comparator' | 'thresholdRange'>[],
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const ids = declared.map((d) => d.id);
  for (const id of Object.keys(settings))
    if (!ids.includes(id))
      issues.push({
        path: id,
        message: `unknown key; gates are ${ids.join(', ')} with threshold, ciMustClear, enabled`,
      });
  for (const d of declared) {
    const t = settings[d.id]?.threshold;
    if (t === undefined) continue;
    if (d.unit === 'pct' && (t < 0 || t > 1))
      issues.push({ path: `${d.id}.threshold`, message: 'a share between 0 and 1 (0.9 = 90%)' });
    if (d.comparator === 'abs_below' && t <= 0)
      issues.push({ path: `${d.id}.threshold`, message: 'an absolute bound above 0' });
    const r = d.thresholdRange;
    if (r && (t < r[0] || t > r[1]))
      issues.push({
        path: `${d.id}.threshold`,
        message:
          r[0] === -1 && r[1] === 1 ? 'a correlation between -1 and 1' : `a value from ${r[0]} to ${r[1]}`,
      });
  }
  return issues;
}

/** The declared gates with the researcher's settings; a changed threshold loses the literature source. */
export function resolveGates(settings: GateSettings, declared: readonly GateDeclaration[]): GateDefinition[] {
  return declared.map((d) => {
    const s = settings[d.id] ?? {};
    const threshold = s.threshold ?? d.threshold;
    return {
      ...d,
      threshold,
      ciMustClear: s.ciMustClear ?? d.ciMustClear,
      enabled: s.enabled ?? d.enabled ?? true,
      source: threshold === d.threshold ? d.source : null,
    };
  });
}

/** A gate's name in `lang` (its declaration's words). */
export function gateName(d: Pick<GateDefinition, 'id' | 'text'>, lang: 'en' | 'zh'): string {
  return d.text?.[lang]?.name ?? d.text?.en?.name ?? d.id;
}

/** Whether a value is on the passing side of the gate's threshold. */
export function passes(d: Pick<GateDefinition, 'comparator' | 'threshold'>, v: number): boolean {
  if (d.comparator === 'at_least') return v >= d.threshold;
  if (d.comparator === 'at_most') return v <= d.threshold;
  return Math.abs(v) < d.threshold;
}

const show = (d: GateDefinition, v: number) => (d.unit === 'pct' ? `${(v * 100).toFixed(1)}%` : v.toFixed(2));

/**
 * The level at which the position gate's paired lean test fails a judge. A consistency share
 * cannot see a lean on a few items among many consistent ones (93.6% consistent with 15 items
 * first in both orders and none second passes 90%), so the gate reads the test too.
 */
export const POSITION_LEAN_ALPHA = 0.05;

/** The p-value as the gate's reason shows it. */
const showP = (p: number) => (p < 0.001 ? p.toExponential(1) : p.toFixed(3));

/** One measurement against its gate. */
export function checkMeasurement(
  d: GateDefinition,
  m: GateMeasurement,
): Pick<GateCheck, 'status' | 'reason'> {
  if (m.incomplete)
    return {
      status: 'incomplete',
      reason: {
        key: 'run_incomplete',
        params: {
          answered: String(m.incomplete.answered),
          planned: String(m.incomplete.planned),
        },
      },
    };
  if (m.value === null) return { status: 'undefined', reason: m.note ?? { key: 'no_value' } };
  if (!passes(d, m.value))
    return {
      status: 'fail',
      reason: { key: 'value_misses', params: { value: show(d, m.value), threshold: show(d, d.threshold) } },
    };
  if (m.lean && m.lean.lean !== 'none' && m.lean.p < POSITION_LEAN_ALPHA)
    return {
      status: 'fail',
      reason: {
        key: 'position_lean',
        params: {
          position: m.lean.lean,
          first: m.lean.both_first,
          second: m.lean.both_second,
          p: showP(m.lean.p),
          alpha: POSITION_LEAN_ALPHA,
        },
      },
    };
  if (!m.ci) {
    if (!d.ciMustClear) return { status: 'pass' };
    return { status: 'undefined', reason: m.note ?? { key: 'interval_undefined' } };
  }
  if (passes(d, m.ci[0]) && passes(d, m.ci[1])) return { status: 'pass' };
  const reason = {
    key: 'interval_not_clear',
    params: { low: show(d, m.ci[0]), high: show(d, m.ci[1]), threshold: show(d, d.threshold) },
  };
  // Asked for the whole interval, a reach past the threshold fails; otherwise it warns.
  return { status: d.ciMustClear ? 'fail' : 'warn', reason };
}

/** How far a measurement is on the failing side (larger is worse), for picking the decisive one. */
function badness(d: GateDefinition, v: number): number {
  if (d.comparator === 'at_least') return d.threshold - v;
  if (d.comparator === 'at_most') return v - d.threshold;
  return Math.abs(v) - d.threshold;
}

/**
 * Every gate over every measurement. A gate fails when any measurement fails (a judge that flips
 * on one dataset is not cleared by another); it warns when none fails but some interval reaches
 * past the threshold; it passes when at least one measurement exists and all defined ones pass;
 * a measurement of a run that has not finished counts for none of these: a gate measured only so
 * is incomplete; otherwise it was not measured.
 */
export function evaluateGates(
  definitions: readonly GateDefinition[],
  measured: readonly Omit<GateCheck, 'status' | 'reason'>[],
): GateResult[] {
  // A gate turned off stays listed as "off" (issue 38 item 10: it vanished from the card's
  // exports, so a reader could not tell it was skipped rather than never defined).
  return definitions.map((d): GateResult => {
    if (!d.enabled) return { definition: d, status: 'off', decisive: null, checks: [] };
    const checks: GateCheck[] = measured
      .filter((m) => m.gate === d.id)
      .map((m) => ({ ...m, ...checkMeasurement(d, m) }));
    const defined = checks.filter((c) => c.status !== 'undefined' && c.status !== 'incomplete');
    const failed = defined.filter((c) => c.status === 'fail');
    const warned = defined.filter((c) => c.status === 'warn');
    const worst = [...(failed.length ? failed : warned.length ? warned : defined)].sort(
      (a, b) => badness(d, b.value!) - badness(d, a.value!),
    )[0];
    return {
      definition: d,
      status: failed.length
        ? 'fail'
        : warned.length
          ? 'warn'
          : defined.length
            ? 'pass'
            : checks.some((c) => c.status === 'incomplete')
              ? 'incomplete'
              : 'not_measured',
      decisive: worst ?? null,
      checks,
    };
  });
}
