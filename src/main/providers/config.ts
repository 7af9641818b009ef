import { z } from 'zod';
import { rateLimitSchema } from '../core/input-limits';

/**
 * Only variables named like keys may be sent as one: an API caller must not be able to
 * send HOME, PATH or AWS_SECRET_ACCESS_KEY's neighbours to a server as a bearer token.
 */
export const KEY_NAME_PATTERN = /^[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)$/;
export const KEY_NAME_RULE =
  'must be an environment variable name in capitals ending in _API_KEY, _KEY or _TOKEN, such as OPENAI_API_KEY';

// The provider block of the experiment config (DESIGN.md section 7). Strict: a misspelt
// key ("rmp") must be an error that names it, not a silently ignored limit.
export const providerConfigSchema = z.strictObject({
  kind: z.enum(['openai', 'anthropic']),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  apiKeyEnv: z.string().regex(KEY_NAME_PATTERN, KEY_NAME_RULE).optional(),
  rpm: rateLimitSchema('rpm').optional(),
  tpm: rateLimitSchema('tpm').optional(),
  concurrency: z.number().int().positive().max(1024).optional(),
  structuredOutput: z.enum(['json_schema', 'json_object', 'text']).optional(),
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  /** How long an outage (unreachable, timeouts, 5xx) is waited out before calls fail; default 600. */
  outageToleranceSeconds: z.number().nonnegative().max(604_800).optional(),
});

export type ProviderConfig = z.infer<typeof providerConfigSchema>;
export type ProviderKind = ProviderConfig['kind'];

export const DEFAULT_BASE_URL: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_CONCURRENCY = 16;

/** The base URL the SDK is given: explicit, never read from the environment by the SDK. */
export function resolvedBaseURL(cfg: Pick<ProviderConfig, 'kind' | 'baseURL'>): string {
  return normalizeBaseURL(cfg.baseURL ?? DEFAULT_BASE_URL[cfg.kind]);
}

/** Lower-cased scheme and host, default port dropped, no trailing slash, no query or fragment. */
export function normalizeBaseURL(url: string): string {
  const u = new URL(url);
  u.hash = '';
  u.search = '';
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${u.host}${path}`;
}

/**
 * What the ledger keys a request on: the server actually answering (kind + normalized
 * base URL), not the config's name for it, so renaming a provider keeps its cache.
 */
export function endpointId(cfg: Pick<ProviderConfig, 'kind' | 'baseURL'>): string {
  return `${cfg.kind}:${resolvedBaseURL(cfg)}`;
}

export function isLoopbackURL(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Where keys come from. The engine asks per provider name; implementations never log. */
export interface KeyStore {
  get(providerName: string, cfg: ProviderConfig): string | undefined;
  /** The value of another environment variable of the same source (see key-scope.ts). */
  variable?(name: string): string | undefined;
}

/** Local servers (Ollama, vLLM) take any key; the SDKs insist on one. */
export const LOCAL_DUMMY_KEY = 'local-no-key';

/** The CLI and web door's key store: the variable named by `apiKeyEnv`. */
export class EnvKeyStore implements KeyStore {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  get(_providerName: string, cfg: ProviderConfig): string | undefined {
    const fromEnv = cfg.apiKeyEnv ? this.env[cfg.apiKeyEnv]?.trim() : undefined;
    if (fromEnv) return fromEnv;
    if (!cfg.apiKeyEnv && cfg.baseURL && isLoopbackURL(cfg.baseURL)) return LOCAL_DUMMY_KEY;
    return undefined;
  }

  variable(name: string): string | undefined {
    return this.env[name]?.trim() || undefined;
  }
}

/** A plain-words reason why no key is available, naming the variable but never a value. */
export function missingKeyMessage(providerName: string, cfg: ProviderConfig): string {
  return cfg.apiKeyEnv
    ? `No API key for provider "${providerName}": the environment variable ${cfg.apiKeyEnv} is not set.`
    : `No API key for provider "${providerName}": set "apiKeyEnv" to the environment variable holding it.`;
}
