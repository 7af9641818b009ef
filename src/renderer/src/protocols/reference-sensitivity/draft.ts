// The reference-sensitivity part of the wizard draft: one generator, the parts and settings, the
// seed; and the config keys it becomes (README "Reference sensitivity").
import type { DraftIssue, WizardDraft } from '../../lib/experiment-config';
import type { PresetId } from '../../lib/providers';

export const REF_SENS_ID = 'reference-sensitivity';
export const SETTINGS = ['NR', 'RV', 'RC'] as const;
export type SettingId = (typeof SETTINGS)[number];

export const TEMPLATE_KEYS = [
  'generateSystem',
  'generateUser',
  'judgeSystem',
  'judgeUserNR',
  'judgeUserRV',
  'judgeUserRC',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

export interface RefSensDraft {
  generator: { provider: PresetId; model: string };
  calibration: boolean;
  sensitivity: boolean;
  settings: Record<SettingId, boolean>;
  seed: number;
  /** Edited templates only; a missing key runs the default. */
  templates?: Partial<Record<TemplateKey, string>>;
  /** An answers file chosen in the app, sent as it is (the core checks it line by line). */
  answers?: { fileName: string; text: string } | null;
  /** Config `noiseFloor`: each NR verdict asked a second time (absent: off). */
  noiseFloor?: boolean;
}

export function initialRefSensDraft(): RefSensDraft {
  return {
    generator: { provider: 'openai', model: 'gpt-4.1-nano' },
    calibration: true,
    sensitivity: true,
    settings: { NR: true, RV: true, RC: true },
    seed: 0,
  };
}

export function refSensDraft(draft: WizardDraft): RefSensDraft {
  return (draft.protocolDrafts[REF_SENS_ID] as RefSensDraft | undefined) ?? initialRefSensDraft();
}

export function withRefSensDraft(draft: WizardDraft, own: RefSensDraft): WizardDraft {
  return { ...draft, protocolDrafts: { ...draft.protocolDrafts, [REF_SENS_ID]: own } };
}

/** The noise floor repeats NR verdicts: it needs the sensitivity part with NR among the settings. */
export function noiseFloorApplies(own: RefSensDraft): boolean {
  return own.sensitivity && own.settings.NR;
}

export function validateRefSens(draft: WizardDraft): DraftIssue[] {
  const own = refSensDraft(draft);
  const issues: DraftIssue[] = [];
  if (!own.calibration && !own.sensitivity) issues.push({ field: 'parts', code: 'partsRequired' });
  if (own.sensitivity && !own.generator.model.trim())
    issues.push({ field: 'generators', code: 'modelRequired' });
  if (own.sensitivity && !SETTINGS.some((s) => own.settings[s]))
    issues.push({ field: 'parts', code: 'partsRequired' });
  return issues;
}

export function refSensConfig(draft: WizardDraft): Record<string, unknown> {
  const own = refSensDraft(draft);
  const g = own.generator;
  return {
    ...(own.sensitivity
      ? { generators: [{ label: g.model.trim(), provider: g.provider, model: g.model.trim() }] }
      : {}),
    parts: {
      calibration: own.calibration,
      sensitivity: own.sensitivity,
      settings: SETTINGS.filter((s) => own.settings[s]),
    },
    seed: own.seed,
    ...(own.templates && Object.keys(own.templates).length > 0 ? { templates: own.templates } : {}),
    ...(own.answers ? { answers: own.answers } : {}),
    ...(own.noiseFloor && noiseFloorApplies(own) ? { noiseFloor: true } : {}),
  };
}
