// Provider checks the app shows before a run: whether each key is available (never the key)
// and whether an endpoint answers.
import { AppError } from '../base/errors';
import {
  isLoopbackURL,
  isSimulated,
  missingKeyMessage,
  providerConfigSchema,
  type KeyStore,
  type ProviderConfig,
} from '../providers/config';
import type { InputIssue } from '../../shared/domain';
import type { KeyState } from '../../shared/domain';
import type { ModelUse } from '../protocols/plugin';
import { testConnection } from '../providers/test-connection';

export function keyStatus(keys: KeyStore, providers: Record<string, unknown>): Record<string, KeyState> {
  const out: Record<string, KeyState> = {};
  for (const [name, raw] of Object.entries(providers)) {
    const parsed = providerConfigSchema.safeParse(raw);
    // A stored config from an older release may name a variable today's rule refuses: no key
    // is read from it (the run is refused until the name is fixed), so it counts as missing.
    if (!parsed.success) {
      out[name] = 'missing';
      continue;
    }
    const cfg = parsed.data;
    if (isSimulated(cfg) || (!cfg.apiKeyEnv && cfg.baseURL && isLoopbackURL(cfg.baseURL)))
      out[name] = 'not_needed';
    else if (keys.get(name, cfg)) out[name] = 'set';
    // Set, but not for this server (key-scope.ts): "missing" would send the person looking
    // for a key they already have (issue 26).
    else out[name] = keys.withheld?.(name, cfg) ? 'withheld' : 'missing';
  }
  return out;
}

/**
 * Each provider the models call that has no key here, with why (never the key): a run cannot
 * send their calls. Unused providers and ones that need no key are left out.
 */
export function missingKeys(
  keys: KeyStore,
  providers: Record<string, ProviderConfig>,
  models: readonly ModelUse[],
): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const name of new Set(models.map((m) => m.provider))) {
    const cfg = providers[name];
    if (!cfg || isSimulated(cfg) || keys.get(name, cfg)) continue;
    issues.push({
      file: 'config',
      field: cfg.apiKeyEnv ? `providers.${name}.apiKeyEnv` : `providers.${name}`,
      message: missingKeyMessage(name, cfg, keys),
    });
  }
  return issues;
}

export async function testProviderConnection(keys: KeyStore, name: string, raw: unknown, model?: string) {
  const parsed = providerConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError(
      'invalid_params',
      `Provider "${name}": ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const key = keys.get(name, parsed.data);
  if (!key) {
    return {
      ok: false,
      kind: 'auth',
      message: missingKeyMessage(name, parsed.data, keys),
    };
  }
  const r = await testConnection(parsed.data, key, model);
  return r.ok
    ? { ok: true, message: r.detail, batch: r.batch, ...(r.models ? { models: r.models } : {}) }
    : { ok: false, kind: r.kind, message: r.message };
}
