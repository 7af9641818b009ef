// Rate-limit state as providers report it in response headers. Everything here is turned
// into plain numbers: counts, and milliseconds from "now".

export interface RateLimitInfo {
  /** How long the provider asks us to wait before the next call (retry-after / retry-after-ms). */
  retryAfterMs?: number;
  limitRequests?: number;
  remainingRequests?: number;
  /** Time until the request budget is fully replenished. */
  resetRequestsMs?: number;
  limitTokens?: number;
  remainingTokens?: number;
  resetTokensMs?: number;
}

const UNIT_MS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 1e-6,
};

/**
 * Parses OpenAI's Go-style durations ("1s", "6m0s", "1m30s", "20ms", "0.5s", "1h2m3.5s");
 * a bare number is seconds. Returns milliseconds, or undefined when it is not a duration.
 */
export function parseDuration(text: string | null | undefined): number | undefined {
  if (text == null) return undefined;
  const s = text.trim();
  if (!s) return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    matched = re.lastIndex;
  }
  return matched === s.length ? total : undefined;
}

/** retry-after is either delay-seconds or an HTTP date (RFC 9110 section 10.2.3). */
export function parseRetryAfter(text: string | null | undefined, nowMs: number): number | undefined {
  if (text == null) return undefined;
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Anthropic's resets are RFC 3339 timestamps; some compatible servers send durations instead. */
function parseResetTime(text: string | null | undefined, nowMs: number): number | undefined {
  if (text == null) return undefined;
  const asDuration = parseDuration(text);
  if (asDuration !== undefined) return asDuration;
  const at = Date.parse(text.trim());
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function num(text: string | null | undefined): number | undefined {
  if (text == null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

type HeaderSource = Headers | Record<string, string | undefined>;

function getter(h: HeaderSource): (name: string) => string | undefined {
  if (h instanceof Headers) return (name) => h.get(name) ?? undefined;
  const lower = new Map(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lower.get(name);
}

/** Reads OpenAI (x-ratelimit-*), Anthropic (anthropic-ratelimit-*) and retry-after headers. */
export function parseRateLimitHeaders(headers: HeaderSource, nowMs: number): RateLimitInfo {
  const get = getter(headers);
  const info: RateLimitInfo = {};
  const retryMs = num(get('retry-after-ms'));
  const retry = retryMs ?? parseRetryAfter(get('retry-after'), nowMs);
  if (retry !== undefined) info.retryAfterMs = retry;

  if (
    get('x-ratelimit-remaining-requests') !== undefined ||
    get('x-ratelimit-limit-requests') !== undefined
  ) {
    info.limitRequests = num(get('x-ratelimit-limit-requests'));
    info.remainingRequests = num(get('x-ratelimit-remaining-requests'));
    info.resetRequestsMs = parseDuration(get('x-ratelimit-reset-requests'));
  } else if (get('anthropic-ratelimit-requests-remaining') !== undefined) {
    info.limitRequests = num(get('anthropic-ratelimit-requests-limit'));
    info.remainingRequests = num(get('anthropic-ratelimit-requests-remaining'));
    info.resetRequestsMs = parseResetTime(get('anthropic-ratelimit-requests-reset'), nowMs);
  }

  if (get('x-ratelimit-remaining-tokens') !== undefined || get('x-ratelimit-limit-tokens') !== undefined) {
    info.limitTokens = num(get('x-ratelimit-limit-tokens'));
    info.remainingTokens = num(get('x-ratelimit-remaining-tokens'));
    info.resetTokensMs = parseDuration(get('x-ratelimit-reset-tokens'));
  } else {
    // Anthropic: the combined budget when present, else the input budget (what we can estimate).
    const prefix =
      get('anthropic-ratelimit-tokens-remaining') !== undefined
        ? 'anthropic-ratelimit-tokens'
        : get('anthropic-ratelimit-input-tokens-remaining') !== undefined
          ? 'anthropic-ratelimit-input-tokens'
          : undefined;
    if (prefix) {
      info.limitTokens = num(get(`${prefix}-limit`));
      info.remainingTokens = num(get(`${prefix}-remaining`));
      info.resetTokensMs = parseResetTime(get(`${prefix}-reset`), nowMs);
    }
  }
  for (const k of Object.keys(info) as (keyof RateLimitInfo)[]) if (info[k] === undefined) delete info[k];
  return info;
}
