import { spawn } from 'node:child_process';
import { BIN, CHILD_WAIT_MS, ROOT } from '../../helpers/cli';

export interface ServeHandle {
  /** The URL `serve` printed, with its token. */
  url: string;
  /** The server's origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  token: string;
  stop: () => Promise<void>;
  /** Kills the server at once (SIGKILL): no shutdown, as when the machine loses power. */
  kill: () => Promise<void>;
}

/**
 * Starts the built `judge-lab serve` with extra environment variables (the providers' apiKeyEnv
 * names): the web door reads keys from its environment only.
 */
export function startServeWithEnv(dataDir: string, env: Record<string, string>): Promise<ServeHandle> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`serve did not start: ${out}${err}`));
    }, CHILD_WAIT_MS);
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([\w-]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolveStart({
        url: `${m[1]}/?token=${m[2]}`,
        origin: m[1],
        token: m[2],
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
        kill: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}${err}`)));
  });
}

/**
 * One call of the web door's API, as the app's own client makes it. Each on a connection of its
 * own (`connection: close`): Node's fetch does not retry a POST, and one sent on a kept-alive
 * connection just as the server closed it as idle failed with ECONNRESET when the test's process
 * had been starved for seconds (CI at load ~18). A browser retries that case itself.
 */
export async function callApi<T>(server: ServeHandle, method: string, params: unknown): Promise<T> {
  const res = await fetch(`${server.origin}/api/call/${method}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      connection: 'close',
    },
    body: JSON.stringify({ params }),
  });
  const body = (await res.json()) as { ok: boolean; result?: T; error?: { message: string } };
  if (!res.ok || !body.ok) throw new Error(`${method}: ${res.status} ${body.error?.message ?? ''}`);
  return body.result as T;
}
