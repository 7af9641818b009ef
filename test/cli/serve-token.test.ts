// `judge-lab serve` keeps its access token across restarts, in an owner-only file, so a page
// opened before a restart keeps working.
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadServeToken, TOKEN_FILE_NAME } from '../../src/main/doors/serve-token';
import { assertBuilt, runCli, startServe } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

let cleanup = () => {};
afterEach(() => cleanup());
const tokenOf = (url: string) => new URL(url).searchParams.get('token');

describe('the stored serve token', () => {
  it('is created owner-only, read back the same, replaced on request, and refused when others can read it', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'tok');
    const first = loadServeToken(file);
    expect(first).toMatch(/^[\w-]{32}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadServeToken(file)).toBe(first);
    const fresh = loadServeToken(file, true);
    expect(fresh).not.toBe(first);
    expect(loadServeToken(file)).toBe(fresh);
    chmodSync(file, 0o644);
    expect(() => loadServeToken(file)).toThrow(/can be read by other users \(mode 644\); run chmod 600/);
    writeFileSync(file, 'short\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(() => loadServeToken(file)).toThrow(/tok: line 1: a token is at least 32 characters/);
  });
});

describe('judge-lab serve', () => {
  beforeAll(() => assertBuilt());

  it('prints the same token after a restart, kept in the data folder with mode 600', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const a = await startServe(t.dir);
    await a.stop();
    const b = await startServe(t.dir);
    await b.stop();
    expect(tokenOf(a.url)).toBe(tokenOf(b.url));
    expect(statSync(join(t.dir, TOKEN_FILE_NAME)).mode & 0o777).toBe(0o600);
    const c = await startServe(t.dir, ['--new-token']);
    await c.stop();
    expect(tokenOf(c.url)).not.toBe(tokenOf(a.url));
  });

  it('takes the token from --token-file, and refuses a file others can read', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'my-token');
    const token = 'A'.repeat(40);
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const s = await startServe(join(t.dir, 'data'), ['--token-file', file]);
    await s.stop();
    expect(tokenOf(s.url)).toBe(token);
    chmodSync(file, 0o640);
    const r = runCli(['serve', '--data-dir', join(t.dir, 'data'), '--token-file', file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `${file}: the token file can be read by other users (mode 640); run chmod 600`,
    );
  });
});
