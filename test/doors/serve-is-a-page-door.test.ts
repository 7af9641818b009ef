// `judge-lab serve` answers browser pages, so its core must apply the page-door checks
// (issue 9, items 7 and 9): a key only goes to the server configured with it, and no path
// outside the data folder is read or written. Before, serve opened its core as the CLI door.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { callApi, startServeWithEnv, type ServeHandle } from '../e2e/helpers/serve';

let server: ServeHandle;
let data: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;

beforeAll(async () => {
  assertBuilt();
  data = tempDir();
  outside = tempDir();
  server = await startServeWithEnv(data.dir, { EXFIL_API_KEY: 'sk-secret' });
});

afterAll(async () => {
  await server?.stop();
  data?.cleanup();
  outside?.cleanup();
});

describe('judge-lab serve', () => {
  it('reports itself as the web door', async () => {
    const info = await callApi<{ door: string }>(server, 'app.info', undefined);
    expect(info.door).toBe('web');
  });

  it('refuses to send a key to a server the user did not configure for it', async () => {
    await expect(
      callApi(server, 'providers.testConnection', {
        name: 'x',
        provider: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'EXFIL_API_KEY' },
      }),
    ).rejects.toThrow(/baseURL|EXFIL_BASE_URL/);
  });

  it('refuses a dataset path outside the data folder', async () => {
    const file = join(outside.dir, 'data.jsonl');
    copyFileSync(join(ROOT, 'resources', 'samples', 'llmbar.jsonl'), file);
    await expect(
      callApi(server, 'experiments.estimate', {
        config: {
          name: 'x',
          protocol: 'judge-ls',
          dataset: file,
          providers: { p: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' } },
          transform: { provider: 'p', model: 'm' },
          judges: [{ label: 'J', provider: 'p', model: 'm' }],
        },
      }),
    ).rejects.toThrow(/data folder/);
  });
});
