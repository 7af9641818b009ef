// Judge-LS's part of the wizard draft (the transformer, prompt templates, tie probes), its checks
// and its config keys (DESIGN.md section 7: `transform`, `tieProbes`, `options.templates`).
import { TARGET_LANGUAGES } from '../../../../../shared/protocols/judge-ls/choice';
import { isTargetLanguage, probeTargets } from '../../../../../shared/protocols/judge-ls/languages';
import type { TargetLanguage } from '../../../../../shared/protocols/judge-ls/types';
import {
  checkProvider,
  draftFromPreset,
  type DraftIssue,
  judgeProviderName,
  type PresetId,
  presetOf,
  type WizardDraft,
} from '../../host';

export const JUDGE_LS_ID = 'judge-ls';

export const TEMPLATE_KEYS = [
  'transformSystem',
  'transformUser',
  'languageRulesZH',
  'languageRulesLS',
  'judgeSystem',
  'judgeUser',
  'tieProbeUser',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

/** Placeholders each template must keep (mirrors the core's check, so mistakes show early). */
export const REQUIRED_PLACEHOLDERS: Record<TemplateKey, string[]> = {
  transformSystem: [],
  transformUser: ['instruction', 'output_1', 'output_2'],
  languageRulesZH: [],
  languageRulesLS: [],
  judgeSystem: [],
  judgeUser: ['instruction', 'output_a', 'output_b'],
  tieProbeUser: ['instruction', 'output_a', 'output_b'],
};

/** Every placeholder a template may use, for the editor's hint. */
export const ALLOWED_PLACEHOLDERS: Record<TemplateKey, string[]> = {
  transformSystem: ['target_language', 'language_rules'],
  transformUser: ['instruction', 'output_1', 'output_2', 'target_language', 'language_rules'],
  languageRulesZH: [],
  languageRulesLS: [],
  judgeSystem: [],
  judgeUser: ['instruction', 'output_a', 'output_b'],
  tieProbeUser: ['instruction', 'output_a', 'output_b', 'target_language'],
};

export interface JudgeLsDraft {
  transform: {
    provider: PresetId;
    model: string;
    /** Until edited, provider and model follow the first judge. */
    edited: boolean;
    /** Through the provider's Batch API (half price, within 24 h). */
    batch?: boolean;
    languages: Record<TargetLanguage, boolean>;
    /** Other targets as typed (issue 37): language codes or LS:<code>, e.g. "ar, hi, LS:te". */
    otherLanguages?: string;
    /** The back-translating model on the transformer's provider (config `transform.verify`); empty: off. */
    verifyModel?: string;
  };
  /** Only templates the user replaced; the others are the protocol's defaults. */
  templates: Partial<Record<TemplateKey, string>>;
  tieProbes: boolean;
  /** Config `noiseFloor`: each EN verdict asked a second time (absent: off). */
  noiseFloor?: boolean;
  /** The intervals the tables and exports show (config `ci`); absent: Wilson. */
  ci?: CiMethod;
}

/** The two interval methods of the Judge-LS tables (both are computed; this picks the one shown). */
export const CI_METHODS = ['wilson', 'cluster-bootstrap'] as const;
export type CiMethod = (typeof CI_METHODS)[number];

export function initialJudgeLsDraft(): JudgeLsDraft {
  return {
    transform: { provider: 'openai', model: '', edited: false, languages: { ZH: true, LS: true } },
    templates: {},
    tieProbes: true,
  };
}

/**
 * The Judge-LS part of a draft, with the transformer following the first judge (its provider,
 * and that provider's translation model) until the user chooses one.
 */
export function judgeLsDraft(draft: WizardDraft): JudgeLsDraft {
  const own = (draft.protocolDrafts[JUDGE_LS_ID] as JudgeLsDraft | undefined) ?? initialJudgeLsDraft();
  const first = draft.judges[0];
  if (own.transform.edited || !first) return own;
  const model = presetOf(first.provider).transformModel ?? first.model;
  if (own.transform.provider === first.provider && own.transform.model === model) return own;
  return { ...own, transform: { ...own.transform, provider: first.provider, model } };
}

/** The draft with its Judge-LS part replaced. */
export function withJudgeLsDraft(draft: WizardDraft, own: JudgeLsDraft): WizardDraft {
  return { ...draft, protocolDrafts: { ...draft.protocolDrafts, [JUDGE_LS_ID]: own } };
}

/** The config path of a template, as the core names it in its errors. */
export function templateField(key: TemplateKey): string {
  if (key === 'languageRulesZH') return 'options.templates.languageRules.ZH';
  if (key === 'languageRulesLS') return 'options.templates.languageRules.LS';
  return `options.templates.${key}`;
}

/** The codes typed as other languages: known targets (in order, once) and unknown words. */
export function parseOtherLanguages(text: string | undefined): { codes: string[]; unknown: string[] } {
  const words = (text ?? '').split(/[\s,;，、；]+/).filter(Boolean);
  const known = words.filter((w) => isTargetLanguage(w) && w !== 'ZH' && w !== 'LS');
  return { codes: [...new Set(known)], unknown: words.filter((w) => !isTargetLanguage(w)) };
}

/** The transform step's problems: a model, a language, the transformer's own provider, templates. */
export function validateTransform(draft: WizardDraft): DraftIssue[] {
  const issues: DraftIssue[] = [];
  const { transform, templates } = judgeLsDraft(draft);
  if (!transform.model.trim()) issues.push({ field: 'transform.model', code: 'modelRequired' });
  const other = parseOtherLanguages(transform.otherLanguages);
  if (!TARGET_LANGUAGES.some((l) => transform.languages[l]) && other.codes.length === 0) {
    issues.push({ field: 'transform.languages', code: 'languagesRequired' });
  }
  if (other.unknown.length) {
    issues.push({
      field: 'transform.otherLanguages',
      code: 'languagesUnknown',
      params: { codes: other.unknown.join(', ') },
    });
  }
  // A provider only the transformer uses is checked here; the judges step checks the others.
  if (!draft.judges.some((j) => j.provider === transform.provider)) {
    checkProvider(
      issues,
      transform.provider,
      draft.providers[transform.provider] ?? draftFromPreset(transform.provider),
    );
  }
  for (const key of TEMPLATE_KEYS) {
    const text = templates[key];
    if (text === undefined) continue;
    const missing = REQUIRED_PLACEHOLDERS[key].filter(
      (ph) => !new RegExp(`\\{\\{\\s*${ph}\\s*\\}\\}`).test(text),
    );
    if (!text.trim()) issues.push({ field: templateField(key), code: 'templateEmpty' });
    else if (missing.length) {
      issues.push({
        field: templateField(key),
        code: 'templatePlaceholders',
        params: { names: missing.map((m) => `{{${m}}}`).join(', ') },
      });
    }
  }
  return issues;
}

function templatesOption(templates: JudgeLsDraft['templates']): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const rules: Record<string, string> = {};
  for (const key of TEMPLATE_KEYS) {
    const text = templates[key];
    if (text === undefined) continue;
    if (key === 'languageRulesZH') rules.ZH = text;
    else if (key === 'languageRulesLS') rules.LS = text;
    else out[key] = text;
  }
  if (Object.keys(rules).length) out.languageRules = rules;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The targets tie probes compare English with: ZH and every plain language code (`ar`, `hi`);
 * code-switched ones (LS, LS:ar) are no translation of the answer and get none.
 */
export function probedLanguages(own: JudgeLsDraft): string[] {
  return probeTargets([
    ...TARGET_LANGUAGES.filter((l) => own.transform.languages[l]),
    ...parseOtherLanguages(own.transform.otherLanguages).codes,
  ]);
}

/** Tie probes need a translated target, so they are off while every chosen language is code-switched. */
export function tieProbesOn(own: JudgeLsDraft): boolean {
  return own.tieProbes && probedLanguages(own).length > 0;
}

/** Judge-LS's config keys. */
export function judgeLsConfig(draft: WizardDraft): Record<string, unknown> {
  const own = judgeLsDraft(draft);
  const config: Record<string, unknown> = {
    transform: {
      provider: judgeProviderName(own.transform, draft.providers),
      model: own.transform.model.trim(),
      languages: [
        ...TARGET_LANGUAGES.filter((l) => own.transform.languages[l]),
        ...parseOtherLanguages(own.transform.otherLanguages).codes,
      ],
      // Only when a model is named: a config saved without it stays as it was.
      ...(own.transform.verifyModel?.trim()
        ? {
            verify: {
              provider: judgeProviderName(own.transform, draft.providers),
              model: own.transform.verifyModel.trim(),
            },
          }
        : {}),
    },
    tieProbes: tieProbesOn(own),
    ci: own.ci ?? 'wilson',
    // Only when on: a config saved without it stays as it was.
    ...(own.noiseFloor ? { noiseFloor: true } : {}),
  };
  const templates = templatesOption(own.templates);
  if (templates) config.options = { templates };
  return config;
}
