// Keys typed into the desktop app, encrypted at rest by the OS keychain (Electron's
// safeStorage, injected as an Encryptor so this module stays free of electron). Keys are
// stored under the environment variable name a provider's config names (apiKeyEnv), so
// one stored OPENAI_API_KEY serves every provider that asks for it. The environment wins.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import {
  EnvKeyStore,
  isRecorded,
  isSimulated,
  KEY_NAME_PATTERN,
  KEY_NAME_RULE,
  normalizeBaseURL,
  type KeyScope,
  type KeyStore,
  type ProviderConfig,
} from './config';
import { baseURLVariable, keyScopeProblem } from './key-scope';
import { AppError } from '../base/errors';
import type { KeyStoreStatus } from '../../shared/api';

export interface Encryptor {
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
  /** Linux only: 'basic_text' means no keychain (the key is merely obfuscated). */
  backend?(): string;
}

export type { KeyStoreStatus };

export interface ManagedKeyStore extends KeyStore {
  status(): KeyStoreStatus;
  /** `baseURL`: the one server beyond the kind's known ones this key may go to. */
  set(name: string, value: string, baseURL?: string): void;
  remove(name: string): void;
}

function checkKeyEntry(name: string, value: string): void {
  if (!KEY_NAME_PATTERN.test(name)) throw new AppError('invalid_params', `name: "${name}" ${KEY_NAME_RULE}`);
  // Never the value in a message: it would reach the page and perhaps a log.
  if (!value.trim()) throw new AppError('invalid_params', 'The key is empty');
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  if (/[\s\u0000-\u001f\u007f]/.test(value.trim()))
    throw new AppError(
      'invalid_params',
      'The key has spaces or control characters inside it: paste it again',
    );
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

  set(name: string, value: string, baseURL?: string): void {
    checkKeyEntry(name, value);
    // The desktop's custom servers still take <NAME>_BASE_URL (not built yet: issue 38 was the web door).
    if (baseURL !== undefined)
      throw new AppError('invalid_params', 'baseURL: the desktop app keeps no address with a key');
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

/** The file `judge-lab serve` keeps keys in, in the data folder (owner read/write only). */
export const SERVE_KEYS_FILE = 'serve-keys.json';

interface EnteredKey {
  value: string;
  baseURL?: string;
}

/**
 * The web door's keys (issue 38 item 5): entered on the app's page, kept in a JSON file of the
 * data folder readable by its owner only (0600, written to a new file then renamed, refused when
 * other users can read it), like ~/.aws/credentials or gh's hosts.yml. Not encrypted: a plain
 * Node process has no keychain of its own (Electron's safeStorage is the desktop's), and a key
 * the process decrypts unattended is readable by any process of the same user either way. A key
 * entered here is used instead of the environment's variable of the same name (the person
 * chose it after starting `serve`); removing it brings the environment's back. Each get reads the
 * file, so a key takes effect on the next call without a restart.
 */
export class OwnerOnlyFileKeyStore implements ManagedKeyStore {
  private readonly env: EnvKeyStore;

  constructor(
    private readonly file: string,
    private readonly envVars: NodeJS.ProcessEnv = process.env,
  ) {
    this.env = new EnvKeyStore(envVars);
  }

  private read(): Record<string, EnteredKey> {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new AppError('internal', `${this.file}: cannot read the stored keys (${(err as Error).message})`);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile())
        throw new AppError('invalid_input', `${this.file}: the key file is not a regular file`);
      if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
        throw new AppError(
          'invalid_input',
          `${this.file}: the key file can be read by other users (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 "${this.file}", or delete it and enter the keys again`,
        );
      }
      const parsed = JSON.parse(readFileSync(fd, 'utf8')) as { keys?: Record<string, EnteredKey> };
      return parsed.keys ?? {};
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Not the parser's message: it may quote the file's text.
      throw new AppError(
        'invalid_input',
        `${this.file}: the key file is not valid JSON; delete it and enter the keys again`,
      );
    } finally {
      closeSync(fd);
    }
  }

  private write(keys: Record<string, EnteredKey>): void {
    mkdirSync(dirname(this.file), { recursive: true });
    if (!Object.keys(keys).length) return rmSync(this.file, { force: true });
    // A new file created owner-only ('wx' with mode 0600: never a moment readable by others),
    // then renamed over the old one.
    const tmp = join(
      dirname(this.file),
      `.${SERVE_KEYS_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`,
    );
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify({ version: 1, keys }, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, this.file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }

  get(providerName: string, cfg: ProviderConfig): string | undefined {
    if (isSimulated(cfg) || isRecorded(cfg) || !cfg.apiKeyEnv) return this.env.get(providerName, cfg);
    return this.read()[cfg.apiKeyEnv]?.value ?? this.env.get(providerName, cfg);
  }

  variable(name: string): string | undefined {
    return this.env.variable(name);
  }

  scope(apiKeyEnv: string): KeyScope {
    const entered = this.read()[apiKeyEnv];
    if (entered) return { from: 'entered', baseURL: entered.baseURL };
    return { from: 'environment', baseURL: this.env.variable(baseURLVariable(apiKeyEnv)) };
  }

  status(): KeyStoreStatus {
    const keys = this.read();
    const addresses: Record<string, string> = {};
    for (const [name, k] of Object.entries(keys)) if (k.baseURL) addresses[name] = k.baseURL;
    return {
      managed: true,
      stored: Object.keys(keys).sort(),
      warning: null,
      storage: 'file',
      file: this.file,
      addresses,
    };
  }

  set(name: string, value: string, baseURL?: string): void {
    checkKeyEntry(name, value);
    let address: string | undefined;
    if (baseURL !== undefined && baseURL.trim()) {
      try {
        const u = new URL(baseURL.trim());
        if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http');
        if (u.username || u.password) throw new Error('credentials');
        address = normalizeBaseURL(u.href);
      } catch {
        throw new AppError(
          'invalid_params',
          'baseURL: an http:// or https:// address without a user name or password',
        );
      }
    }
    const keys = this.read();
    // The address is stored only with the key it unlocks: whoever sets it also gave the key.
    keys[name] = address ? { value: value.trim(), baseURL: address } : { value: value.trim() };
    this.write(keys);
  }

  remove(name: string): void {
    const keys = this.read();
    if (!(name in keys)) return;
    delete keys[name];
    this.write(keys);
  }
}

/** The CLI's store: environment variables only. */
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
  return {
    get: (providerName, cfg) => (keyScopeProblem(cfg, inner) ? undefined : inner.get(providerName, cfg)),
    variable: (name) => inner.variable?.(name),
    ...(inner.scope ? { scope: (name: string) => inner.scope!(name) } : {}),
    withheld: (providerName, cfg) => (inner.get(providerName, cfg) ? keyScopeProblem(cfg, inner) : null),
    status: () => inner.status(),
    set: (name, value, baseURL) => inner.set(name, value, baseURL),
    remove: (name) => inner.remove(name),
  };
}
