// The reference-sensitivity part of the wizard draft: the generators, the parts and settings, the
// noise floor, the seed; and the config keys it becomes (README "Reference sensitivity").
import type { DraftIssue, PresetId, WizardDraft } from '../host';

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

export interface GeneratorDraft {
  /** Stable across edits (React's key); not sent. */
  key: string;
  provider: PresetId;
  model: string;
  /** The label in tables and figures; empty: the model's name. */
  label: string;
}

export interface RefSensDraft {
  /** As many as the config takes (the README's benchmark uses four). */
  generators: GeneratorDraft[];
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

let generatorSeq = 0;

export function newGenerator(provider: PresetId, model: string): GeneratorDraft {
  return { key: `g${++generatorSeq}`, provider, model, label: '' };
}

export function initialRefSensDraft(): RefSensDraft {
  return {
    generators: [newGenerator('openai', 'gpt-4.1-nano')],
    calibration: true,
    sensitivity: true,
    settings: { NR: true, RV: true, RC: true },
    seed: 0,
  };
}

/** A draft saved before several generators (one `generator`) reads as a list of one. */
type SavedDraft = RefSensDraft & { generator?: { provider: PresetId; model: string } };

export function refSensDraft(draft: WizardDraft): RefSensDraft {
  const saved = draft.protocolDrafts[REF_SENS_ID] as SavedDraft | undefined;
  if (!saved) return initialRefSensDraft();
  if (saved.generators) return saved;
  const { generator, ...rest } = saved;
  return { ...rest, generators: generator ? [newGenerator(generator.provider, generator.model)] : [] };
}

/** A generator's label: the one typed, else its model. */
export function generatorLabel(g: GeneratorDraft): string {
  return g.label.trim() || g.model.trim();
}

/**
 * The model a generator on `provider` starts with: one whose name (the default label) no judge
 * or other generator uses, since the core refuses two with one label (issue 38 item 4: a
 * simulated generator started as the simulated judge's model, refused only at the summary).
 */
export function defaultGeneratorModel(
  provider: PresetId,
  taken: readonly string[],
  models: { models: string[]; generatorModel?: string },
): string {
  const used = new Set(taken.map((l) => l.trim()));
  const candidates = [...(models.generatorModel ? [models.generatorModel] : []), ...models.models];
  return candidates.find((m) => !used.has(m)) ?? candidates[0] ?? '';
}

/** Every label a generator must not take: the judges' and the other generators'. */
export function takenLabels(draft: WizardDraft, own: RefSensDraft, except?: number): string[] {
  return [
    ...draft.judges.map((j) => j.label),
    ...own.generators.filter((_, i) => i !== except).map(generatorLabel),
  ];
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
  if (own.sensitivity && !own.answers && own.generators.length === 0)
    issues.push({ field: 'generators', code: 'generatorRequired' });
  own.generators.forEach((g, i) => {
    if (own.sensitivity && !g.model.trim())
      issues.push({ field: `generators[${i}].model`, code: 'modelRequired' });
  });
  const labels = own.generators.map(generatorLabel);
  const judges = new Set(draft.judges.map((j) => j.label.trim()));
  labels.forEach((l, i) => {
    if (l && judges.has(l))
      issues.push({ field: `generators[${i}].label`, code: 'labelTakenByJudge', params: { label: l } });
    else if (l && labels.indexOf(l) !== i)
      issues.push({ field: `generators[${i}].label`, code: 'labelTaken' });
  });
  if (own.sensitivity && !SETTINGS.some((s) => own.settings[s]))
    issues.push({ field: 'parts', code: 'partsRequired' });
  return issues;
}

export function refSensConfig(draft: WizardDraft): Record<string, unknown> {
  const own = refSensDraft(draft);
  return {
    ...(own.sensitivity && own.generators.length
      ? {
          generators: own.generators.map((g) => ({
            label: generatorLabel(g),
            provider: g.provider,
            model: g.model.trim(),
          })),
        }
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
