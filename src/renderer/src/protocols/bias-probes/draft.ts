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
  };
}
