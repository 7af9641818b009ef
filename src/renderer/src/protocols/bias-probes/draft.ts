// The bias-probes part of the wizard draft (mode, scale, probes, the longer band, the rewriter)
// and the config keys it becomes (README "Bias probes").
import type { DraftIssue, PresetId, WizardDraft } from '../host';
import type { DatasetKind } from '../../../../shared/domain';
import {
  biasProbeIds,
  measuresPosition,
  probeById,
  selectedProbes,
} from '../../../../shared/protocols/bias-probes/probe-registry';

export const BIAS_ID = 'bias-probes';
/** The probes the wizard offers: every registered one, in registry order (probe-registry.ts). */
export const probeIds = (): string[] => biasProbeIds();

export interface BiasDraft {
  mode: 'pointwise' | 'pairwise';
  scale: 5 | 10;
  /** On or off per probe id (a probe missing from a saved draft is off). */
  probes: Record<string, boolean>;
  lengthBand: [number, number];
  rewriter: { provider: PresetId; model: string };
  /** Replaces the default pointwise rubric; empty = the default. */
  rubric?: string;
  /** Config `noiseFloor`: score the unchanged response a second time (the placebo). */
  noiseFloor?: boolean;
  /** Config `paraphrases`: paraphrases of the judging instructions (a probe with `instructions`); unset = the default. */
  paraphrases?: number;
  /** Config `probeOptions.<probe>.<key>`: the values set for a probe's declared options; unset = its default. */
  probeOptions?: Record<string, Record<string, unknown>>;
}

/** Every probe starts on, but those that opt in (probe-types.ts `optIn`) and, on data with one response per item a position probe (a swap of two). */
export function initialBiasDraft(datasetKind?: DatasetKind): BiasDraft {
  return {
    mode: 'pointwise',
    scale: 5,
    probes: Object.fromEntries(
      probeIds().map((p) => [
        p,
        !probeById(p)?.optIn && !(datasetKind === 'pointwise' && measuresPosition({ probes: [p] })),
      ]),
    ),
    lengthBand: [1.3, 1.7],
    rewriter: { provider: 'openai', model: 'gpt-4.1-mini' },
  };
}

export function biasDraft(draft: WizardDraft): BiasDraft {
  return (draft.protocolDrafts[BIAS_ID] as BiasDraft | undefined) ?? initialBiasDraft(draft.datasetKind);
}

export function withBiasDraft(draft: WizardDraft, own: BiasDraft): WizardDraft {
  return { ...draft, protocolDrafts: { ...draft.protocolDrafts, [BIAS_ID]: own } };
}

const chosen = (own: BiasDraft) => probeIds().filter((p) => own.probes[p]);

/** A probe whose conditions the rewriter makes (length, format) needs a rewriter model; position does not. */
export const needsRewriter = (own: BiasDraft) =>
  selectedProbes({ probes: chosen(own) }).some((p) =>
    p.conditions.some((c) => 'rewrite' in c.text || c.instructions),
  );

/** The paraphrase count's range (config.ts `paraphrases`). */
export const PARAPHRASES_RANGE = [1, 5] as const;
/** What the core uses when `paraphrases` is unset (main/protocols/bias-probes/config.ts DEFAULT_PARAPHRASES). */
export const DEFAULT_PARAPHRASES_SHOWN = 3;

/** A chosen probe paraphrases the judging instructions (the rubric probe): the count is asked. */
export const asksParaphrases = (own: BiasDraft) =>
  selectedProbes({ probes: chosen(own) }).some((p) => p.conditions.some((c) => c.instructions));

/** The chosen probes' declared options with the values set in the draft (only those set go to the config). */
function setOptions(own: BiasDraft): { probe: string; key: string; value: unknown }[] {
  return selectedProbes({ probes: chosen(own) }).flatMap((p) =>
    (p.options ?? []).flatMap((o) => {
      const given = own.probeOptions?.[p.id];
      return given && Object.hasOwn(given, o.key) ? [{ probe: p.id, key: o.key, value: given[o.key] }] : [];
    }),
  );
}

export function validateBias(draft: WizardDraft): DraftIssue[] {
  const own = biasDraft(draft);
  const issues: DraftIssue[] = [];
  if (!chosen(own).length) issues.push({ field: 'probes', code: 'probesRequired' });
  if (needsRewriter(own) && !own.rewriter.model.trim())
    issues.push({ field: 'rewriter', code: 'modelRequired' });
  // Checked here, when the step is left, in words: the core would refuse it only after the run
  // planned no position pairs ("undefined … no items").
  if (draft.datasetKind === 'pointwise') {
    if (own.mode === 'pairwise') issues.push({ field: 'mode', code: 'pairwiseNeedsPairs' });
    if (measuresPosition({ probes: chosen(own) }))
      issues.push({ field: 'probes', code: 'positionNeedsPairs' });
  }
  const [lo, hi] = own.lengthBand;
  if (!(lo > 1 && hi > lo)) issues.push({ field: 'lengthBand', code: 'bandInvalid' });
  const k = own.paraphrases;
  const [min, max] = PARAPHRASES_RANGE;
  if (asksParaphrases(own) && k !== undefined && !(Number.isInteger(k) && k >= min && k <= max))
    issues.push({ field: 'paraphrases', code: 'paraphrasesInvalid', params: { min, max } });
  // Each value by its option's own schema, as the core checks the config.
  for (const o of setOptions(own)) {
    const option = probeById(o.probe)!.options!.find((x) => x.key === o.key)!;
    const parsed = option.schema.safeParse(o.value);
    if (!parsed.success)
      issues.push({
        field: `probeOptions.${o.probe}.${o.key}`,
        code: 'optionInvalid',
        params: { message: parsed.error.issues[0]?.message ?? '' },
      });
  }
  return issues;
}

export function biasConfig(draft: WizardDraft): Record<string, unknown> {
  const own = biasDraft(draft);
  return {
    mode: own.mode,
    scale: own.scale,
    probes: chosen(own),
    lengthBand: own.lengthBand,
    ...(own.mode === 'pointwise' && own.rubric?.trim() ? { rubric: own.rubric.trim() } : {}),
    ...(needsRewriter(own)
      ? { rewriter: { provider: own.rewriter.provider, model: own.rewriter.model.trim() } }
      : {}),
    // Only when on, so a config saved without it is as before.
    ...(own.noiseFloor ? { noiseFloor: true } : {}),
    ...(asksParaphrases(own) && own.paraphrases !== undefined ? { paraphrases: own.paraphrases } : {}),
    ...probeOptionsConfig(own),
  };
}

/** `probeOptions` for the chosen probes' options set in the draft (a probe left out keeps none). */
function probeOptionsConfig(own: BiasDraft): { probeOptions?: Record<string, Record<string, unknown>> } {
  const out: Record<string, Record<string, unknown>> = {};
  for (const o of setOptions(own)) out[o.probe] = { ...(out[o.probe] ?? {}), [o.key]: o.value };
  return Object.keys(out).length ? { probeOptions: out } : {};
}
