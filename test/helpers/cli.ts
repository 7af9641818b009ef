import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'judge-lab.mjs');

/** The CLI tests run the built, installed command; `npm test` builds first. */
export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
    throw new Error('out/main/cli.js is missing: run `npm run build` (npm test does) before these tests.');
  }
}

/**
 * How long a test waits for a child process to get somewhere (print its URL, send its first calls,
 * take its lock): a Node start loads the core bundle (~1.5 CPU-s), which takes many times that on a
 * loaded machine. A give-up point, never an expectation.
 */
export const CHILD_WAIT_MS = 120_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: CHILD_WAIT_MS,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The CLI as a child process that does not block the test (a mock provider in the same process
 * must keep answering): resolves with its exit code and output once it exits.
 */
export function runCliAsync(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** Starts `judge-lab serve` and resolves with its URL once it prints it. */
export function startServe(
  dataDir: string,
  args: string[] = [],
): Promise<{ url: string; pid: number; stderr: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let stopping = false;
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${err}`)), CHILD_WAIT_MS);
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveStart({
          url: m[1],
          pid: child.pid!,
          stderr: () => err,
          stop: () =>
            new Promise((done) => {
              stopping = true;
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code, signal) => {
      reject(new Error(`serve exited with ${code}: ${out}${err}`));
      // A server that dies under a test leaves only timeouts behind: its own words go to the log.
      if (!stopping)
        process.stderr.write(`judge-lab serve ended (code ${code}, signal ${signal}):\n${out}${err}\n`);
    });
  });
}

let inProcessTurn: Promise<unknown> = Promise.resolve();

/**
 * The CLI's own entry (`main(argv)` of src/main/cli.ts) run in this test's process, with what it
 * writes to stdout and stderr captured and `env` set for the call: for tests of what a command
 * does, not of the process (exit by signal, two processes on one store, the installed bin). It
 * saves a Node start and a load of the whole core per call, and the test's mock provider keeps
 * answering while the command runs. Calls take turns, so their output never mixes. Arguments as
 * `runCli`'s, and `cwd` (default: this process's).
 */
export function runCliInProcess(
  args: string[],
  env: Record<string, string> = {},
  opts: { cwd?: string } = {},
): Promise<CliResult> {
  const turn = inProcessTurn.then(async () => {
    const { main } = (await import(join(ROOT, 'out', 'main', 'cli.js'))) as {
      main: (argv: string[]) => Promise<number>;
    };
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const cwd = process.cwd();
    process.chdir(opts.cwd ?? ROOT);
    const out = { stdout: '', stderr: '' };
    const writers = { stdout: process.stdout.write, stderr: process.stderr.write };
    const capture = (name: 'stdout' | 'stderr') =>
      ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        out[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
        done?.();
        return true;
      }) as typeof process.stdout.write;
    process.stdout.write = capture('stdout');
    process.stderr.write = capture('stderr');
    try {
      const code = await main(args);
      return { code, ...out };
    } finally {
      process.stdout.write = writers.stdout;
      process.stderr.write = writers.stderr;
      process.chdir(cwd);
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
  inProcessTurn = turn.catch(() => undefined);
  return turn;
}
