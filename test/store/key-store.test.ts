import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptedFileKeyStore, EnvOnlyKeyStore, type Encryptor } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

let cleanup = () => {};
afterEach(() => cleanup());

function crypto(backend = 'kwallet5', available = true): Encryptor {
  return {
    isAvailable: () => available,
    encrypt: (s) => Buffer.from(s, 'utf8').reverse(),
    decrypt: (b) => Buffer.from(b).reverse().toString('utf8'),
    backend: () => backend,
  };
}

function store(enc = crypto(), env: NodeJS.ProcessEnv = {}) {
  const t = tempDir();
  cleanup = t.cleanup;
  const file = join(t.dir, 'keys.json');
  return { file, keys: new EncryptedFileKeyStore(file, enc, env) };
}

const cfg = { kind: 'openai' as const, apiKeyEnv: 'OPENAI_API_KEY' };

describe('desktop key store', () => {
  it('stores keys encrypted under their variable name and gives them to the engine only', () => {
    const { file, keys } = store();
    keys.set('OPENAI_API_KEY', '  sk-live-abc  ');
    expect(readFileSync(file, 'utf8')).not.toContain('sk-live-abc');
    expect(keys.get('openai', cfg)).toBe('sk-live-abc');
    expect(keys.status()).toEqual({ managed: true, stored: ['OPENAI_API_KEY'], warning: null });
    keys.remove('OPENAI_API_KEY');
    expect(keys.get('openai', cfg)).toBeUndefined();
  });

  it('lets an environment variable win over a stored key', () => {
    const { keys } = store(crypto(), { OPENAI_API_KEY: 'sk-env' });
    keys.set('OPENAI_API_KEY', 'sk-stored');
    expect(keys.get('openai', cfg)).toBe('sk-env');
  });

  it('warns when Linux offers only basic_text, and refuses to store without any encryption', () => {
    expect(store(crypto('basic_text')).keys.status().warning).toMatch(/basic_text/);
    const { keys } = store(crypto('os', false));
    expect(keys.status().managed).toBe(false);
    expect(() => keys.set('OPENAI_API_KEY', 'x')).toThrow(/environment variables/);
  });

  it('rejects names that are not key-like variable names', () => {
    expect(() => store().keys.set('my key', 'x')).toThrow(
      /name: "my key" .*ending in _API_KEY, _KEY or _TOKEN/,
    );
    expect(() => store().keys.set('HOME', 'x')).toThrow(/name: "HOME"/);
  });
});

describe('CLI and web key store', () => {
  it('reads the environment and refuses to store keys', () => {
    const keys = new EnvOnlyKeyStore({ OPENAI_API_KEY: 'sk-env' });
    expect(keys.get('openai', cfg)).toBe('sk-env');
    expect(keys.status().managed).toBe(false);
    expect(() => keys.set()).toThrow(/environment variables/);
  });
});
