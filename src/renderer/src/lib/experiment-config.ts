// The setup wizard's draft, its checks per step, and the experiment config (DESIGN.md
// section 7) built from it: the parts every protocol shares. A protocol's own keys (e.g.
// transform, templates, tie probes) come from its plug-in (src/renderer/src/protocols). The core
// validates again; these checks only catch early what a researcher can fix on the step in front of them.
import { getRendererProtocol, listRendererProtocols, type WizardPlugin } from '../protocols/registry';
import {
  batchAddress,
  draftFromPreset,
  presetOf,
  tierOffered,
  type PresetId,
  type ProviderDraft,
} from './providers';
import type { DraftIssue, JudgeDraft, PriceDraft, PriceField, StepId, WizardDraft } from './wizard-draft';
import { FIRST_STEPS, LAST_STEPS, PRICE_FIELDS } from './wizard-draft';
import { checkDraft, planOf } from '../preregistration/plan-form';

// The draft's types live in wizard-draft.ts (below the protocol registry); importers of this
// module keep finding them here.
export * from './wizard-draft';

type DraftProviders = Partial<Record<PresetId, ProviderDraft>>;

/**
 * Whether a provider preset has a Batch API: OpenAI's and Anthropic's hosted services, the
 * simulated provider (issue 26 item 7), and a custom or local server once Test connection found
 * the batch endpoint at its current address (vLLM and other OpenAI-compatible servers may offer it).
 */
export function batchCapable(preset: PresetId, providers?: DraftProviders): boolean {
  const p = presetOf(preset);
  if (p.kind === 'simulated') return true;
  if (!p.local && (p.kind === 'openai' || p.kind === 'anthropic') && preset !== 'custom') return true;
  const d = providers?.[preset];
  return d !== undefined && d.batchAt !== undefined && d.batchAt === batchAddress(d);
}

/** The config's provider name of a judge: its preset, or the preset's batch twin. */
export function judgeProviderName(
  j: Pick<JudgeDraft, 'provider' | 'batch'>,
  providers?: DraftProviders,
): string {
  return j.batch && batchCapable(j.provider, providers) ? `${j.provider}-batch` : j.provider;
}

let judgeSeq = 0;

/** After a draft is restored (a reload): new judges get keys the restored ones do not use. */
export function reserveJudgeKeys(keys: string[]): void {
  for (const k of keys) {
    const n = Number(/^j(\d+)$/.exec(k)?.[1]);
    if (Number.isInteger(n) && n > judgeSeq) judgeSeq = n;
  }
}

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
  return {
    datasetId: null,
    protocol: null,
    protocolDrafts: {},
    judges: [newJudge('openai')],
    providers: { openai: draftFromPreset('openai') },
    limit: '',
    sample: 'first',
    seed: '0',
    subsets: [],
    name: '',
    nameEdited: false,
    prices: {},
  };
}

/** The protocol the draft is for: the chosen one, else the first the app offers. */
export function protocolOf(draft: WizardDraft): string {
  return draft.protocol ?? listRendererProtocols()[0]?.id ?? '';
}

/** Whether the draft's study reads the chosen dataset's kind (true while either is unknown). */
export function datasetFits(draft: WizardDraft): boolean {
  const kinds = getRendererProtocol(protocolOf(draft))?.datasetKinds;
  return !draft.datasetKind || !kinds || kinds.includes(draft.datasetKind);
}

/** The wizard part of the draft's protocol plug-in, if it has one. */
export function wizardPluginOf(draft: WizardDraft): WizardPlugin | undefined {
  return getRendererProtocol(protocolOf(draft))?.wizard;
}

/** The steps of this draft's wizard, in order. */
export function wizardSteps(draft: WizardDraft): StepId[] {
  const own = wizardPluginOf(draft)?.steps.map((s) => s.id) ?? [];
  return [...FIRST_STEPS, ...own, ...LAST_STEPS];
}

/** Provider names the config will contain: those the judges and the protocol (a transformer…) use. */
export function providersInUse(draft: WizardDraft): PresetId[] {
  const own = wizardPluginOf(draft)?.providersInUse?.(draft) ?? [];
  return [...new Set([...draft.judges.map((j) => j.provider), ...own])];
}

/** Every model the run will call (judges, then the protocol's own), each once. */
export function modelsInUse(draft: WizardDraft): string[] {
  const own = wizardPluginOf(draft)?.modelsInUse?.(draft) ?? [];
  const models = [...draft.judges.map((j) => j.model.trim()), ...own.map((m) => m.trim())];
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

/** Checks one provider's settings (address, key name, limits). */
export function checkProvider(issues: DraftIssue[], name: PresetId, p: ProviderDraft): void {
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
    case 'protocol': {
      // Checked when the study is picked, not when the core refuses the config at the summary.
      if (!datasetFits(draft)) issues.push({ field: 'protocol', code: 'datasetKind' });
      break;
    }
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
    case 'options': {
      const name = draft.name.trim();
      if (!name) issues.push({ field: 'name', code: 'nameRequired' });
      else if (/[/\\:*?"<>|]/.test(name)) issues.push({ field: 'name', code: 'nameChars' });
      else if (name.length > 120) issues.push({ field: 'name', code: 'nameLength' });
      checkNumber(issues, 'limit', draft.limit, { integer: true });
      if (draft.sample === 'random') {
        if (!draft.limit.trim()) issues.push({ field: 'limit', code: 'sampleNeedsLimit' });
        checkNumber(issues, 'seed', draft.seed ?? '', { integer: true, min: 0 });
      }
      break;
    }
    case 'summary':
      if (draft.preregistration && checkDraft(draft.preregistration, false).length > 0)
        issues.push({ field: 'preregistration', code: 'preregistration' });
      // Only overrides of models the run uses: a price left from an earlier model choice is not sent.
      for (const model of modelsInUse(draft)) {
        const price = draft.prices[model];
        if (price) checkPrice(issues, model, price);
      }
      break;
    default: {
      const own = wizardPluginOf(draft)?.steps.find((s) => s.id === step);
      if (own) issues.push(...own.validate(draft));
    }
  }
  return issues;
}

/** Which step a config path (from the core's issues or ours) belongs to; null if none. */
export function stepOfField(field: string | undefined, draft: WizardDraft): StepId | null {
  if (!field) return null;
  const head = field.split(/[.[]/)[0];
  const plugin = wizardPluginOf(draft);
  const own = plugin?.steps.find((s) => s.fields.includes(head));
  if (own) return own.id;
  if (plugin?.optionFields?.includes(head)) return 'options';
  switch (head) {
    case 'dataset':
      return 'dataset';
    case 'protocol':
      return 'protocol';
    case 'judges':
    case 'providers':
      return 'judges';
    case 'prices':
      return 'summary';
    case 'name':
    case 'limit':
    case 'sample':
    case 'seed':
    case 'subsets':
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
  if (p.tier && p.tier !== 'standard' && tierOffered(p)) {
    if (p.tier === 'flex') out.serviceTier = 'flex';
    else out.mode = 'batch';
  }
  return out;
}

export function providersRecord(draft: WizardDraft): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of providersInUse(draft)) {
    out[name] = providerConfig(draft.providers[name] ?? draftFromPreset(name));
  }
  // Judges (and a protocol's own callers) sent through a Batch API use a twin of their provider
  // in batch mode: the same endpoint (and stored answers), its own lane of batches.
  const batched = [
    ...draft.judges
      .filter((j) => judgeProviderName(j, draft.providers) !== j.provider)
      .map((j) => j.provider),
    ...(wizardPluginOf(draft)?.batchProvidersInUse?.(draft) ?? []),
  ];
  for (const preset of batched) {
    // The twin takes the Batch API's own half price: flex is for live calls only.
    const { serviceTier: _live, ...twin } = providerConfig(
      draft.providers[preset] ?? draftFromPreset(preset),
    );
    out[judgeProviderName({ provider: preset, batch: true }, draft.providers)] = { ...twin, mode: 'batch' };
  }
  return out;
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
  const config: Record<string, unknown> = {
    name: draft.name.trim(),
    protocol: protocolOf(draft),
    dataset: draft.datasetId,
    providers: providersRecord(draft),
    judges: draft.judges.map((j) => ({
      label: j.label.trim(),
      provider: judgeProviderName(j, draft.providers),
      model: j.model.trim(),
      temperature: Number(j.temperature),
    })),
    ...wizardPluginOf(draft)?.config(draft),
  };
  const limit = num(draft.limit);
  if (limit !== undefined) config.limit = limit;
  if (draft.subsets?.length) config.subsets = draft.subsets;
  if (draft.sample === 'random' && limit !== undefined) {
    config.sample = 'random';
    config.seed = num(draft.seed ?? '') ?? 0;
  }
  const prices = pricesOption(draft);
  if (prices) config.prices = prices;
  return config;
}

/**
 * The config `experiments.create` gets: with the plan to lock (`preregistration`), which the
 * core locks in the create transaction. Estimates leave it out: the plan does not change the
 * cost or the power, and a half-typed plan must not stop them.
 */
export function createConfig(draft: WizardDraft): Record<string, unknown> {
  const config = buildConfig(draft);
  if (draft.preregistration) config.preregistration = planOf(draft.preregistration);
  return config;
}
