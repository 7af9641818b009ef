// Hostile files at import: devices, pipes, oversized files, deep nesting, oversized texts and
// "__proto__" keys all end in a located exit-2 error, quickly, with nothing stored.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDatasetFromPath } from '../../src/main/datasets/service';
import { AppError } from '../../src/main/base/errors';
import { INPUT_LIMITS } from '../../src/main/base/input-limits';
import { assertBuilt, BIN, CHILD_WAIT_MS, ROOT } from '../helpers/cli';
import { storeCounts, tempDatabase } from './helpers';

const ITEM = { id: 'a', instruction: 'i', output_1: 'x', output_2: 'y', label: 1 };
let store: ReturnType<typeof tempDatabase>;
beforeAll(() => (store = tempDatabase()));
afterAll(() => store.close());

function refusal(path: string): AppError {
  try {
    importDatasetFromPath(store.db, path);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect(storeCounts(store.db)).toEqual({ datasets: 0, items: 0 });
    return err as AppError;
  }
  throw new Error(`${path} was imported`);
}

/** The CLI with a deadline: a FIFO or /dev/zero must not make it wait or grow. */
function cliWithin(args: string[], ms: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`judge-lab ${args.join(' ')} still running after ${ms} ms`));
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

describe('import limits', () => {
  it('refuses /dev/zero and a FIFO through the CLI with exit 2, without waiting', async () => {
    assertBuilt();
    const fifo = join(store.dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    for (const [file, kind] of [
      ['/dev/zero', /character device, not a regular file/],
      [fifo, /named pipe \(FIFO\), not a regular file/],
    ] as const) {
      // A give-up point (a Node start on a loaded machine), not a measure of how long it read.
      const r = await cliWithin(['import', file, '--data-dir', join(store.dir, 'cli')], CHILD_WAIT_MS);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(kind);
    }
  });

  it('refuses a file above the size limit before reading it', () => {
    const big = join(store.dir, 'big.jsonl');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, INPUT_LIMITS.datasetFileBytes + 1); // sparse: no disk used
    closeSync(fd);
    expect(refusal(big).message).toMatch(/big\.jsonl: file is 100 MiB, above the limit of 100 MiB/);
  });

  it('refuses nesting 20,000 levels deep in JSONL and JSON with the line and column', () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const jsonl = join(store.dir, 'deep.jsonl');
    writeFileSync(
      jsonl,
      JSON.stringify(ITEM) + '\n' + JSON.stringify({ ...ITEM, id: 'b' }).replace('"x"', deep) + '\n',
    );
    const e1 = refusal(jsonl);
    expect(e1.issues[0]).toMatchObject({ line: 2 });
    expect(e1.message).toMatch(/nested deeper than 64 levels \(the limit\), at column \d+/);
    const json = join(store.dir, 'deep.json');
    writeFileSync(json, `[\n${JSON.stringify(ITEM)},\n{"id":"b","instruction":${deep}}\n]`);
    const e2 = refusal(json);
    expect(e2.issues[0]).toMatchObject({ line: 3 });
    expect(e2.message).toMatch(/nested deeper than 64 levels/);
  });

  it('refuses a text field above the limit, naming the line and field', () => {
    const file = join(store.dir, 'huge-field.jsonl');
    writeFileSync(
      file,
      JSON.stringify({ ...ITEM, output_2: 'y'.repeat(INPUT_LIMITS.datasetTextChars + 1) }) + '\n',
    );
    const err = refusal(file);
    expect(err.issues[0]).toMatchObject({ line: 1, field: 'output_2' });
    expect(err.issues[0].message).toMatch(/1,000,001 characters, above the limit of 1,000,000/);
  });

  it('reports a "__proto__" key in a record instead of dropping it', () => {
    const file = join(store.dir, 'proto.jsonl');
    writeFileSync(
      file,
      `{"__proto__":{"label":2},"id":"a","instruction":"i","output_1":"x","output_2":"y","label":1}\n`,
    );
    const err = refusal(file);
    expect(err.issues[0]).toMatchObject({ line: 1, field: '__proto__' });
  });
});
