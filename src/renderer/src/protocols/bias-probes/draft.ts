// The bias-probes part of the wizard draft (mode, scale, probes, the longer band, the rewriter)
// and the config keys it becomes (README "Bias probes").
import type { DraftIssue, PresetId, WizardDraft } from '../host';
import type { DatasetKind } from '../../../../shared/domain';

export const BIAS_ID = 'bias-probes';
export const PROBE_IDS = ['position', 'length', 'format'] as const;
export type ProbeId = (typeof PROBE_IDS)[number];

export interface BiasDraft {
  mode: 'pointwise' | 'pairwise';
  scale: 5 | 10;
  probes: Record<ProbeId, boolean>;
  lengthBand: [number, number];
  rewriter: { provider: PresetId; model: string };
  /** Replaces the default pointwise rubric; empty = the default. */
  rubric?: string;
  /** Config `noiseFloor`: score the unchanged response a second time (the placebo). */
  noiseFloor?: boolean;
}

/** On data with one response per item the position probe (a swap of two) starts off. */
export function initialBiasDraft(datasetKind?: DatasetKind): BiasDraft {
  return {
    mode: 'pointwise',
    scale: 5,
    probes: { position: datasetKind !== 'pointwise', length: true, format: true },
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

/** The length and format probes need a rewriter model; position does not. */
export const needsRewriter = (own: BiasDraft) => own.probes.length || own.probes.format;

export function validateBias(draft: WizardDraft): DraftIssue[] {
  const own = biasDraft(draft);
  const issues: DraftIssue[] = [];
  if (!PROBE_IDS.some((p) => own.probes[p])) issues.push({ field: 'probes', code: 'probesRequired' });
  if (needsRewriter(own) && !own.rewriter.model.trim())
    issues.push({ field: 'rewriter', code: 'modelRequired' });
  // Checked here, when the step is left, in words: the core would refuse it only after the run
  // planned no position pairs ("undefined … no items").
  if (draft.datasetKind === 'pointwise') {
    if (own.mode === 'pairwise') issues.push({ field: 'mode', code: 'pairwiseNeedsPairs' });
    if (own.probes.position) issues.push({ field: 'probes', code: 'positionNeedsPairs' });
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
    probes: PROBE_IDS.filter((p) => own.probes[p]),
    lengthBand: own.lengthBand,
    ...(own.mode === 'pointwise' && own.rubric?.trim() ? { rubric: own.rubric.trim() } : {}),
    ...(needsRewriter(own)
      ? { rewriter: { provider: own.rewriter.provider, model: own.rewriter.model.trim() } }
      : {}),
    // Only when on, so a config saved without it is as before.
    ...(own.noiseFloor ? { noiseFloor: true } : {}),
  };
}
