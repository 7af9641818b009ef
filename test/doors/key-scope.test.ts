// A page's caller (web token holder, compromised window) must not be able to send an
// environment variable to a server of its choosing (issue 9, item 7).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import {
  EncryptedFileKeyStore,
  EnvOnlyKeyStore,
  OwnerOnlyFileKeyStore,
  scopedKeyStore,
} from '../../src/main/providers/key-store';
import { missingKeyMessage, type ProviderConfig } from '../../src/main/providers/config';
import { parseExperimentConfig } from '../../src/main/experiments/config';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';

let mock: MockProvider | undefined;
let core: Core | undefined;
let cleanup = () => {};
afterEach(async () => {
  core?.close();
  core = undefined;
  await mock?.close();
  mock = undefined;
  cleanup();
});

async function setup(door: 'web' | 'electron' | 'cli', env: (url: string) => Record<string, string>) {
  mock = await startMockProvider({ apiKey: 'sk-real' });
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door, keys: new EnvOnlyKeyStore(env(mock.url)) });
  return { core, mock, url: `${mock.url}/v1` };
}

const configFor = (baseURL: string, dataset: number) => ({
  name: 'exfil',
  protocol: 'judge-ls',
  dataset,
  providers: { p: { kind: 'openai', baseURL, apiKeyEnv: 'OPENAI_API_KEY' } },
  transform: { provider: 'p', model: 'mock-model' },
  judges: [{ label: 'J', provider: 'p', model: 'mock-model' }],
});

describe('where a key may be sent', () => {
  it('refuses a key name that is not *_API_KEY, *_KEY or *_TOKEN, and sends nothing', async () => {
    const { core, mock, url } = await setup('web', () => ({ HOME: '/root' }));
    const err = await core
      .call('providers.testConnection', {
        name: 'p',
        provider: { kind: 'openai', apiKeyEnv: 'HOME', baseURL: url },
      })
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/apiKeyEnv: .*_API_KEY, _KEY or _TOKEN/);
    expect(mock.log).toHaveLength(0);
  });

  it('names the field and the rule when a config file uses another variable', () => {
    expect(() =>
      parseExperimentConfig({
        ...configFor('https://api.openai.com/v1', 1),
        providers: { p: { kind: 'openai', apiKeyEnv: 'AWS_SECRET_ACCESS' } },
      }),
    ).toThrow(/providers\.p\.apiKeyEnv.*_API_KEY, _KEY or _TOKEN/s);
  });

  it('through the web door, does not send a key to a base URL the user did not choose for it', async () => {
    const { core, mock, url } = await setup('web', () => ({ OPENAI_API_KEY: 'sk-real' }));
    const provider = { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseURL: url };
    await expect(core.call('providers.testConnection', { name: 'p', provider })).rejects.toThrow(
      /provider\.baseURL: OPENAI_API_KEY is only sent to .*OPENAI_BASE_URL/,
    );
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    await expect(core.call('experiments.create', { config: configFor(url, dataset.id) })).rejects.toThrow(
      /providers\.p\.baseURL: OPENAI_API_KEY is only sent/,
    );
    expect(mock.log).toHaveLength(0);
  });

  it('through the desktop window too', async () => {
    const { core, mock, url } = await setup('electron', () => ({ OPENAI_API_KEY: 'sk-real' }));
    const provider = { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseURL: url };
    await expect(core.call('providers.testConnection', { name: 'p', provider })).rejects.toThrow(
      /OPENAI_BASE_URL/,
    );
    expect(mock.log).toHaveLength(0);
  });

  it('sends the key to the server the user named in <NAME>_BASE_URL', async () => {
    const { core, mock, url } = await setup('web', (u) => ({
      OPENAI_API_KEY: 'sk-real',
      OPENAI_BASE_URL: `${u}/v1`,
    }));
    const provider = { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseURL: url };
    const r = await core.call('providers.testConnection', { name: 'p', provider });
    expect(r).toMatchObject({ ok: true });
    expect(mock.log.every((e) => e.authorized)).toBe(true);
  });

  it('refuses to start a stored experiment whose key would go elsewhere, and never sends it', async () => {
    const t = tempDir();
    mock = await startMockProvider({ apiKey: 'sk-real' });
    const url = `${mock.url}/v1`;
    const keys = new EnvOnlyKeyStore({ OPENAI_API_KEY: 'sk-real' });
    // The user's own config file, run from the command line, may name any server…
    const cli = new Core({ dataDir: t.dir, door: 'cli', keys });
    const { dataset } = await cli.call('datasets.loadSample', { sampleId: 'llmbar' });
    const { id } = await cli.call('experiments.create', {
      config: { ...configFor(url, dataset.id), limit: 1 },
    });
    cli.close();
    // …but the web app may not start it there without the user's say-so.
    core = new Core({ dataDir: t.dir, door: 'web', keys });
    cleanup = t.cleanup;
    await expect(core.call('experiments.start', { experimentId: id })).rejects.toThrow(/OPENAI_BASE_URL/);
    expect(mock.log).toHaveLength(0);
  });

  it('says why a key that is set is withheld from a server, instead of "not set"', () => {
    const cfg = {
      kind: 'openai',
      baseURL: 'http://127.0.0.1:9/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
    } as ProviderConfig;
    const page = scopedKeyStore(new EnvOnlyKeyStore({ OPENAI_API_KEY: 'sk-real' }));
    expect(page.get('p', cfg)).toBeUndefined();
    const why = missingKeyMessage('p', cfg, page);
    expect(why).toMatch(
      /^No API key for provider "p": OPENAI_API_KEY is only sent to .* set OPENAI_BASE_URL=/,
    );
    expect(why).not.toContain('sk-real');
    expect(why).not.toMatch(/is not set/);
    // A key that is really missing still says so.
    const none = scopedKeyStore(new EnvOnlyKeyStore({}));
    expect(missingKeyMessage('p', cfg, none)).toMatch(/OPENAI_API_KEY is not set/);
  });

  it('from the command line, sends the key where the config file says', async () => {
    const { core, url } = await setup('cli', () => ({ OPENAI_API_KEY: 'sk-real' }));
    const provider = { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseURL: url };
    expect(await core.call('providers.testConnection', { name: 'p', provider })).toMatchObject({ ok: true });
  });

  it('stores keys in the desktop app only under key-like names', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const crypto = {
      isAvailable: () => true,
      encrypt: (s: string) => Buffer.from(s),
      decrypt: (b: Buffer) => b.toString(),
    };
    const store = new EncryptedFileKeyStore(join(t.dir, 'keys.json'), crypto, {});
    expect(() => store.set('HOME', 'x')).toThrow(/name: "HOME" .*_API_KEY, _KEY or _TOKEN/);
    store.set('GROQ_API_KEY', 'gsk-1');
    expect(store.status().stored).toEqual(['GROQ_API_KEY']);
  });

  it('calls a key that is set but not sent to this server "withheld", never "missing" (issue 26 item 6)', async () => {
    const { core, url } = await setup('web', () => ({ FAKE_KEY: 'sk-real' }));
    const custom = { kind: 'openai', baseURL: url, apiKeyEnv: 'FAKE_KEY' };
    const status = await core.call('providers.keyStatus', {
      providers: { custom, none: { kind: 'openai', baseURL: url, apiKeyEnv: 'OTHER_KEY' } },
    });
    expect(status).toEqual({ custom: 'withheld', none: 'missing' });
  });

  it('calls it "set" once FAKE_BASE_URL names that server', async () => {
    const { core, url } = await setup('web', (u) => ({ FAKE_KEY: 'sk-real', FAKE_BASE_URL: `${u}/v1` }));
    const status = await core.call('providers.keyStatus', {
      providers: { custom: { kind: 'openai', baseURL: url, apiKeyEnv: 'FAKE_KEY' } },
    });
    expect(status).toEqual({ custom: 'set' });
  });

  it('lets a page store an address only with a key of its own: the environment’s key never goes there (issue 38)', async () => {
    // The environment's key is the user's; a token holder sets the same name with its own
    // server. The page's key goes there (its own), the environment's never does.
    mock = await startMockProvider({ apiKey: 'sk-real' });
    const t = tempDir();
    cleanup = t.cleanup;
    const url = `${mock.url}/v1`;
    const keys = new OwnerOnlyFileKeyStore(join(t.dir, 'serve-keys.json'), { OPENAI_API_KEY: 'sk-real' });
    core = new Core({ dataDir: t.dir, door: 'web', keys });
    const provider = { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseURL: url };
    // No address without a key: the schema wants the value with it.
    await expect(core.call('keys.set', { name: 'OPENAI_API_KEY', baseURL: url })).rejects.toThrow(/value/);
    await expect(core.call('providers.testConnection', { name: 'p', provider })).rejects.toThrow(
      /OPENAI_BASE_URL/,
    );
    expect(mock.log).toHaveLength(0);
    await core.call('keys.set', { name: 'OPENAI_API_KEY', value: 'sk-attacker', baseURL: url });
    const r = await core.call('providers.testConnection', { name: 'p', provider });
    expect(r.ok).toBe(false);
    expect(mock.log.length).toBeGreaterThan(0);
    expect(mock.log.some((e) => e.authorized)).toBe(false);
    // Removed, the environment's key is back, for the known servers only.
    await core.call('keys.delete', { name: 'OPENAI_API_KEY' });
    const n = mock.log.length;
    await expect(core.call('providers.testConnection', { name: 'p', provider })).rejects.toThrow(
      /OPENAI_BASE_URL/,
    );
    expect(mock.log).toHaveLength(n);
  });
});
