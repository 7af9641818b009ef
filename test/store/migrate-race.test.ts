// Two processes opening one new data folder at the same instant (issue 40 item 11): the
// one that loses the race must find the winner's migrations, not run them again and fail with
// "table … already exists". Each trial is a fresh folder; both children start on one signal.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { migrations } from '../../src/main/store/migrations';
import { bundleEntry } from '../queue/bundle';
import { tempDir } from '../helpers/tmp';

const TRIALS = 16;
const CHILDREN = 3;

let root: string;
let cleanup: () => void;
let childFile: string;
beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir());
  childFile = join(root, 'migrate-race-child.mjs');
  await bundleEntry(join(import.meta.dirname, 'migrate-race-child.ts'), childFile);
});
afterAll(() => cleanup());

async function trial(dataDir: string): Promise<{ code: number | null; out: string }[]> {
  mkdirSync(dataDir, { recursive: true });
  const go = join(dataDir, 'go');
  const runs = Array.from({ length: CHILDREN }, () => {
    const c = spawn(process.execPath, [childFile, dataDir, go], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const ready = new Promise<void>((r) =>
      c.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready\n')) r();
      }),
    );
    c.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<{ code: number | null; out: string }>((r) =>
      c.on('exit', (code) => r({ code, out })),
    );
    return { ready, exited };
  });
  await Promise.all(runs.map((r) => r.ready));
  writeFileSync(go, '');
  return Promise.all(runs.map((r) => r.exited));
}

describe('migrations across processes', () => {
  it(`${CHILDREN} processes opening one new store at once all succeed, ${TRIALS} trials`, async () => {
    for (let t = 0; t < TRIALS; t++) {
      const dataDir = join(root, `trial-${t}`);
      const results = await trial(dataDir);
      for (const r of results) {
        expect(r.out, `trial ${t}`).not.toMatch(/error|already exists|duplicate column/);
        expect(r.code, `trial ${t}: ${r.out}`).toBe(0);
      }
      // Each migration ran once: one row per version, the newest the release's.
      const db = new BetterSqlite3(join(dataDir, 'judge-lab.sqlite'), { readonly: true });
      const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as {
        version: number;
      }[];
      db.close();
      expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version).sort((a, b) => a - b));
    }
  }, 600_000);
});
