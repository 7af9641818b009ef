// The setup wizard's draft, its checks per step, and the experiment config (DESIGN.md
// section 7) built from it. The core validates again; these checks only catch early what
// a researcher can fix on the step in front of them.
import { draftFromPreset, presetOf, type PresetId, type ProviderDraft } from './providers';

export const STEPS = ['dataset', 'protocol', 'judges', 'transform', 'options', 'summary'] as const;
export type StepId = (typeof STEPS)[number];

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
  tieProbeUser: ['instruction', 'output_a', 'output_b'],
};

export interface JudgeDraft {
  /** Stable React key; not part of the config. */
  key: string;
  label: string;
  /** Until the user types a label, it follows the model name. */
  labelEdited: boolean;
  provider: PresetId;
  model: string;
  temperature: string;
}

/** A user's price for one model, USD per 1M tokens, as typed. */
export interface PriceDraft {
  input: string;
  /** Empty: the same as input. */
  cachedInput: string;
  output: string;
}

export const PRICE_FIELDS = ['input', 'cachedInput', 'output'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

export interface WizardDraft {
  datasetId: number | null;
  judges: JudgeDraft[];
  /** Every provider the user touched; the config gets only those in use. */
  providers: Partial<Record<PresetId, ProviderDraft>>;
  transform: {
    provider: PresetId;
    model: string;
    /** Until edited, provider and model follow the first judge. */
    edited: boolean;
    languages: { ZH: boolean; LS: boolean };
  };
  /** Only templates the user replaced; the others are the protocol's defaults. */
  templates: Partial<Record<TemplateKey, string>>;
  tieProbes: boolean;
  limit: string;
  name: string;
  nameEdited: boolean;
  /** Price overrides per model; models not listed use the shipped table. */
  prices: Record<string, PriceDraft>;
}

export interface DraftIssue {
  /** Config path, e.g. `judges[1].label`, `providers.openai.rpm`. */
  field: string;
  /** i18n key under `wizard.errors`. */
  code: string;
  params?: Record<string, string | number>;
}

let judgeSeq = 0;

export function newJudge(provider: PresetId, model?: string): JudgeDraft {
  const m = model ?? presetOf(provider).models[0] ?? '';
  return {
    key: `j${++judgeSeq}`,
    label: m,
    labelEdited: false,
    provider,
    model: m,
    temperature: '0',
  };
}

export function initialDraft(): WizardDraft {
  const judge = newJudge('openai');
  return {
    datasetId: null,
    judges: [judge],
    providers: { openai: draftFromPreset('openai') },
    transform: {
      provider: 'openai',
      model: presetOf('openai').transformModel ?? judge.model,
      edited: false,
      languages: { ZH: true, LS: true },
    },
    templates: {},
    tieProbes: true,
    limit: '',
    name: '',
    nameEdited: false,
    prices: {},
  };
}

/** The transformer's provider and model when the user has not chosen them: the first judge's. */
export function followFirstJudge(draft: WizardDraft): WizardDraft['transform'] {
  if (draft.transform.edited || draft.judges.length === 0) return draft.transform;
  const first = draft.judges[0];
  const preset = presetOf(first.provider);
  return {
    ...draft.transform,
    provider: first.provider,
    model: preset.transformModel ?? first.model,
  };
}

/** Provider names the config will contain: those judges or the transformer use. */
export function providersInUse(draft: WizardDraft): PresetId[] {
  const names: PresetId[] = [];
  for (const p of [...draft.judges.map((j) => j.provider), draft.transform.provider]) {
    if (!names.includes(p)) names.push(p);
  }
  return names;
}

/** Every model the run will call (judges, then the transformer), each once. */
export function modelsInUse(draft: WizardDraft): string[] {
  const models = [...draft.judges.map((j) => j.model.trim()), draft.transform.model.trim()];
  return [...new Set(models.filter((m) => m !== ''))];
}

/** The config path of one price field, as the core names it in its errors. */
export function priceField(model: string, field: PriceField): string {
  return `prices.${model}.${field}`;
}

/** A plain non-negative decimal ("0.4", "15", ".25"): no sign, exponent or hex. */
const PRICE_NUMBER = /^(\d+(\.\d*)?|\.\d+)$/;

function checkPrice(issues: DraftIssue[], model: string, price: PriceDraft): void {
  for (const field of PRICE_FIELDS) {
    const raw = price[field].trim();
    if (raw === '') {
      if (field !== 'cachedInput') issues.push({ field: priceField(model, field), code: 'priceRequired' });
      continue;
    }
    if (!PRICE_NUMBER.test(raw)) issues.push({ field: priceField(model, field), code: 'priceInvalid' });
  }
}

const NAME_FORBIDDEN = /[/\\:*?"<>|]/g;

/** `<dataset> 2025-01-31`: a default name that is a valid export folder name. */
export function defaultExperimentName(datasetName: string, now: Date = new Date()): string {
  const date = [now.getFullYear(), now.getMonth() + 1, now.getDate()]
    .map((n) => String(n).padStart(2, '0'))
    .join('-');
  const base = datasetName.replace(NAME_FORBIDDEN, '-').trim().slice(0, 100);
  return `${base || 'experiment'} ${date}`;
}

// The core's rule (src/main/providers/config.ts KEY_NAME_PATTERN): only key-like names are sent.
const ENV_NAME = /^[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)$/;

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function checkNumber(
  issues: DraftIssue[],
  field: string,
  raw: string,
  opts: { integer?: boolean; min?: number; max?: number } = {},
): void {
  if (raw.trim() === '') return;
  const n = Number(raw);
  const bad =
    !Number.isFinite(n) ||
    (opts.integer && !Number.isInteger(n)) ||
    (opts.min !== undefined ? n < opts.min : n <= 0) ||
    (opts.max !== undefined && n > opts.max);
  if (!bad) return;
  if (opts.min !== undefined && opts.max !== undefined) {
    issues.push({ field, code: 'numberRange', params: { min: opts.min, max: opts.max } });
  } else {
    issues.push({ field, code: opts.integer ? 'positiveInteger' : 'positiveNumber' });
  }
}

function checkProvider(issues: DraftIssue[], name: PresetId, p: ProviderDraft): void {
  const at = `providers.${name}`;
  const address = p.baseURL.trim();
  if (name === 'custom' && !address) issues.push({ field: `${at}.baseURL`, code: 'baseURLRequired' });
  else if (address && !isHttpUrl(address)) issues.push({ field: `${at}.baseURL`, code: 'baseURLInvalid' });
  if (p.apiKeyEnv.trim() && !ENV_NAME.test(p.apiKeyEnv.trim())) {
    issues.push({ field: `${at}.apiKeyEnv`, code: 'apiKeyEnvInvalid' });
  }
  checkNumber(issues, `${at}.rpm`, p.rpm);
  checkNumber(issues, `${at}.tpm`, p.tpm);
  checkNumber(issues, `${at}.concurrency`, p.concurrency, { integer: true, min: 1, max: 1024 });
}

/** Problems that keep the user on a step; empty when Next may go on. */
export function validateStep(step: StepId, draft: WizardDraft): DraftIssue[] {
  const issues: DraftIssue[] = [];
  switch (step) {
    case 'dataset':
      if (draft.datasetId === null) issues.push({ field: 'dataset', code: 'datasetRequired' });
      break;
    case 'protocol':
      break;
    case 'judges': {
      if (draft.judges.length === 0) issues.push({ field: 'judges', code: 'judgesRequired' });
      const seen = new Set<string>();
      draft.judges.forEach((j, i) => {
        const label = j.label.trim();
        if (!label) issues.push({ field: `judges[${i}].label`, code: 'labelRequired' });
        else if (seen.has(label)) issues.push({ field: `judges[${i}].label`, code: 'labelDuplicate' });
        seen.add(label);
        if (!j.model.trim()) issues.push({ field: `judges[${i}].model`, code: 'modelRequired' });
        if (j.temperature.trim() === '')
          issues.push({ field: `judges[${i}].temperature`, code: 'temperature' });
        else checkNumber(issues, `judges[${i}].temperature`, j.temperature, { min: 0, max: 2 });
      });
      for (const name of new Set(draft.judges.map((j) => j.provider))) {
        const p = draft.providers[name];
        if (p) checkProvider(issues, name, p);
      }
      break;
    }
    case 'transform': {
      if (!draft.transform.model.trim()) issues.push({ field: 'transform.model', code: 'modelRequired' });
      if (!draft.transform.languages.ZH && !draft.transform.languages.LS) {
        issues.push({ field: 'transform.languages', code: 'languagesRequired' });
      }
      const p = draft.providers[draft.transform.provider];
      if (p && !draft.judges.some((j) => j.provider === draft.transform.provider)) {
        checkProvider(issues, draft.transform.provider, p);
      }
      for (const key of TEMPLATE_KEYS) {
        const text = draft.templates[key];
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
      break;
    }
    case 'options': {
      const name = draft.name.trim();
      if (!name) issues.push({ field: 'name', code: 'nameRequired' });
      else if (/[/\\:*?"<>|]/.test(name)) issues.push({ field: 'name', code: 'nameChars' });
      else if (name.length > 120) issues.push({ field: 'name', code: 'nameLength' });
      checkNumber(issues, 'limit', draft.limit, { integer: true });
      break;
    }
    case 'summary':
      // Only overrides of models the run uses: a price left from an earlier model choice is not sent.
      for (const model of modelsInUse(draft)) {
        const price = draft.prices[model];
        if (price) checkPrice(issues, model, price);
      }
      break;
  }
  return issues;
}

/** The config path of a template, as the core names it in its errors. */
export function templateField(key: TemplateKey): string {
  if (key === 'languageRulesZH') return 'options.templates.languageRules.ZH';
  if (key === 'languageRulesLS') return 'options.templates.languageRules.LS';
  return `options.templates.${key}`;
}

/** Which step a config path (from the core's issues or ours) belongs to; null if none. */
export function stepOfField(field: string | undefined): StepId | null {
  if (!field) return null;
  const head = field.split(/[.[]/)[0];
  switch (head) {
    case 'dataset':
      return 'dataset';
    case 'protocol':
      return 'protocol';
    case 'judges':
    case 'providers':
      return 'judges';
    case 'transform':
    case 'options':
      return 'transform';
    case 'prices':
      return 'summary';
    case 'name':
    case 'limit':
    case 'tieProbes':
    case 'maxParseRetries':
      return 'options';
    default:
      return null;
  }
}

function num(raw: string): number | undefined {
  return raw.trim() === '' ? undefined : Number(raw);
}

/** One provider as the config wants it: empty inputs left out, so the core's defaults apply. */
export function providerConfig(p: ProviderDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: p.kind };
  if (p.baseURL.trim()) out.baseURL = p.baseURL.trim();
  if (p.apiKeyEnv.trim()) out.apiKeyEnv = p.apiKeyEnv.trim();
  const rpm = num(p.rpm);
  const tpm = num(p.tpm);
  const concurrency = num(p.concurrency);
  if (rpm !== undefined) out.rpm = rpm;
  if (tpm !== undefined) out.tpm = tpm;
  if (concurrency !== undefined) out.concurrency = concurrency;
  if (p.structuredOutput) out.structuredOutput = p.structuredOutput;
  return out;
}

export function providersRecord(draft: WizardDraft): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of providersInUse(draft)) {
    out[name] = providerConfig(draft.providers[name] ?? draftFromPreset(name));
  }
  return out;
}

function templatesOption(templates: WizardDraft['templates']): Record<string, unknown> | undefined {
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

/** The config's `prices`: the overrides of models in use, cached input defaulting to input. */
export function pricesOption(draft: WizardDraft): Record<string, Record<string, number>> | undefined {
  const out: Record<string, Record<string, number>> = {};
  for (const model of modelsInUse(draft)) {
    const p = draft.prices[model];
    if (!p) continue;
    const input = Number(p.input.trim());
    out[model] = {
      input,
      cachedInput: p.cachedInput.trim() === '' ? input : Number(p.cachedInput.trim()),
      output: Number(p.output.trim()),
    };
  }
  return Object.keys(out).length ? out : undefined;
}

/** The experiment config of DESIGN.md section 7, with the dataset given by its id. */
export function buildConfig(draft: WizardDraft): Record<string, unknown> {
  const languages = (['ZH', 'LS'] as const).filter((l) => draft.transform.languages[l]);
  const config: Record<string, unknown> = {
    name: draft.name.trim(),
    protocol: 'judge-ls',
    dataset: draft.datasetId,
    providers: providersRecord(draft),
    transform: {
      provider: draft.transform.provider,
      model: draft.transform.model.trim(),
      languages,
    },
    judges: draft.judges.map((j) => ({
      label: j.label.trim(),
      provider: j.provider,
      model: j.model.trim(),
      temperature: Number(j.temperature),
    })),
    // Tie probes compare EN with ZH, so they are off whenever ZH is.
    tieProbes: draft.tieProbes && draft.transform.languages.ZH,
  };
  const limit = num(draft.limit);
  if (limit !== undefined) config.limit = limit;
  const templates = templatesOption(draft.templates);
  if (templates) config.options = { templates };
  const prices = pricesOption(draft);
  if (prices) config.prices = prices;
  return config;
}
