// `judge-lab serve` listens and prints its URL before the core has loaded (issue 27: the first
// page is static): a call made at once waits for the core and is answered, and a store the core
// cannot open still ends serve with the store's error and a failing exit code.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, ROOT, runCli, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());
beforeAll(() => assertBuilt());

describe('judge-lab serve before its core has loaded', () => {
  it('answers a call sent the moment the URL is printed', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const s = await startServe(join(t.dir, 'data'));
    try {
      const url = new URL(s.url);
      const res = await fetch(new URL('/api/call/datasets.list', url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${url.searchParams.get('token')}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, result: [] });
      const page = await fetch(s.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      await s.stop();
    }
  });

  it('ends with the store error when the store cannot be opened', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const data = join(t.dir, 'data');
    expect(runCli(['list', '--data-dir', data]).code).toBe(0);
    const db = new BetterSqlite3(join(data, 'judge-lab.sqlite'));
    db.prepare('INSERT INTO schema_migrations (version, name, app_version) VALUES (99, ?, ?)').run(
      'from the future',
      null,
    );
    db.close();
    const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', data], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(1);
    expect(stderr).toContain('was made by a newer release (schema 99');
  });
});
