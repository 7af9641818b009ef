import { z } from 'zod';
import { rateLimitSchema } from './rate-limit-schema';

/**
 * Only variables named like keys may be sent as one: an API caller must not be able to
 * send HOME, PATH or AWS_SECRET_ACCESS_KEY's neighbours to a server as a bearer token.
 */
export const KEY_NAME_PATTERN = /^[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)$/;
export const KEY_NAME_RULE =
  'must be an environment variable name in capitals ending in _API_KEY, _KEY or _TOKEN, such as OPENAI_API_KEY';

// The provider block of the experiment config (DESIGN.md section 7). Strict: a misspelt
// key ("rmp") must be an error that names it, not a silently ignored limit.
export const providerConfigSchema = z
  .strictObject({
    kind: z.enum(['openai', 'anthropic', 'simulated', 'recorded']),
    baseURL: z.url({ protocol: /^https?$/ }).optional(),
    apiKeyEnv: z.string().regex(KEY_NAME_PATTERN, KEY_NAME_RULE).optional(),
    rpm: rateLimitSchema('rpm').optional(),
    tpm: rateLimitSchema('tpm').optional(),
    concurrency: z.number().int().positive().max(1024).optional(),
    structuredOutput: z.enum(['json_schema', 'json_object', 'text']).optional(),
    timeoutMs: z.number().int().positive().max(3_600_000).optional(),
    /** How long an outage (unreachable, timeouts, 5xx) is waited out before calls fail; default 600. */
    outageToleranceSeconds: z.number().nonnegative().max(604_800).optional(),
    /** `simulated` only: the mean answer time in ms (default 300). */
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    /**
     * "batch": send through the provider's Batch API (half price, answers within 24 h) instead
     * of one call at a time ("live", the default).
     */
    mode: z.enum(['live', 'batch']).optional(),
    /**
     * `openai` kind: OpenAI's service tier. "flex": half price (its Batch prices), slower answers,
     * and 429 "resource unavailable" when it has no capacity (asked again later, never failed).
     */
    serviceTier: z.enum(['default', 'flex']).optional(),
    /** Batch entries that expired or failed: into a new batch ("resubmit", default) or sent live. */
    batchFallback: z.enum(['resubmit', 'live']).optional(),
    /** How often an open batch is polled, in seconds (default 30). */
    batchPollSeconds: z.number().min(0.01).max(3600).optional(),
    /** `recorded` only: the answers file (JSONL or CSV; `judge-lab template recorded` writes one). */
    file: z.string().min(1).optional(),
    /**
     * `recorded` only: the file's SHA-256, filled in when the experiment is created; given by
     * hand, a file that differs is refused.
     */
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits')
      .optional(),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.kind === 'recorded') {
      refineRecorded(cfg, ctx);
      return;
    }
    for (const key of ['file', 'sha256'] as const)
      if (cfg[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: 'only the recorded provider takes it' });
    if (cfg.serviceTier !== undefined && cfg.kind !== 'openai')
      ctx.addIssue({
        code: 'custom',
        path: ['serviceTier'],
        message: "only the openai kind takes it (OpenAI's flex tier)",
      });
    else if (cfg.serviceTier === 'flex' && cfg.mode === 'batch')
      ctx.addIssue({
        code: 'custom',
        path: ['serviceTier'],
        message: 'flex is for live calls ("mode": "live"); the Batch API has its own half price',
      });
    // The simulated provider has no server and no key: settings for one would be silently
    // ignored, so they are errors, as is a latency setting on a real server.
    const foreign =
      cfg.kind === 'simulated'
        ? (['baseURL', 'apiKeyEnv', 'structuredOutput', 'timeoutMs'] as const)
        : (['latencyMs'] as const);
    // The simulated provider answers batches too (issue 26 item 7), so batch mode can be tried
    // without a paid account.
    if (cfg.mode !== 'batch')
      for (const key of ['batchFallback', 'batchPollSeconds'] as const)
        if (cfg[key] !== undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'only used with "mode": "batch"' });
    for (const key of foreign) {
      if (cfg[key] === undefined) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message:
          cfg.kind === 'simulated'
            ? `not used by the simulated provider (it has no server and needs no key)`
            : `only the simulated provider takes "latencyMs"`,
      });
    }
  });

/** Keys that mean a server or a Batch API: a recorded provider has neither. */
const RECORDED_FOREIGN = [
  'baseURL',
  'serviceTier',
  'apiKeyEnv',
  'structuredOutput',
  'timeoutMs',
  'latencyMs',
  'batchFallback',
  'batchPollSeconds',
  'outageToleranceSeconds',
] as const;

function refineRecorded(
  cfg: Partial<Record<(typeof RECORDED_FOREIGN)[number] | 'file' | 'mode', unknown>>,
  ctx: z.RefinementCtx,
): void {
  if (cfg.file === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['file'],
      message: 'required: the recorded answers file (JSONL or CSV)',
    });
  if (cfg.mode === 'batch')
    ctx.addIssue({
      code: 'custom',
      path: ['mode'],
      message: 'the recorded provider has no Batch API: use "live"',
    });
  for (const key of RECORDED_FOREIGN)
    if (cfg[key] !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'not used by the recorded provider (it answers from its file, without a server or a key)',
      });
}

export type ProviderConfig = z.infer<typeof providerConfigSchema>;
export type ProviderKind = ProviderConfig['kind'];

export const DEFAULT_BASE_URL: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  // Never contacted: it only gives the simulated answers their own ledger endpoint, so they
  // are never served as cache hits to a real provider's request, nor the other way round.
  simulated: 'simulated://judge-lab',
  // Never contacted either; the file's hash is appended (resolvedBaseURL), so answers from two
  // different files are never served to each other as cache hits.
  recorded: 'recorded://judge-lab',
};

/** Whether a provider block is the built-in simulated provider (no network, no key). */
export function isSimulated(cfg: Pick<ProviderConfig, 'kind'>): boolean {
  return cfg.kind === 'simulated';
}

/**
 * Whether an experiment with these providers is simulated: configs that mix simulated and
 * real providers are refused, so "any" and "all" agree for every stored experiment.
 */
export function anySimulated(providers: Record<string, Pick<ProviderConfig, 'kind'>>): boolean {
  return Object.values(providers).some(isSimulated);
}

/** Whether a provider block answers from a recorded answers file (no network, no key). */
export function isRecorded(cfg: Pick<ProviderConfig, 'kind'>): boolean {
  return cfg.kind === 'recorded';
}

/** Whether an experiment answers from recorded files (configs mixing them with servers are refused). */
export function anyRecorded(providers: Record<string, Pick<ProviderConfig, 'kind'>>): boolean {
  return Object.values(providers).some(isRecorded);
}

/** What the simulated provider is given instead of a key (it is never sent anywhere). */
export const SIMULATED_KEY = 'simulated-no-key';
/** The same for the recorded provider. */
export const RECORDED_KEY = 'recorded-no-key';

/** Default limits of the simulated provider, per model: slow enough that a run shows progress. */
export const SIMULATED_LIMITS = { rpm: 600, concurrency: 4 } as const;

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_BATCH_POLL_SECONDS = 30;
/** The simulated provider's batches end within seconds: polled every second unless set. */
export const SIMULATED_BATCH_POLL_SECONDS = 1;

/** How often a provider's open batches are polled, in seconds. */
export function batchPollSeconds(cfg: Pick<ProviderConfig, 'kind' | 'batchPollSeconds'>): number {
  return (
    cfg.batchPollSeconds ??
    (cfg.kind === 'simulated' ? SIMULATED_BATCH_POLL_SECONDS : DEFAULT_BATCH_POLL_SECONDS)
  );
}

/** Whether a provider entry sends through its Batch API. */
export function isBatchMode(cfg: Pick<ProviderConfig, 'mode'>): boolean {
  return cfg.mode === 'batch';
}
export const DEFAULT_CONCURRENCY = 16;

/** The base URL the SDK is given: explicit, never read from the environment by the SDK. */
export function resolvedBaseURL(cfg: Pick<ProviderConfig, 'kind' | 'baseURL'> & { sha256?: string }): string {
  if (cfg.kind === 'recorded') return `${DEFAULT_BASE_URL.recorded}/${cfg.sha256 ?? 'unsealed'}`;
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
 * base URL), not the config's name for it, so renaming a provider keeps its cache. A recorded
 * provider's answers belong to the entry that recorded them (`name`): two entries on one file
 * (a model judged through two providers, then replayed) never answer each other's requests,
 * whose text may be identical.
 */
export function endpointId(
  cfg: Pick<ProviderConfig, 'kind' | 'baseURL'> & { sha256?: string },
  name?: string,
): string {
  const base = `${cfg.kind}:${resolvedBaseURL(cfg)}`;
  return cfg.kind === 'recorded' && name !== undefined ? `${base}/${encodeURIComponent(name)}` : base;
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
  /** Why `get` withholds a key that is set (a page's door: not for this server), if it does. */
  withheld?(providerName: string, cfg: ProviderConfig): string | null;
  /**
   * The server beyond its kind's known ones that the key `get` gives for `apiKeyEnv` may go to
   * (key-scope.ts). Without it: the environment's <NAME>_BASE_URL, read through `variable`.
   */
  scope?(apiKeyEnv: string): KeyScope;
}

/** Where one key may go besides its kind's known servers, and who said so. */
export interface KeyScope {
  baseURL?: string;
  /** 'entered': typed into the app with this address; 'environment': <NAME>_BASE_URL. */
  from: 'environment' | 'entered';
}

/** Local servers (Ollama, vLLM) take any key; the SDKs insist on one. */
export const LOCAL_DUMMY_KEY = 'local-no-key';

/** The CLI and web door's key store: the variable named by `apiKeyEnv`. */
export class EnvKeyStore implements KeyStore {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  get(_providerName: string, cfg: ProviderConfig): string | undefined {
    if (isSimulated(cfg)) return SIMULATED_KEY;
    if (isRecorded(cfg)) return RECORDED_KEY;
    const fromEnv = cfg.apiKeyEnv ? this.env[cfg.apiKeyEnv]?.trim() : undefined;
    if (fromEnv) return fromEnv;
    if (!cfg.apiKeyEnv && cfg.baseURL && isLoopbackURL(cfg.baseURL)) return LOCAL_DUMMY_KEY;
    return undefined;
  }

  variable(name: string): string | undefined {
    return this.env[name]?.trim() || undefined;
  }
}

/**
 * A plain-words reason why no key is available, naming the variable but never a value. A key
 * that is set but withheld for this server says so: "not set" would send the person looking
 * for a variable they already have.
 */
export function missingKeyMessage(providerName: string, cfg: ProviderConfig, keys?: KeyStore): string {
  const withheld = keys?.withheld?.(providerName, cfg);
  if (withheld) return `No API key for provider "${providerName}": ${withheld}`;
  return cfg.apiKeyEnv
    ? `No API key for provider "${providerName}": the environment variable ${cfg.apiKeyEnv} is not set.`
    : `No API key for provider "${providerName}": set "apiKeyEnv" to the environment variable holding it.`;
}
