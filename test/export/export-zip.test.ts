import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { mockKeys, startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('experiments.exportZip', () => {
  it('returns the whole export folder as one zip and leaves nothing behind in the data folder', async () => {
    env = await startLlmbarMock('web');
    const { core, mock, datasetId, dataDir } = env;
    // Run through the CLI door (its own config, unchecked); export through the web door.
    const cli = new Core({
      dataDir: dataDir,
      door: 'cli',
      keys: mockKeys(),
    });
    const exp = cli.experiments.createOrUpdate({
      name: 'zipped',
      protocol: 'judge-ls',
      dataset: datasetId,
      limit: 3,
      providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
      transform: { provider: 'o', model: 'gpt-4.1-mini' },
      judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
    });
    expect((await cli.experiments.runToEnd(exp.id)).status).toBe('finished');
    await cli.shutdown();

    const z = await core.call('experiments.exportZip', { experimentId: exp.id });
    expect(z).toMatchObject({ fileName: 'zipped.zip', mime: 'application/zip' });
    const files = unzipSync(Buffer.from(z.contentBase64, 'base64'));
    const names = Object.keys(files);
    expect(names).toEqual(
      expect.arrayContaining([
        'zipped/metrics.json',
        'zipped/judgments.csv',
        'zipped/manifest.json',
        'zipped/methods.md',
        'zipped/methods.tex',
        'zipped/checklist.md',
        'zipped/tables/quality.csv',
        'zipped/figures/accuracy_by_language.png',
      ]),
    );
    const metrics = JSON.parse(new TextDecoder().decode(files['zipped/metrics.json'])) as Record<
      string,
      unknown
    >;
    expect(metrics).toHaveProperty('quality');
    // The scratch folder is gone: the server keeps no copy.
    expect(readdirSync(join(dataDir, 'exports'))).toEqual([]);
  });
});
