// Where a key may be sent when the provider config comes from a page (the web app or the
// desktop window) rather than from a config file the user runs: a token holder or a
// compromised page must not be able to point a real key at a server of its own.
import type { KeyScope, KeyStore, ProviderConfig, ProviderKind } from './config';
import { resolvedBaseURL } from './config';

/** Each kind's own API and the compatible services the app offers as presets. */
export const KNOWN_BASE_URLS: Record<ProviderKind, readonly string[]> = {
  openai: [
    'https://api.openai.com/v1',
    'https://generativelanguage.googleapis.com/v1beta/openai/',
    'https://api.deepseek.com',
    'https://openrouter.ai/api/v1',
  ],
  anthropic: ['https://api.anthropic.com'],
  simulated: [],
  recorded: [],
};

// The variable's name is part of what pages show (the wizard offers the line to set).
import { baseURLVariable } from '../../shared/key-scope';
export { baseURLVariable };

// The key goes to a host, whatever the path: compare scheme, host and port.
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** A key store's scope for one key name: its own, or the environment's <NAME>_BASE_URL. */
export function scopeOfKey(keys: KeyStore, apiKeyEnv: string): KeyScope {
  if (keys.scope) return keys.scope(apiKeyEnv);
  return { from: 'environment', baseURL: keys.variable?.(baseURLVariable(apiKeyEnv)) };
}

/**
 * Why this provider's key may not be sent to its base URL, or null when it may. The allowed
 * server beyond the known ones comes from the person at the machine: <NAME>_BASE_URL where
 * Judge Lab starts, or the address a key was entered with in the app (only for that key: an
 * address can be stored only together with the key it unlocks, so a page can never point a key
 * from the environment, or one entered earlier, at a server of its own).
 */
export function keyScopeProblem(cfg: ProviderConfig, keys: KeyStore): string | null {
  if (!cfg.apiKeyEnv) return null; // no key is sent (a local server gets a placeholder)
  const target = resolvedBaseURL(cfg);
  const origin = originOf(target);
  if (KNOWN_BASE_URLS[cfg.kind].some((u) => originOf(u) === origin)) return null;
  const scope = scopeOfKey(keys, cfg.apiKeyEnv);
  const allowed = scope.baseURL;
  if (allowed && originOf(allowed) === origin) return null;
  if (scope.from === 'entered') {
    return (
      `the key entered in the app for ${cfg.apiKeyEnv} is only sent to the known ${cfg.kind} servers` +
      `${allowed ? ` or to ${originOf(allowed) ?? allowed}, the address it was entered with` : ''}; ` +
      `to use ${origin ?? target}, enter the key again with this server's address.`
    );
  }
  const allowVar = baseURLVariable(cfg.apiKeyEnv);
  return (
    `${cfg.apiKeyEnv} is only sent to the known ${cfg.kind} servers or to the server in ${allowVar}` +
    `${allowed ? ` (now ${originOf(allowed) ?? allowed})` : ''}; to use ${origin ?? target}, set ` +
    `${allowVar}=${target} where you start Judge Lab.`
  );
}
