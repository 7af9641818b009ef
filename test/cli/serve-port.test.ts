// Issue 26 item 6: `judge-lab serve` comes back on the port it had, so a page opened before a
// restart (to set FAKE_BASE_URL, say) keeps its origin: its address, its token and the wizard
// draft in its localStorage. A port taken meanwhile is not an error: another one is used.
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PORT_FILE_NAME } from '../../src/main/doors/serve-port';
import { assertBuilt, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let cleanup = () => {};
afterEach(() => cleanup());
const portOf = (url: string) => Number(new URL(url).port);

describe('judge-lab serve after a restart', () => {
  beforeAll(() => assertBuilt());

  it('listens on the port it had; another one when that is taken', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const a = await startServe(t.dir);
    await a.stop();
    expect(Number(readFileSync(join(t.dir, PORT_FILE_NAME), 'utf8').trim())).toBe(portOf(a.url));
    const b = await startServe(t.dir);
    await b.stop();
    expect(portOf(b.url)).toBe(portOf(a.url));

    // Someone else took it meanwhile: serve starts anyway, elsewhere, and remembers that port.
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(portOf(a.url), '127.0.0.1', () => r()));
    try {
      const c = await startServe(t.dir);
      await c.stop();
      expect(portOf(c.url)).not.toBe(portOf(a.url));
      expect(Number(readFileSync(join(t.dir, PORT_FILE_NAME), 'utf8').trim())).toBe(portOf(c.url));
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  }, 120_000);
});
