// SQLite's page cache per connection (issue 39): `judge-lab run`, a process that runs one study and
// exits, asks for SQLite's own 2 MB instead of better-sqlite3's 16 MB (its pages stayed filled
// through the export, the run's peak); every other core keeps 16 MB. On a real store file.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

describe("the store connection's page cache", () => {
  it('is the size a core asks for, and better-sqlite3’s 16 MB when it asks none', async () => {
    const open = async (pageCacheKiB?: number) => {
      const core = new Core({
        dataDir: join(dir, 'data'),
        door: 'cli',
        keys: new EnvOnlyKeyStore({}),
        ...(pageCacheKiB === undefined ? {} : { pageCacheKiB }),
      });
      try {
        return core.db.pragma('cache_size', { simple: true });
      } finally {
        await core.shutdown();
      }
    };
    expect(await open(2000)).toBe(-2000);
    expect(await open()).toBe(-16000);
  });
});
