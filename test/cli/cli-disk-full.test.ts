// Issue 40 item 9: a full disk under --out (not the data folder's) is named as such, and leaves
// no partial file behind: no `.tmp`, no 0-byte methods.md, no staged export folder. And Ctrl+C
// while the data folder's disk is full (the real CLI run against the mock provider) ends with
// the disk named, no stack trace, and every answer received kept, so the resume pays for none
// twice. The full disks are real ones: small tmpfs mounts, filled up (needs root to mount;
// skipped otherwise, saying why).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider } from '../mock-provider/server';
import { assertBuilt, BIN, CHILD_WAIT_MS, ROOT, runCliAsync, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

let dir: string;
let full: string;
let cleanup: () => void;
let mounted = false;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  const core = new Core({ dataDir: join(dir, 'data'), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  try {
    await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'full-disk',
        protocol: 'judge-ls',
        dataset: 'LLMBar (sample)',
        limit: 4,
        providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 8 } },
        transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
        judges: [{ label: 'J', provider: 'sim', model: 'sim-judge-strong' }],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
  } finally {
    await core.shutdown();
  }
  full = join(dir, 'full');
  mkdirSync(full);
  mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', full]).status === 0;
  if (!mounted) return;
  for (const sub of ['methods', 'export']) mkdirSync(join(full, sub));
  // Filled to the last block: the write fails part-way, as a real full disk does.
  try {
    writeFileSync(join(full, 'filler'), Buffer.alloc(1024 * 1024));
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  }
}, 300_000);

afterAll(() => {
  if (mounted) spawnSync('umount', [full]);
  cleanup?.();
});

const data = () => ['--data-dir', join(dir, 'data')];

describe.skipIf(process.getuid?.() !== 0)('a full disk under --out', () => {
  it('methods: names the --out disk, leaves no .tmp and no 0-byte file, no stack trace', async () => {
    expect(mounted).toBe(true);
    const out = join(full, 'methods');
    const r = await runCliInProcess(['methods', 'full-disk', '--out', out, ...data()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Writing ${join(out, 'methods.md')} failed: the disk holding ${out} is full`);
    expect(r.stderr).not.toContain(join(dir, 'data'));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(out)).toEqual([]);
  });

  it('export: names the --out folder, leaves no staged folder behind', async () => {
    const out = join(full, 'export', 'results');
    const r = await runCliInProcess(['export', 'full-disk', '--out', out, ...data()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Writing ${out} failed: the disk holding ${join(full, 'export')} is full`);
    expect(r.stderr).not.toContain(join(dir, 'data'));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(join(full, 'export'))).toEqual([]);
  });
});

/** Every file under `root`, with its size (folders walked). */
function filesUnder(root: string): { path: string; size: number }[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => join(root, f))
    .filter((p) => statSync(p).isFile())
    .map((p) => ({ path: p, size: statSync(p).size }));
}

describe("Ctrl+C while the data folder's disk is full (judge-lab run, the mock provider)", () => {
  it('names that disk without a stack trace, leaves no partial file, and the resume pays for no answer twice', async (ctx) => {
    const mnt = join(dir, 'data-disk');
    mkdirSync(mnt);
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt], { encoding: 'utf8' });
    if (m.status !== 0) {
      console.warn(`skipped: cannot mount a tmpfs here (${(m.stderr || m.error?.message || '').trim()})`);
      ctx.skip();
    }
    const mock = await startMockProvider({
      respond: judgeLsResponder(llmbarSampleItems()).respond,
      latencyMs: [0, 0],
      wrapText: false,
    });
    try {
      const data = join(mnt, 'data');
      const out = join(dir, 'run-out');
      const cfg = join(dir, 'run-full.json');
      writeFileSync(
        cfg,
        JSON.stringify({
          name: 'run-full',
          protocol: 'judge-ls',
          dataset: LLMBAR_SAMPLE,
          limit: 6,
          providers: {
            openai: {
              kind: 'openai',
              baseURL: `${mock.url}/v1`,
              apiKeyEnv: 'MOCK_OPENAI_KEY',
              concurrency: 4,
            },
          },
          transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH'] },
          judges: [{ label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' }],
        }),
      );
      const args = ['run', cfg, '--out', out, '--data-dir', data];
      const env = { MOCK_OPENAI_KEY: 'sk-test-full' };
      // Answers wait at the mock until released: which ones arrive before and after the disk
      // fills is the test's choice, not the scheduler's.
      mock.hold();
      const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.stdout.resume();
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const wait = { timeout: CHILD_WAIT_MS };
      await expect.poll(() => mock.heldCount(), wait).toBe(4);
      mock.releaseHeld();
      await expect.poll(() => mock.heldCount(), wait).toBe(4);
      // The disk fills with 4 calls on the wire; their answers then arrive to a store that cannot take them.
      const free = statfsSync(mnt);
      try {
        writeFileSync(join(mnt, 'filler'), Buffer.alloc(free.bavail * free.bsize + 64 * 1024));
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
      }
      mock.releaseHeld();
      await expect.poll(() => stderr, wait).toMatch(/store write failed: database or disk is full; retrying/);
      await expect.poll(() => mock.log.every((e) => e.endedAt !== undefined), wait).toBe(true);
      const paidBeforeStop = mock.log.length;
      child.kill('SIGINT');
      const code = await exited;

      expect(code, stderr).toBe(1);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stderr).not.toMatch(/SqliteError|Uncaught/);
      expect(stderr).toContain(
        `Run did not finish: The disk holding ${join(data, 'judge-lab.sqlite')} is full (store write failed: database or disk is full; 4 answers kept in ${join(data, 'pending-answers')}`,
      );
      expect(stderr).not.toContain(out);
      expect(stderr).not.toContain('asked again');
      // Nothing half-written: no temp file, no empty file; the kept answers are a whole file.
      const left = filesUnder(data);
      expect(left.filter((f) => /\.tmp$|\.reserve$/.test(f.path))).toEqual([]);
      expect(left.filter((f) => f.size === 0 && !/-(wal|shm)$/.test(f.path))).toEqual([]);
      expect(left.filter((f) => f.path.includes('pending-answers')).map((f) => f.path)).toEqual([
        expect.stringMatching(/\.jsonl$/),
      ]);

      // Room again: the same command resumes, stores the kept answers first and sends the rest.
      rmSync(join(mnt, 'filler'));
      mock.stopHolding();
      const again = await runCliAsync(args, { env });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/stored 4 answers an earlier run received but could not write/);
      const db = new Database(join(data, 'judge-lab.sqlite'), { readonly: true });
      const stored = db.prepare("SELECT COUNT(*) AS n FROM requests WHERE status = 'done'").get() as {
        n: number;
      };
      db.close();
      // Each request paid once: as many calls as answers stored, the 8 before the stop among them.
      expect(paidBeforeStop).toBe(8);
      expect(mock.log.length).toBe(stored.n);
      expect(readdirSync(join(data, 'pending-answers'))).toEqual([]);
    } finally {
      await mock.close();
      spawnSync('umount', [mnt]);
    }
  });
});
