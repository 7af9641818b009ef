// Seeded fuzzing of the other files users hand the app (issue 22, "Done means"): QA and
// pointwise datasets, human label files, annotation packages and imported-answers files. Every
// case is malformed; each must be refused as bad input naming the file and where in it, with the
// store unchanged. In-process, through the calls the doors make. Tally per format: tried, refused
// cleanly, crashed (not a located user error), silently changed (accepted, or the store changed).
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/main/base/errors';
import { Core } from '../../src/main/facade/core';
import { allItems } from '../../src/main/store/datasets';
import { DB_FILE_NAME } from '../../src/main/store/db';
import {
  checkImportedItems,
  readImportedAnswers,
} from '../../src/main/protocols/reference-sensitivity/imported-answers';
import type { FuzzCase } from '../helpers/fuzz-inputs';
import {
  generateAnswersCases,
  generateLabelCases,
  generatePackageCases,
  generatePointwiseCases,
  generateQaCases,
  validPackage,
} from '../helpers/fuzz-formats';
import { storeDigest } from '../helpers/store-digest';
import { tempDir } from '../helpers/tmp';

const SEED = Number(process.env.FUZZ_SEED ?? 22);
const CASES = 110;
const SET_UID = 'fuzz-set-uid';

let dir: string;
let cleanup: () => void;
let core: Core;
let setId: number;
let qaItems: ReturnType<typeof allItems>;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('judge-lab-fuzz-formats-'));
  core = new Core({ dataDir: join(dir, 'data'), door: 'cli' });
  const qa = join(dir, 'qa.jsonl');
  writeFileSync(
    qa,
    Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({ id: `q${i + 1}`, question: `Q${i + 1}?`, answers: ['A'], language: 'en' }),
    ).join('\n') + '\n',
  );
  const { dataset } = core.importFile(qa, 'qa');
  qaItems = allItems(core.db, dataset.id);
  const opened = await core.call('annotation.importPackage', {
    fileName: 'valid.annotation.json',
    contentBase64: Buffer.from(JSON.stringify(validPackage(SET_UID))).toString('base64'),
  });
  if (opened.outcome !== 'imported') throw new Error('the valid package did not open');
  setId = opened.set.id;
});
afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

type Verdict = 'refused' | 'crashed' | 'changed';

async function tryCase(c: FuzzCase, run: (file: string) => unknown): Promise<{ v: Verdict; why: string }> {
  const file = join(dir, c.fileName);
  writeFileSync(file, c.bytes);
  const db = join(dir, 'data', DB_FILE_NAME);
  const before = storeDigest(db);
  let err: unknown;
  try {
    await run(file);
  } catch (e) {
    err = e;
  }
  if (storeDigest(db) !== before) return { v: 'changed', why: 'the store changed' };
  if (err === undefined) return { v: 'changed', why: 'accepted' };
  if (!(err instanceof AppError) || err.code === 'internal')
    return { v: 'crashed', why: String((err as Error)?.stack ?? err) };
  if (!err.message.includes(c.fileName)) return { v: 'crashed', why: `file not named: ${err.message}` };
  const located = err.issues.some(
    (i) => i.line !== undefined || i.row !== undefined || i.field !== undefined,
  );
  if (!located && !c.fileLevel) return { v: 'crashed', why: `no line, row or field: ${err.message}` };
  return { v: 'refused', why: '' };
}

async function fuzz(kind: string, cases: FuzzCase[], run: (file: string, c: FuzzCase) => unknown) {
  const results: ({ c: FuzzCase } & Awaited<ReturnType<typeof tryCase>>)[] = [];
  for (const c of cases) results.push({ c, ...(await tryCase(c, (file) => run(file, c))) });
  const n = (v: Verdict) => results.filter((r) => r.v === v).length;
  console.log(
    `fuzz ${kind} (seed ${SEED}): tried ${cases.length}, refused cleanly ${n('refused')}, ` +
      `crashed ${n('crashed')}, silently changed ${n('changed')}`,
  );
  expect(cases.length).toBeGreaterThanOrEqual(100);
  const bad = results.filter((r) => r.v !== 'refused');
  expect(bad.map((r) => `${r.c.fileName} [${r.c.name}]: ${r.v}: ${r.why.slice(0, 300)}`)).toEqual([]);
}

const b64 = (c: FuzzCase) => c.bytes.toString('base64');

describe(`fuzzed malformed files of every other format (seed ${SEED})`, () => {
  it('QA datasets', () => fuzz('qa', generateQaCases(SEED, CASES), (file) => core.importFile(file)));

  it('pointwise datasets', () =>
    fuzz('pointwise', generatePointwiseCases(SEED, CASES), (file) => core.importFile(file)));

  it('imported-answers files', () =>
    fuzz('answers', generateAnswersCases(SEED, CASES), (file, c) => {
      // As the run's config loading does: read the path, then check the items named.
      checkImportedItems(c.fileName, readImportedAnswers(file), qaItems);
    }));

  it('human label files', () =>
    fuzz('labels', generateLabelCases(SEED, CASES), (_file, c) =>
      core.call('annotation.importLabels', { setId, fileName: c.fileName, contentBase64: b64(c) }),
    ));

  it('annotation packages', () =>
    fuzz('packages', generatePackageCases(SEED, CASES, SET_UID), (_file, c) =>
      core.call('annotation.importPackage', { fileName: c.fileName, contentBase64: b64(c) }),
    ));
}, 300_000);
