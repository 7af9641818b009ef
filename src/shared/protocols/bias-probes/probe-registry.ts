// The probe registry: the built-in probes (probes/index.ts) and any registered after them, in
// registry order — the order the plan asks a probe's conditions, the metrics list its effects and
// the noise floor its placebos. Every reader (plan, metrics, tables, figures, report card, power,
// Methods, the dashboard) asks here, so a new probe is its module and one registry line.
import type { BiasProbe, Bilingual, ConditionSpec, EffectSpec, RewriteSpec } from './probe-types';
import { BUILT_IN_PROBES } from './probes';
import type { Mode } from './types';

const registry: BiasProbe[] = [...BUILT_IN_PROBES];

/**
 * The registry's lists and id lookups, made once per change of the registry: the plan, the audit
 * and the metrics ask for a condition or an effect per task, and rebuilding the lists each time
 * was a tenth of a simulated study's CPU.
 */
interface Index {
  effects: OwnedEffect[];
  conditions: OwnedCondition[];
  effectById: Map<string, OwnedEffect>;
  conditionById: Map<string, OwnedCondition>;
  probeById: Map<string, BiasProbe>;
}
let index: Index | null = null;
function indexed(): Index {
  if (index) return index;
  const effects = registry.flatMap((probe) => probe.effects.map((effect) => ({ probe, effect })));
  const conditions = registry.flatMap((probe) => probe.conditions.map((condition) => ({ probe, condition })));
  // Ids are unique (registerBiasProbe refuses a clash); made from the end, so the first of an id
  // would win, as the search in registry order these replace found it.
  const byId = <T>(list: T[], id: (t: T) => string) =>
    new Map(list.map((t) => [id(t), t] as const).reverse());
  index = {
    effects,
    conditions,
    effectById: byId(effects, (e) => e.effect.id),
    conditionById: byId(conditions, (c) => c.condition.id),
    probeById: byId(registry, (p) => p.id),
  };
  return index;
}

/** The condition every probe starts from: the response as the dataset gives it. */
export const ORIGINAL = 'original';
/** The paired-position effect's placebo: the response shown second, the pair in view. */
export const SHOWN_SECOND = 'second';

/**
 * Adds a probe after the built-in ones (tests; a new built-in is a line in probes/index.ts).
 * Ids of probes, effects and conditions are one namespace each across the registry: a clash would
 * read one probe's verdicts as another's.
 */
export function registerBiasProbe(probe: BiasProbe): void {
  if (registry.some((p) => p.id === probe.id))
    throw new Error(`bias probe "${probe.id}" is registered twice`);
  const effects = new Set(allEffects().map((e) => e.effect.id));
  const conditions = new Set([ORIGINAL, SHOWN_SECOND, ...allConditions().map((c) => c.condition.id)]);
  for (const e of probe.effects)
    if (effects.has(e.id)) throw new Error(`bias probe "${probe.id}": effect "${e.id}" exists already`);
  for (const c of probe.conditions)
    if (conditions.has(c.id)) throw new Error(`bias probe "${probe.id}": condition "${c.id}" exists already`);
  // An effect compares conditions that exist (its own, another probe's, or the original).
  for (const c of probe.conditions) conditions.add(c.id);
  for (const e of probe.effects)
    for (const c of [e.variant, e.base, e.placebo])
      if (!conditions.has(c))
        throw new Error(`bias probe "${probe.id}": effect "${e.id}" names no condition "${c}"`);
  registry.push(probe);
  index = null;
}

/**
 * Removes a probe registered with `registerBiasProbe` (a test's, when its file ends: test files
 * share a process, DESIGN.md §10). The built-in ones stay.
 */
export function unregisterBiasProbe(id: string): void {
  const at = registry.findIndex((p) => p.id === id);
  if (at >= BUILT_IN_PROBES.length) registry.splice(at, 1);
  index = null;
}

export const biasProbes = (): readonly BiasProbe[] => registry;
export const biasProbeIds = (): string[] => registry.map((p) => p.id);
/** The probes a config without `probes` runs: every registered one but those that opt in. */
export const defaultProbeIds = (): string[] => registry.filter((p) => !p.optIn).map((p) => p.id);
export const probeById = (id: string): BiasProbe | undefined => indexed().probeById.get(id);

/** The probes an experiment runs, in registry order. */
export const selectedProbes = (opts: { probes: readonly string[] }): BiasProbe[] =>
  registry.filter((p) => opts.probes.includes(p.id));

export interface OwnedEffect {
  probe: BiasProbe;
  effect: EffectSpec;
}

export interface OwnedCondition {
  probe: BiasProbe;
  condition: ConditionSpec;
}

/** Every effect in registry order (a copy: the caller may sort or filter it). */
export const allEffects = (): OwnedEffect[] => [...indexed().effects];
export const effectById = (id: string): OwnedEffect | undefined => indexed().effectById.get(id);

/** Every condition in registry order (a copy). */
export const allConditions = (): OwnedCondition[] => [...indexed().conditions];
export const conditionById = (id: string): ConditionSpec | undefined =>
  indexed().conditionById.get(id)?.condition;

/** A condition made by the rewriter, with its spec (the rewrite kinds, in registry order). */
/**
 * Every registered rewrite, registry order; given the study's `probes`, an opt-in probe's only when
 * selected (the audit's checks and the manifest's templates of a study without it stay as before).
 */
export const rewriteConditions = (
  selected?: readonly string[],
): { condition: ConditionSpec; rewrite: RewriteSpec }[] =>
  indexed().conditions.flatMap(({ probe, condition }) =>
    'rewrite' in condition.text && (!selected || !probe.optIn || selected.includes(probe.id))
      ? [{ condition, rewrite: condition.text.rewrite }]
      : [],
  );
export const rewriteOf = (kind: string): RewriteSpec | undefined => {
  const text = conditionById(kind)?.text;
  return text && 'rewrite' in text ? text.rewrite : undefined;
};

/** Whether a probe's measure compares positions (the pair-shown scores, the paired position test). */
export const measuresPosition = (opts: { probes: readonly string[] }): boolean =>
  selectedProbes(opts).some((p) => p.effects.some((e) => e.measure === 'paired-position'));

/**
 * The placebos the noise floor lists, once each: the conditions the paired changes start from in
 * registry order, then the paired-position one (the pair-shown view comes after the texts).
 */
export function placeboBases(): string[] {
  const effects = allEffects().map((e) => e.effect);
  const order = [
    ...effects.filter((e) => e.measure === 'paired-change'),
    ...effects.filter((e) => e.measure === 'paired-position'),
  ];
  return [...new Set(order.map((e) => e.placebo))];
}

/** What an effect row compares, in words (tables, figures, verdict browser, power reads). */
export function effectLabelOf(effect: string, mode: Mode, lang: 'en' | 'zh' = 'en'): string {
  const spec = effectById(effect)?.effect;
  if (!spec) return effect;
  const label = mode === 'pairwise' ? spec.label.pairwise : spec.label.pointwise;
  return label ? label[lang] : effect;
}

/** Every effect label and its Chinese, pointwise then pairwise (figure and dashboard dictionaries). */
export function effectLabelsZh(): [string, string][] {
  const effects = allEffects().map((e) => e.effect);
  return [
    ...effects.map((e): [string, string] => [e.label.pointwise.en, e.label.pointwise.zh]),
    ...effects.flatMap((e): [string, string][] =>
      e.label.pairwise ? [[e.label.pairwise.en, e.label.pairwise.zh]] : [],
    ),
  ];
}

/** The placebo rows' label of the original, the condition every probe may start from. */
export const ORIGINAL_PLACEBO_LABEL: Bilingual = {
  en: 'Repeat − first (placebo)',
  zh: '重复 − 首次（安慰剂）',
};

/** The label of a placebo's rows: the first effect read against it that names it, else the original's. */
export function placeboLabelOf(repeated: string, lang: 'en' | 'zh' = 'en'): string {
  const named = allEffects().find((e) => e.effect.placebo === repeated && e.effect.placeboLabel);
  return (named?.effect.placeboLabel ?? ORIGINAL_PLACEBO_LABEL)[lang];
}

/** Every placebo label and its Chinese (figure dictionaries), the original's first. */
export function placeboLabelsZh(): [string, string][] {
  const labels = allEffects().flatMap((e) => (e.effect.placeboLabel ? [e.effect.placeboLabel] : []));
  return [ORIGINAL_PLACEBO_LABEL, ...labels].map((l): [string, string] => [l.en, l.zh]);
}

/**
 * Whether the variant browser lists a condition's texts or prompts: every rewrite and prompt
 * change, and a text code derives unless it is the base of an effect whose variant code also
 * derives (a neutral sentence of the same size: shown beside that variant already). A derived base
 * of a rewrite (the format probe's plain text) is listed beside the original it was made from.
 */
export function browsedCondition(c: ConditionSpec): boolean {
  if ('rewrite' in c.text) return true;
  if ('same' in c.text) return c.prompt !== undefined;
  return !allEffects().some(
    ({ effect }) => effect.base === c.id && 'derive' in (conditionById(effect.variant)?.text ?? {}),
  );
}
