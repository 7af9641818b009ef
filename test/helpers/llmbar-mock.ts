// A core on a temp data folder with the LLMBar sample loaded, and the Judge-LS mock provider
// answering for it: the setup most integration tests of a Judge-LS run start from.
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { Item } from '../../src/shared/domain';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from './tmp';

export interface LlmbarMock {
  core: Core;
  mock: MockProvider;
  items: Item[];
  datasetId: number;
  dataDir: string;
  /** Shuts the core and the mock down and removes the data folder. */
  close(): Promise<void>;
}

/** The key the mock accepts, under the env name the test configs use (`MOCK_API_KEY`). */
export const mockKeys = () => new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' });

export async function startLlmbarMock(door: 'cli' | 'web' = 'cli'): Promise<LlmbarMock> {
  const t = tempDir();
  const core = new Core({ dataDir: t.dir, door, keys: mockKeys() });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = await core.call('items.list', { datasetId: dataset.id });
  const items = (await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })))) as Item[];
  const mock = await startMockProvider({ respond: judgeLsResponder(items).respond, wrapText: false });
  return {
    core,
    mock,
    items,
    datasetId: dataset.id,
    dataDir: t.dir,
    async close() {
      await core.shutdown();
      await mock.close();
      t.cleanup();
    },
  };
}
