// Reuse: "Save config for the CLI" gives a file `judge-lab run` accepts as is (the dataset by
// name), and Duplicate makes a new draft with the same settings.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let mock: MockProvider | undefined;
let core: Core | undefined;
let cleanup = () => {};
afterEach(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup();
});
beforeAll(() => assertBuilt());

describe('reusing an experiment', () => {
  it('saves a config that judge-lab run accepts as is, continuing the experiment without paying again', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'web', keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }) });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const rows = await core.call('items.list', { datasetId: dataset.id });
    const items = (await Promise.all(rows.map((r) => core!.call('items.get', { itemId: r.id })))) as Item[];
    mock = await startMockProvider({ respond: judgeLsResponder(items).respond, wrapText: false });
    const cli = new Core({
      dataDir: t.dir,
      door: 'cli',
      keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }),
    });
    const exp = cli.experiments.createOrUpdate({
      name: 'reuse me',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 2,
      providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
      transform: { provider: 'o', model: 'gpt-4.1-mini' },
      judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
    });
    expect((await cli.experiments.runToEnd(exp.id)).status).toBe('finished');
    await cli.shutdown();
    const sent = mock.log.length;

    const saved = await core.call('experiments.cliConfig', { experimentId: exp.id });
    expect(saved).toMatchObject({ fileName: 'reuse me.json', mime: 'application/json' });
    const text = Buffer.from(saved.contentBase64, 'base64').toString('utf8');
    const config = JSON.parse(text) as Record<string, unknown>;
    // The dataset by name: an id means nothing outside this data folder.
    expect(config.dataset).toBe(dataset.name);
    expect(config).toMatchObject({ name: 'reuse me', protocol: 'judge-ls', limit: 2 });
    const file = join(t.dir, 'reuse.json');
    writeFileSync(file, text);
    await core.shutdown();
    core = undefined;
    const r = await runCliInProcess(['run', file, '--data-dir', t.dir, '--out', join(t.dir, 'out')], {
      MOCK_API_KEY: 'sk-test',
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    // Every answer was stored: nothing was sent again.
    expect(mock.log.length).toBe(sent);
  });

  it('duplicates an experiment as a new draft with the same settings and a free name', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'web', keys: new EnvOnlyKeyStore({}) });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const config = {
      name: 'pilot',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 5,
      providers: { openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY', rpm: 500 } },
      transform: { provider: 'openai', model: 'gpt-4.1-mini' },
      judges: [{ label: 'GPT', provider: 'openai', model: 'gpt-4.1-mini', temperature: 0 }],
    };
    const { id } = await core.call('experiments.create', { config });
    const copy = await core.call('experiments.duplicate', { experimentId: id });
    expect(copy).toMatchObject({
      name: 'pilot copy',
      status: 'draft',
      datasetId: dataset.id,
      judges: ['GPT'],
    });
    const detail = await core.call('experiments.get', { experimentId: copy.id });
    expect(detail.config).toEqual({
      ...((await core.call('experiments.get', { experimentId: id })).config as object),
      name: 'pilot copy',
    });
    expect((await core.call('experiments.duplicate', { experimentId: id })).name).toBe('pilot copy 2');
    expect((await core.call('experiments.duplicate', { experimentId: id, name: 'pilot v2' })).name).toBe(
      'pilot v2',
    );
    await expect(core.call('experiments.duplicate', { experimentId: id, name: 'a/b' })).rejects.toThrow(
      /name/,
    );
  });
});
