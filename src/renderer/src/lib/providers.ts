// Provider presets of the setup wizard: what a researcher picks instead of typing endpoints.
// Each preset becomes one entry of the config's `providers` record, named by its id.

export type ProviderKind = 'openai' | 'anthropic' | 'simulated';
export type StructuredOutput = 'json_schema' | 'json_object' | 'text';

export type PresetId =
  'openai' | 'anthropic' | 'gemini' | 'deepseek' | 'openrouter' | 'ollama' | 'vllm' | 'custom' | 'simulated';

export interface ProviderPreset {
  id: PresetId;
  /** Shown as is: product names are not translated. */
  title: string;
  kind: ProviderKind;
  baseURL?: string;
  apiKeyEnv?: string;
  /** Per-model limits that work on a new account, so a first run needs only a key. */
  rpm?: number;
  tpm?: number;
  concurrency?: number;
  structuredOutput?: StructuredOutput;
  models: string[];
  /** A model that translates well at a fair price, for the transformation step. */
  transformModel?: string;
  /** A model to start a generator of answers on, where the judges' first model would be taken. */
  generatorModel?: string;
  /** Runs on the researcher's own machine: no key, no price, the address must be editable. */
  local?: boolean;
}

/**
 * Models of the built-in simulated provider (any name works; "strong"/"weak" set its skill, a
 * `-flip<NN>` suffix flips each verdict on NN % of its asks: the demo's unstable judge).
 */
export const SIMULATED_MODELS = [
  'sim-judge-strong',
  'sim-judge-weak',
  'sim-judge-weak-flip20',
  'sim-translator',
] as const;

export const PRESETS: ProviderPreset[] = [
  {
    id: 'openai',
    title: 'OpenAI',
    kind: 'openai',
    apiKeyEnv: 'OPENAI_API_KEY',
    rpm: 500,
    tpm: 200_000,
    concurrency: 16,
    models: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-4o-mini', 'gpt-4o', 'gpt-5-mini', 'gpt-5'],
    transformModel: 'gpt-4.1-mini',
  },
  {
    id: 'anthropic',
    title: 'Anthropic',
    kind: 'anthropic',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    rpm: 50,
    concurrency: 4,
    models: ['claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-1'],
    transformModel: 'claude-sonnet-4-5',
  },
  {
    id: 'gemini',
    title: 'Gemini',
    kind: 'openai',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    apiKeyEnv: 'GEMINI_API_KEY',
    rpm: 150,
    concurrency: 8,
    models: ['gemini-2.5-flash', 'gemini-2.5-pro'],
    transformModel: 'gemini-2.5-flash',
  },
  {
    id: 'deepseek',
    title: 'DeepSeek',
    kind: 'openai',
    baseURL: 'https://api.deepseek.com',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    concurrency: 8,
    models: ['deepseek-chat', 'deepseek-reasoner'],
    transformModel: 'deepseek-chat',
  },
  {
    id: 'openrouter',
    title: 'OpenRouter',
    kind: 'openai',
    baseURL: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    rpm: 60,
    concurrency: 8,
    models: [
      'openai/gpt-4.1-mini',
      'anthropic/claude-haiku-4.5',
      'google/gemini-2.5-flash',
      'deepseek/deepseek-chat',
      'qwen/qwen3-235b-a22b',
      'meta-llama/llama-3.3-70b-instruct',
    ],
    transformModel: 'openai/gpt-4.1-mini',
  },
  {
    id: 'ollama',
    title: 'Ollama',
    kind: 'openai',
    baseURL: 'http://127.0.0.1:11434/v1',
    concurrency: 2,
    structuredOutput: 'json_object',
    models: ['qwen2.5:7b', 'qwen3:8b', 'llama3.1:8b', 'gemma3:12b'],
    local: true,
  },
  {
    id: 'vllm',
    title: 'vLLM',
    kind: 'openai',
    baseURL: 'http://127.0.0.1:8000/v1',
    concurrency: 8,
    structuredOutput: 'json_object',
    models: ['Qwen/Qwen2.5-7B-Instruct', 'meta-llama/Llama-3.1-8B-Instruct'],
    local: true,
  },
  {
    id: 'custom',
    title: 'Custom',
    kind: 'openai',
    baseURL: '',
    models: [],
  },
  {
    // The keyless demo: made-up answers, computed locally; everything it produces is marked.
    id: 'simulated',
    title: 'Simulated (no key)',
    kind: 'simulated',
    rpm: 600,
    concurrency: 4,
    models: [...SIMULATED_MODELS],
    transformModel: 'sim-translator',
    generatorModel: 'sim-generator',
  },
];

export function presetOf(id: PresetId): ProviderPreset {
  return PRESETS.find((p) => p.id === id) ?? PRESETS[0];
}

export function isPresetId(v: string): v is PresetId {
  return PRESETS.some((p) => p.id === v);
}

/** A provider as the wizard edits it: strings for the inputs, converted when the config is built. */
export interface ProviderDraft {
  preset: PresetId;
  kind: ProviderKind;
  baseURL: string;
  apiKeyEnv: string;
  rpm: string;
  tpm: string;
  concurrency: string;
  structuredOutput: StructuredOutput | '';
  /**
   * Where Test connection last found a Batch API (batchAddress): a server of the custom or a
   * local preset offers the Batch switch only there; a changed address needs another test.
   */
  batchAt?: string;
  /**
   * OpenAI's own API only (`tierOffered`): how every call of this provider is sent — live at the
   * standard rate (absent), through the Batch API (`mode: "batch"`), or on flex (`serviceTier`).
   */
  tier?: ServiceTierChoice;
}

export type ServiceTierChoice = 'standard' | 'batch' | 'flex';

/**
 * Flex exists only on OpenAI's own API (compatible servers have no service tiers), so the choice
 * is offered on the OpenAI preset while its address is OpenAI's.
 */
export function tierOffered(d: Pick<ProviderDraft, 'preset' | 'kind' | 'baseURL'>): boolean {
  if (d.preset !== 'openai' || d.kind !== 'openai') return false;
  const url = d.baseURL.trim();
  if (!url) return true;
  try {
    return new URL(url).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** A provider's address as Test connection saw it (kind and base URL). */
export function batchAddress(d: Pick<ProviderDraft, 'kind' | 'baseURL'>): string {
  return `${d.kind} ${d.baseURL.trim()}`;
}

const str = (n: number | undefined) => (n === undefined ? '' : String(n));

export function draftFromPreset(id: PresetId): ProviderDraft {
  const p = presetOf(id);
  return {
    preset: id,
    kind: p.kind,
    baseURL: p.baseURL ?? '',
    apiKeyEnv: p.apiKeyEnv ?? '',
    rpm: str(p.rpm),
    tpm: str(p.tpm),
    concurrency: str(p.concurrency),
    structuredOutput: p.structuredOutput ?? '',
  };
}

/** Custom and local endpoints need their address in view; hosted ones hide it under Advanced. */
export function addressIsPrimary(id: PresetId): boolean {
  return id === 'custom' || presetOf(id).local === true;
}
