// Keys typed into the desktop app, encrypted at rest by the OS keychain (Electron's
// safeStorage, injected as an Encryptor so this module stays free of electron). Keys are
// stored under the environment variable name a provider's config names (apiKeyEnv), so
// one stored OPENAI_API_KEY serves every provider that asks for it. The environment wins.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EnvKeyStore, KEY_NAME_PATTERN, KEY_NAME_RULE, type KeyStore, type ProviderConfig } from './config';
import { keyScopeProblem } from './key-scope';
import { AppError } from '../base/errors';

export interface Encryptor {
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
  /** Linux only: 'basic_text' means no keychain (the key is merely obfuscated). */
  backend?(): string;
}

export interface KeyStoreStatus {
  /** Keys can be stored in the app (desktop); otherwise they come from the environment. */
  managed: boolean;
  /** Names (never values) that have a stored key. */
  stored: string[];
  warning: string | null;
}

export interface ManagedKeyStore extends KeyStore {
  status(): KeyStoreStatus;
  set(name: string, value: string): void;
  remove(name: string): void;
}

export class EncryptedFileKeyStore implements ManagedKeyStore {
  private readonly env: EnvKeyStore;

  constructor(
    private readonly file: string,
    private readonly crypto: Encryptor,
    envVars: NodeJS.ProcessEnv = process.env,
  ) {
    this.env = new EnvKeyStore(envVars);
  }

  private read(): Record<string, string> {
    if (!existsSync(this.file)) return {};
    return JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>;
  }

  private write(entries: Record<string, string>): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(entries, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  get(providerName: string, cfg: ProviderConfig): string | undefined {
    const fromEnv = this.env.get(providerName, cfg);
    if (fromEnv || !cfg.apiKeyEnv) return fromEnv;
    const cipher = this.read()[cfg.apiKeyEnv];
    if (!cipher || !this.crypto.isAvailable()) return undefined;
    return this.crypto.decrypt(Buffer.from(cipher, 'base64'));
  }

  variable(name: string): string | undefined {
    return this.env.variable(name);
  }

  status(): KeyStoreStatus {
    const available = this.crypto.isAvailable();
    const backend = this.crypto.backend?.();
    return {
      managed: available,
      stored: Object.keys(this.read()).sort(),
      warning: !available
        ? 'This system offers no secure storage: set keys as environment variables instead.'
        : backend === 'basic_text'
          ? 'No keychain was found (Linux "basic_text"): stored keys are only obfuscated, not encrypted. Install and unlock a keyring (e.g. GNOME Keyring or KWallet) for real encryption.'
          : null,
    };
  }

  set(name: string, value: string): void {
    if (!KEY_NAME_PATTERN.test(name))
      throw new AppError('invalid_params', `name: "${name}" ${KEY_NAME_RULE}`);
    if (!value.trim()) throw new AppError('invalid_params', 'The key is empty');
    if (!this.crypto.isAvailable()) throw new AppError('conflict', this.status().warning!);
    const entries = this.read();
    entries[name] = this.crypto.encrypt(value.trim()).toString('base64');
    this.write(entries);
  }

  remove(name: string): void {
    const entries = this.read();
    delete entries[name];
    this.write(entries);
  }
}

/** The CLI's and the web door's store: environment variables only. */
export class EnvOnlyKeyStore extends EnvKeyStore implements ManagedKeyStore {
  status(): KeyStoreStatus {
    return {
      managed: false,
      stored: [],
      warning: null,
    };
  }

  set(): void {
    throw new AppError(
      'conflict',
      'Keys cannot be stored here: set them as environment variables before starting judge-lab (e.g. OPENAI_API_KEY).',
    );
  }

  remove(): void {
    this.set();
  }
}

/**
 * The key store a page's door (web, desktop window) uses: a key is handed out only for the
 * server it may go to (see key-scope.ts), so the engine cannot attach it anywhere else.
 */
export function scopedKeyStore(inner: ManagedKeyStore): ManagedKeyStore {
  const variable = (name: string) => inner.variable?.(name);
  return {
    get: (providerName, cfg) => (keyScopeProblem(cfg, variable) ? undefined : inner.get(providerName, cfg)),
    variable,
    withheld: (providerName, cfg) => (inner.get(providerName, cfg) ? keyScopeProblem(cfg, variable) : null),
    status: () => inner.status(),
    set: (name, value) => inner.set(name, value),
    remove: (name) => inner.remove(name),
  };
}
