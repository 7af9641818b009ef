// Store faults through the real CLI: each ends with exit 1 and a message that names the file and
// says what to do (no SqliteError stack), and a damaged store is never written to. The CLI's entry
// runs in this process (`runCliInProcess`), except where the process is the point: another user's
// permissions and a file size limit.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, CHILD_WAIT_MS, ROOT, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
const ONE_ITEM = '{"id":"x1","instruction":"i","output_1":"a","output_2":"b","label":1}\n';
let root: string;
let cleanup: () => void;
let good: string; // a store with the LLMBar sample in it
let oneItem: string;

beforeAll(async () => {
  assertBuilt();
  ({ dir: root, cleanup } = tempDir());
  // Readable by the unprivileged user some cases run as.
  chmodSync(root, 0o755);
  good = join(root, 'good');
  expect((await runCliInProcess(['import', SAMPLE, '--data-dir', good])).code).toBe(0);
  oneItem = join(root, 'one.jsonl');
  writeFileSync(oneItem, ONE_ITEM);
  chmodSync(oneItem, 0o644);
});
afterAll(() => cleanup());

function copyOfGood(name: string): { dir: string; db: string } {
  const dir = join(root, name);
  mkdirSync(dir);
  copyFileSync(join(good, 'judge-lab.sqlite'), join(dir, 'judge-lab.sqlite'));
  return { dir, db: join(dir, 'judge-lab.sqlite') };
}

function expectExplained(r: { code: number | null; stderr: string }, path: string, what: RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toContain(path);
  expect(r.stderr).toMatch(what);
  expect(r.stderr).not.toMatch(/SqliteError|\n\s+at /);
}

/** Runs the CLI as an unprivileged user when we are root (root ignores file permissions). */
function runAsUser(args: string[]) {
  const asRoot = process.getuid?.() === 0;
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    env: { ...process.env, HOME: root },
    timeout: CHILD_WAIT_MS,
  });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('store faults through the CLI', () => {
  it('refuses to import into a store with 64 KB of garbage inside, leaving the file as it was', async () => {
    const { dir, db } = copyOfGood('garbage-inside');
    const bytes = readFileSync(db);
    // Inside the items' pages: the header and schema still read, so only a check notices.
    for (let i = 0; i < 65536; i++) bytes[400_000 + i] = (i * 7919) & 0xff;
    writeFileSync(db, bytes);
    const r = await runCliInProcess(['import', oneItem, '--data-dir', dir]);
    expectExplained(r, db, /damaged.*judge-lab doctor.*judge-lab restore/s);
    expect(readFileSync(db).equals(bytes)).toBe(true);
    expectExplained(await runCliInProcess(['list', '--data-dir', dir]), db, /damaged/);
  });

  it('explains a truncated store and a file of random bytes', async () => {
    const t = copyOfGood('truncated');
    writeFileSync(t.db, readFileSync(t.db).subarray(0, 5000));
    expectExplained(await runCliInProcess(['list', '--data-dir', t.dir]), t.db, /damaged/);
    const g = join(root, 'random');
    mkdirSync(g);
    writeFileSync(join(g, 'judge-lab.sqlite'), Buffer.alloc(65536, 0x5a));
    expectExplained(
      await runCliInProcess(['list', '--data-dir', g]),
      join(g, 'judge-lab.sqlite'),
      /not a Judge Lab data store/,
    );
  });

  it('explains a folder where the database file should be', async () => {
    const dir = join(root, 'folder-db');
    mkdirSync(join(dir, 'judge-lab.sqlite'), { recursive: true });
    expectExplained(
      await runCliInProcess(['list', '--data-dir', dir]),
      join(dir, 'judge-lab.sqlite'),
      /is a folder/,
    );
  });

  it('explains a read-only database file and a read-only data folder', async () => {
    const { dir, db } = copyOfGood('read-only-file');
    chmodSync(dir, 0o777);
    chmodSync(db, 0o444);
    expectExplained(runAsUser(['list', '--data-dir', dir]), db, /read-only.*chmod/s);
    const roDir = join(root, 'read-only-folder');
    mkdirSync(roDir, { mode: 0o555 });
    chmodSync(roDir, 0o555);
    expectExplained(runAsUser(['list', '--data-dir', roDir]), join(roDir, 'judge-lab.sqlite'), /Cannot open/);
  });

  it('explains a disk that fills up during an import, and keeps nothing of it', async () => {
    const dir = join(root, 'full');
    mkdirSync(dir);
    expect((await runCliInProcess(['import', oneItem, '--data-dir', dir])).code).toBe(0);
    // A file size limit makes writes fail the way a full disk does, without root or a small disk.
    const r = spawnSync(
      '/bin/sh',
      ['-c', `ulimit -f 400 && exec "${process.execPath}" "${BIN}" import "${SAMPLE}" --data-dir "${dir}"`],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expectExplained({ code: r.status, stderr: r.stderr }, join(dir, 'judge-lab.sqlite'), /full|failed/);
    const list = JSON.parse((await runCliInProcess(['list', '--json', '--data-dir', dir])).stdout);
    expect(list.datasets.map((d: { name: string }) => d.name)).toEqual(['one']);
  });
});

describe('doctor, backup and restore', () => {
  it('doctor says ok for a sound store and exits 1 naming the problem for a damaged one', async () => {
    const ok = await runCliInProcess(['doctor', '--data-dir', good]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Integrity check: ok/);
    const { dir, db } = copyOfGood('doctor-damaged');
    const bytes = readFileSync(db);
    bytes.fill(0x41, 400_000, 466_000);
    writeFileSync(db, bytes);
    const bad = await runCliInProcess(['doctor', '--data-dir', dir]);
    expect(bad.stdout).toMatch(/Integrity check found/);
    expectExplained(bad, db, /damaged/);
  });

  it('backs up with the online backup API and restores it, keeping the replaced store', async () => {
    const { dir } = copyOfGood('round-trip');
    const b = await runCliInProcess(['backup', '--data-dir', dir]);
    expect(b.code, b.stderr).toBe(0);
    const backup = /to (\S+\.sqlite)/.exec(b.stdout)![1];
    expect(existsSync(backup)).toBe(true);
    expect((await runCliInProcess(['import', oneItem, '--data-dir', dir])).code).toBe(0);
    const r = await runCliInProcess(['restore', backup, '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const names = JSON.parse(
      (await runCliInProcess(['list', '--json', '--data-dir', dir])).stdout,
    ).datasets.map((d: { name: string }) => d.name);
    expect(names).toEqual(['llmbar']);
    const kept = readdirSync(join(dir, 'backups')).filter((f) => f.includes('replaced-by-restore'));
    expect(kept).toHaveLength(1);
    // The replaced store still holds the dataset added after the backup: nothing is lost.
    const keptList = join(root, 'kept');
    mkdirSync(keptList);
    copyFileSync(join(dir, 'backups', kept[0]), join(keptList, 'judge-lab.sqlite'));
    const keptNames = JSON.parse(
      (await runCliInProcess(['list', '--json', '--data-dir', keptList])).stdout,
    ).datasets;
    expect(keptNames).toHaveLength(2);
  });

  it('refuses to restore a damaged backup and leaves the store as it was', async () => {
    const { dir, db } = copyOfGood('restore-refused');
    const before = readFileSync(db);
    const broken = join(root, 'broken-backup.sqlite');
    const bytes = Buffer.from(before);
    bytes.fill(0x41, 400_000, 466_000);
    writeFileSync(broken, bytes);
    const r = await runCliInProcess(['restore', broken, '--data-dir', dir]);
    expectExplained(r, broken, /damaged/);
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(existsSync(join(dir, 'backups'))).toBe(false);
  });
});
