import { DEFAULT_TIMEOUT_MS, resolvedBaseURL, type ProviderConfig } from './config';
import { classifyError } from './errors';
import { loadAnthropicSdk, loadOpenAISdk } from './sdk';

export type ConnectionResult =
  /**
   * models: what the server lists (when it lists), for the wizard to offer; batch: whether it
   * answers the Batch API's list endpoint (OpenAI-compatible servers such as vLLM may).
   */
  | { ok: true; detail: string; models?: string[]; batch: boolean }
  | {
      ok: false;
      kind: 'auth' | 'unreachable' | 'model_not_found' | 'rate_limited' | 'other';
      message: string;
    };

const CHECK_TIMEOUT_MS = 15_000;
/** A router lists thousands of models; the wizard offers at most this many. */
const MAX_LISTED = 500;

/**
 * "Test connection": lists models (free), and when a model is named checks it is served
 * (listed, or answers a 1-token call where listing is not offered). Never sends the key anywhere else.
 */
export async function testConnection(
  cfg: ProviderConfig,
  key: string,
  model?: string,
): Promise<ConnectionResult> {
  // Nothing to reach: the simulated provider answers inside the app.
  if (cfg.kind === 'simulated')
    return {
      ok: true,
      batch: true,
      detail: 'Simulated provider: answers are made up locally; no network, no key.',
    };
  if (cfg.kind === 'recorded')
    return {
      ok: true,
      batch: false,
      detail: 'Recorded provider: answers come from its file; no network, no key.',
    };
  const baseURL = resolvedBaseURL(cfg);
  const timeout = Math.min(cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS, CHECK_TIMEOUT_MS);
  try {
    let ids: string[] | undefined;
    let batch: boolean;
    if (cfg.kind === 'openai') {
      const { default: OpenAI } = await loadOpenAISdk();
      const client = new OpenAI({
        apiKey: key,
        baseURL,
        maxRetries: 0,
        timeout,
        organization: null,
        project: null,
      });
      try {
        const page = await client.models.list();
        ids = page.data.map((m) => m.id);
      } catch (err) {
        // Some compatible servers have no /models: fall back to a 1-token call below.
        if (classifyError(err, key).kind !== 'not_found' || !model) throw err;
      }
      if (model && (!ids || !ids.includes(model))) {
        if (ids && ids.length) return modelMissing(model, baseURL);
        await client.chat.completions.create({
          model,
          messages: [{ role: 'user', content: 'ping' }],
          max_tokens: 1,
        });
      }
      batch = await answers(() => client.batches.list({ limit: 1 }));
    } else {
      const { default: Anthropic } = await loadAnthropicSdk();
      const client = new Anthropic({ apiKey: key, authToken: null, baseURL, maxRetries: 0, timeout });
      const page = await client.models.list({ limit: 1000 });
      ids = page.data.map((m) => m.id);
      if (model && !ids.some((id) => id === model || id.startsWith(`${model}-`))) {
        // Aliases ("claude-haiku-4-5") may not be listed: a 1-token call settles it.
        await client.messages.create({ model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] });
      }
      batch = await answers(() => client.messages.batches.list({ limit: 1 }));
    }
    const count = ids ? `${ids.length} model${ids.length === 1 ? '' : 's'} available` : 'the server answered';
    return {
      ok: true,
      batch,
      ...(ids ? { models: ids.slice(0, MAX_LISTED).sort() } : {}),
      detail: model
        ? `Connected to ${baseURL}; ${model} is available (${count}).`
        : `Connected to ${baseURL}; ${count}.`,
    };
  } catch (err) {
    const e = classifyError(err, key);
    switch (e.kind) {
      case 'auth':
        return {
          ok: false,
          kind: 'auth',
          message: `The server at ${baseURL} rejected the API key. Check that it is correct and active.`,
        };
      case 'quota_exhausted':
        return {
          ok: false,
          kind: 'other',
          message: `The key works but the account has no quota or credit left: ${e.message}`,
        };
      case 'not_found':
        return model
          ? modelMissing(model, baseURL)
          : {
              ok: false,
              kind: 'other',
              message: `The server at ${baseURL} does not offer this API; check the base URL.`,
            };
      case 'rate_limited':
        return {
          ok: false,
          kind: 'rate_limited',
          message: 'The key works but is rate limited right now; try again in a minute.',
        };
      case 'connection':
      case 'timeout':
        return {
          ok: false,
          kind: 'unreachable',
          message: `Could not reach ${baseURL}. Is the address right and the server running?`,
        };
      default:
        return { ok: false, kind: 'other', message: e.message };
    }
  }
}

/**
 * Whether the server answers a free list call of its Batch API. Any failure (404 on servers
 * without it, a key not allowed to batch) means no Batch switch: the wizard offers only what works.
 */
async function answers(list: () => Promise<unknown>): Promise<boolean> {
  try {
    await list();
    return true;
  } catch {
    return false;
  }
}

function modelMissing(model: string, baseURL: string): ConnectionResult {
  return {
    ok: false,
    kind: 'model_not_found',
    message: `The server at ${baseURL} does not serve a model named "${model}".`,
  };
}
