import type { ProviderErrorKind, Usage } from './types';

export interface ProviderErrorDetails {
  status?: number;
  headers?: Headers;
  /** The answer text when the call was paid for but unusable (unparseable). */
  rawText?: string;
  /** Tokens billed for an unusable answer: spend is spend. */
  usage?: Usage;
  /** A 429 for want of capacity (OpenAI flex "resource unavailable"): asked again later, never failed. */
  capacity?: boolean;
}

/** A classified provider failure. Its message is plain words and never holds a key. */
export class ProviderError extends Error {
  readonly status?: number;
  readonly headers?: Headers;
  readonly rawText?: string;
  readonly usage?: Usage;
  readonly capacity?: boolean;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    details: ProviderErrorDetails = {},
  ) {
    super(message);
    this.name = 'ProviderError';
    this.status = details.status;
    this.headers = details.headers;
    this.rawText = details.rawText;
    this.usage = details.usage;
    this.capacity = details.capacity;
  }
}

// OpenAI's flex tier when it has no capacity: a 429 that is neither a rate limit nor a quota.
const CAPACITY_PATTERN = /resource[_ ]unavailable/i;

// Bodies that mean "no money / no quota left": waiting will not help, the user must act.
const QUOTA_PATTERN =
  /insufficient_quota|billing|spend(ing)? limit|credit balance|exceeded your current quota|usage limit|payment required/i;

interface SdkLikeError {
  status?: number;
  headers?: Headers;
  message?: string;
  error?: unknown;
  name?: string;
  constructor?: { name?: string };
}

function bodyText(err: SdkLikeError): string {
  try {
    return `${err.message ?? ''} ${err.error === undefined ? '' : JSON.stringify(err.error)}`;
  } catch {
    return err.message ?? '';
  }
}

/** Removes the key (and any long run of it) from text that may echo it back. */
export function redactSecret(text: string, secret: string | undefined): string {
  let out = text;
  if (secret && secret.length >= 4) {
    out = out.split(secret).join('[redacted]');
    // Providers echo a masked key ("sk-test-****T123"): drop the distinctive prefix and tail too.
    if (secret.length >= 12) {
      out = out.split(secret.slice(0, 8)).join('[redacted]');
      out = out.split(secret.slice(-4)).join('[redacted]');
    }
  }
  return out.replace(/\b(sk|key|api)[-_][A-Za-z0-9_*-]{6,}/gi, '[redacted]');
}

function shorten(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * Maps whatever an SDK threw to a ProviderError. Class names are checked rather than
 * `instanceof` so both SDKs (and their duplicated copies in bundles) are recognized.
 */
export function classifyError(err: unknown, secret?: string): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = (err ?? {}) as SdkLikeError;
  const cls = e.constructor?.name ?? e.name ?? '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  const headers = e.headers instanceof Headers ? e.headers : undefined;
  const detail = shorten(redactSecret(e.message ?? String(err), secret));
  const make = (kind: ProviderErrorKind, message: string) =>
    new ProviderError(kind, message, { status, headers });

  if (cls === 'APIUserAbortError' || e.name === 'AbortError')
    return make('cancelled', 'The request was cancelled.');
  if (cls === 'APIConnectionTimeoutError' || /timed? ?out/i.test(cls))
    return make('timeout', 'The provider did not answer in time (request timed out).');
  if (status === undefined) {
    if (cls === 'APIConnectionError' || /connection|socket|ECONN|fetch failed|terminated/i.test(detail))
      return make('connection', `Could not reach the provider (connection failed or dropped): ${detail}`);
    return make('connection', `The call failed before any answer arrived: ${detail}`);
  }
  const body = redactSecret(bodyText(e), secret);
  if (status === 402 || ((status === 429 || status === 400 || status === 403) && QUOTA_PATTERN.test(body)))
    return make(
      'quota_exhausted',
      `The provider refused for lack of quota or credit (HTTP ${status}); add credit or raise the spend limit, then resume: ${detail}`,
    );
  if (status === 429 && CAPACITY_PATTERN.test(body))
    return new ProviderError(
      'rate_limited',
      `The provider has no capacity for this tier now (HTTP 429, resource unavailable); asked again later: ${detail}`,
      { status, headers, capacity: true },
    );
  if (status === 429) return make('rate_limited', `Rate limited by the provider (HTTP 429): ${detail}`);
  if (status === 401 || status === 403)
    return make('auth', `The provider rejected the API key (HTTP ${status}); check the key: ${detail}`);
  if (status === 404)
    return make('not_found', `Not found (HTTP 404): check the model name and the base URL: ${detail}`);
  if (status === 408) return make('timeout', `The provider timed out (HTTP 408): ${detail}`);
  if (status === 529 || status >= 500)
    return make('server', `The provider had a server error or is overloaded (HTTP ${status}): ${detail}`);
  if (status >= 400)
    return make('bad_request', `The provider rejected the request (HTTP ${status}): ${detail}`);
  return make('server', `Unexpected HTTP ${status}: ${detail}`);
}
