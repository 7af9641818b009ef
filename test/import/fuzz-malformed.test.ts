// Seeded fuzzing of the two inputs users hand the app: dataset files (import) and experiment
// configs (run). Every generated case is malformed; each must be refused as bad input (exit 2),
// with a message naming the file and where in it, and leave the store exactly as it was.
// Most cases run in-process through the same calls the CLI makes; a sample runs the real CLI's
// entry (two of them as processes of their own).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { attributeToConfigFile } from '../../src/main/import/config-file';
import { AppError } from '../../src/main/base/errors';
import { loadExperimentConfig } from '../../src/main/experiments/config';
import { DB_FILE_NAME } from '../../src/main/store/db';
import { assertBuilt, BIN, ROOT, runCliInProcess } from '../helpers/cli';
import { generateConfigCases, generateDatasetCases, type FuzzCase } from '../helpers/fuzz-inputs';
import { storeDigest } from '../helpers/store-digest';
import { tempDir } from '../helpers/tmp';

const SEED = Number(process.env.FUZZ_SEED ?? 9);
const DATASET_CASES = 126;
const CONFIG_CASES = 120;
const CLI_SAMPLE = 20;
const VALID_DATASET =
  '{"id":"v1","instruction":"Say hi.","output_1":"hi","output_2":"bye","label":1}\n' +
  '{"id":"v2","instruction":"Add 2+2.","output_1":"5","output_2":"4","label":2}\n';

let dir: string;
let cleanup: () => void;
let dataDir: string;
let core: Core;

beforeAll(() => {
  ({ dir, cleanup } = tempDir('judge-lab-fuzz-'));
  dataDir = join(dir, 'data');
  writeFileSync(join(dir, 'data.jsonl'), VALID_DATASET);
  core = new Core({ dataDir, door: 'cli' });
  // The store holds data, and the configs' dataset is already in it (a re-import adds nothing).
  core.importFile(join(dir, 'data.jsonl'), 'valid');
});
afterAll(async () => {
  await core?.shutdown();
  cleanup();
});

type Verdict = { ok: true } | { ok: false; why: string };

const LOCATION = /:\d+|row \d+|field "|line \d+/;

/** What the CLI would do with the error: exit 2 for a user error, 1 for anything else. */
function judge(c: FuzzCase, file: string, err: unknown, before: string): Verdict {
  const after = storeDigest(join(dataDir, DB_FILE_NAME));
  if (after !== before) return { ok: false, why: 'the store changed' };
  if (err === undefined) return { ok: false, why: 'accepted' };
  if (!(err instanceof AppError))
    return { ok: false, why: `crashed: ${String((err as Error)?.stack ?? err)}` };
  if (err.code === 'internal') return { ok: false, why: `exit 1: ${err.message}` };
  const names = [basename(file), 'data.jsonl'];
  if (!names.some((n) => err.message.includes(n)))
    return { ok: false, why: `message does not name the file: ${err.message}` };
  const located = err.issues.some(
    (i) => i.line !== undefined || i.row !== undefined || i.field !== undefined,
  );
  if (!located && !c.fileLevel) return { ok: false, why: `no line, row or field: ${err.message}` };
  return { ok: true };
}

function tryCase(c: FuzzCase, run: (file: string) => unknown): Verdict {
  const file = join(dir, c.fileName);
  writeFileSync(file, c.bytes);
  const before = storeDigest(join(dataDir, DB_FILE_NAME));
  let error: unknown;
  try {
    run(file);
  } catch (err) {
    error = err;
  }
  return judge(c, file, error, before);
}

function tally(kind: string, cases: FuzzCase[], verdicts: Verdict[]) {
  const bad = cases.map((c, i) => ({ c, v: verdicts[i] })).filter((x) => !x.v.ok);
  const crashed = bad.filter((x) => !x.v.ok && /crashed|exit 1/.test(x.v.why)).length;
  console.log(
    `fuzz ${kind} (seed ${SEED}): tried ${cases.length}, refused cleanly ${cases.length - bad.length}, ` +
      `crashed ${crashed}, other failures ${bad.length - crashed}`,
  );
  return bad.map((x) => `${x.c.fileName} [${x.c.name}]: ${x.v.ok ? '' : x.v.why.slice(0, 400)}`);
}

describe(`fuzzed malformed inputs (seed ${SEED})`, () => {
  it(`refuses ${DATASET_CASES} malformed datasets cleanly, naming file and location, store unchanged`, () => {
    const cases = generateDatasetCases(SEED, DATASET_CASES);
    const verdicts = cases.map((c) => tryCase(c, (file) => core.importFile(file)));
    expect(tally('datasets', cases, verdicts)).toEqual([]);
  });

  it(`refuses ${CONFIG_CASES} malformed configs cleanly, naming file and key or line, store unchanged`, () => {
    const cases = generateConfigCases(SEED, CONFIG_CASES, 'data.jsonl');
    const verdicts = cases.map((c) =>
      tryCase(c, (file) => {
        // The CLI's run, up to the point where it would start sending.
        const { config } = loadExperimentConfig(file);
        attributeToConfigFile(file, () => core.experiments.createOrUpdate(config));
      }),
    );
    expect(tally('configs', cases, verdicts)).toEqual([]);
  });

  it(`gives exit 2 and a located message through the real CLI for a sample of ${CLI_SAMPLE}`, async () => {
    assertBuilt();
    const cliDir = join(dir, 'cli-cases');
    mkdirSync(cliDir);
    const datasets = generateDatasetCases(SEED + 1, 40).filter((c) => c.bytes.length < 200_000);
    const configs = generateConfigCases(SEED + 1, 40, join(dir, 'data.jsonl')).filter(
      (c) => c.bytes.length < 200_000,
    );
    const sample = [
      ...datasets.slice(0, CLI_SAMPLE / 2).map((c) => ({ c, cmd: 'import' })),
      ...configs.slice(0, CLI_SAMPLE / 2).map((c) => ({ c, cmd: 'run' })),
    ];
    const before = storeDigest(join(dataDir, DB_FILE_NAME));
    const failures: string[] = [];
    // The CLI's entry in this process for most of them (its messages and exit codes are all in
    // `main`); one import and one run go through the installed command as a process of its own.
    const viaProcess = new Set([sample[0], sample[CLI_SAMPLE / 2]]);
    for (const next of sample) {
      const file = join(cliDir, next.c.fileName);
      writeFileSync(file, next.c.bytes);
      const args = [next.cmd, file, '--data-dir', dataDir];
      const r = viaProcess.has(next) ? await runCliProcess(args) : await runCliInProcess(args);
      const problem =
        r.code !== 2
          ? `exit ${r.code}`
          : !r.stderr.includes(basename(file)) && !r.stderr.includes('data.jsonl')
            ? 'file not named'
            : !next.c.fileLevel && !LOCATION.test(r.stderr)
              ? 'no location'
              : /\n\s+at /.test(r.stderr)
                ? 'stack trace'
                : undefined;
      if (problem)
        failures.push(`${next.c.fileName} [${next.c.name}]: ${problem}: ${r.stderr.slice(0, 300)}`);
    }
    console.log(
      `fuzz CLI sample: tried ${sample.length}, refused cleanly ${sample.length - failures.length}`,
    );
    expect(failures).toEqual([]);
    expect(storeDigest(join(dataDir, DB_FILE_NAME))).toBe(before);
  }, 180_000);
});

function runCliProcess(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}
