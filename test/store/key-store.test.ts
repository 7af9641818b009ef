import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EncryptedFileKeyStore,
  EnvOnlyKeyStore,
  OwnerOnlyFileKeyStore,
  type Encryptor,
} from '../../src/main/providers/key-store';
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

describe('web door key store (judge-lab serve, issue 38)', () => {
  function webStore(env: NodeJS.ProcessEnv = {}) {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'serve-keys.json');
    return { file, keys: new OwnerOnlyFileKeyStore(file, env) };
  }

  it('keeps keys in an owner-only file; an entered key wins over the environment until removed', () => {
    const { file, keys } = webStore({ OPENAI_API_KEY: 'sk-env' });
    expect(keys.get('openai', cfg)).toBe('sk-env');
    keys.set('OPENAI_API_KEY', ' sk-typed ');
    expect(keys.get('openai', cfg)).toBe('sk-typed');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keys.status()).toMatchObject({ managed: true, stored: ['OPENAI_API_KEY'], storage: 'file', file });
    expect(JSON.stringify(keys.status())).not.toContain('sk-typed');
    keys.remove('OPENAI_API_KEY');
    expect(keys.get('openai', cfg)).toBe('sk-env');
  });

  it('keeps the address a key was entered with as its scope, normalized; the environment’s scope otherwise', () => {
    const { keys } = webStore({ GROQ_BASE_URL: 'https://env.example/v1' });
    expect(keys.scope('GROQ_API_KEY')).toEqual({ from: 'environment', baseURL: 'https://env.example/v1' });
    keys.set('GROQ_API_KEY', 'gsk-1', 'HTTP://LLM.Example:443/v1/?x=1');
    expect(keys.scope('GROQ_API_KEY')).toEqual({ from: 'entered', baseURL: 'http://llm.example:443/v1' });
    expect(keys.status().addresses).toEqual({ GROQ_API_KEY: 'http://llm.example:443/v1' });
    // A key entered again without an address keeps none.
    keys.set('GROQ_API_KEY', 'gsk-2');
    expect(keys.scope('GROQ_API_KEY')).toEqual({ from: 'entered' });
    expect(() => keys.set('GROQ_API_KEY', 'gsk-3', 'file:///etc/passwd')).toThrow(/baseURL: an http/);
    expect(() => keys.set('GROQ_API_KEY', 'gsk-3', 'https://u:p@llm.example')).toThrow(/baseURL/);
  });

  it('never quotes a key in its refusals, and refuses a file other users can read', () => {
    const { file, keys } = webStore();
    let msg = '';
    try {
      keys.set('OPENAI_API_KEY', 'sk-half one');
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/spaces or control characters/);
    expect(msg).not.toContain('sk-half');
    keys.set('OPENAI_API_KEY', 'sk-ok');
    if (process.platform !== 'win32') {
      chmodSync(file, 0o644);
      expect(() => keys.get('openai', cfg)).toThrow(/can be read by other users .*chmod 600/);
      chmodSync(file, 0o600);
    }
    writeFileSync(file, '{"keys": {"OPENAI_API_KEY": {"value": "sk-broken', { mode: 0o600 });
    let broken = '';
    try {
      keys.get('openai', cfg);
    } catch (e) {
      broken = (e as Error).message;
    }
    expect(broken).toMatch(/not valid JSON/);
    expect(broken).not.toContain('sk-broken');
  });
});
