// A core on a fresh data folder with one bundled sample loaded, for the tests of one file: made
// before them (its hook registered where this is called, so a file's own hooks after it see it),
// shut down and removed after them.
import { afterAll, beforeAll } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from './tmp';

export interface SampleCore {
  /** Set once the file's first hook has run. */
  core: Core;
  /** The data folder (scratch files may go beside the store). */
  dir: string;
}

export function useSampleCore(sampleId: string): SampleCore {
  const env = {} as SampleCore;
  let cleanup: (() => void) | undefined;
  beforeAll(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    env.dir = t.dir;
    // No key: these files run the keyless simulated provider.
    env.core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
    await env.core.call('datasets.loadSample', { sampleId });
  });
  afterAll(async () => {
    await env.core?.shutdown();
    cleanup?.();
  });
  return env;
}
