// Planning and input checks of the reference-sensitivity protocol through the core: the C2
// wrong answer (deterministic, disjoint, same language), config errors that name the key,
// imported answers with located errors and an unchanged store, and the refusal of
// non-QA datasets.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { estimateTasks } from '../../../src/main/experiments/estimate';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import type { CostEstimate } from '../../../src/shared/experiments';
import { answersOverlap } from '../../../src/main/protocols/reference-sensitivity/normalize';
import { pickWrongAnswers } from '../../../src/main/protocols/reference-sensitivity/plan';
import type { QaItem } from '../../../src/main/protocols/reference-sensitivity/qa-item';
import { tempDir } from '../../helpers/tmp';

let core: Core;
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({ dataDir: dir, door: 'cli', keys: new EnvOnlyKeyStore({ MOCK_KEY: 'sk' }) });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
});
afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

function config(extra: Record<string, unknown> = {}) {
  return {
    name: 'rs',
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    providers: { p: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MOCK_KEY' } },
    generators: [{ label: 'gen', provider: 'p', model: 'm' }],
    judges: [{ label: 'judge', provider: 'p', model: 'm' }],
    ...extra,
  };
}

const qa = (sourceId: string, answers: string[], language = 'en'): QaItem => ({
  id: 0,
  sourceId,
  question: `${sourceId}?`,
  answers,
  language,
  context: null,
  category: null,
});

describe('the wrong answer for C2', () => {
  const items = [
    qa('a', ['King George VI']),
    qa('b', ['George VI']),
    qa('c', ['Paris']),
    qa('d', ['P.A.R.I.S']),
    qa('e', ['1944']),
    qa('f', ['القاهرة'], 'ar'),
    qa('g', ['الرياض'], 'ar'),
  ];

  it('is another item of the same language sharing nothing after NFKC/case/punctuation/space folding', () => {
    for (const seed of [0, 1, 2, 3, 99]) {
      const picks = pickWrongAnswers(items, seed);
      for (const item of items) {
        const w = picks.get(item.sourceId)!;
        expect(w.sourceId).not.toBe(item.sourceId);
        expect(w.language).toBe(item.language);
        expect(answersOverlap(item.answers, w.answers)).toBe(false);
      }
      expect(picks.get('a')!.sourceId).not.toBe('b'); // "George VI" is inside "King George VI"
      expect(picks.get('c')!.sourceId).not.toBe('d'); // "P.A.R.I.S" folds to "paris"
    }
    expect(answersOverlap(['ＰＡＲＩＳ'], ['paris'])).toBe(true); // NFKC folds full-width letters
  });

  it('is the same on a re-run with the same seed and changes with the seed', () => {
    const one = [...pickWrongAnswers(items, 5)].map(([k, v]) => [k, v?.sourceId]);
    expect([...pickWrongAnswers(items, 5)].map(([k, v]) => [k, v?.sourceId])).toEqual(one);
    const seeds = [0, 1, 2, 3, 4, 5, 6, 7].map((s) => pickWrongAnswers(items, s).get('e')!.sourceId);
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });

  it('is absent when every other item of the language overlaps', () => {
    expect(pickWrongAnswers([qa('x', ['Paris']), qa('y', ['paris!'])], 0).get('x')).toBeNull();
  });
});

describe('config and inputs', () => {
  it('estimates the calls of every stage (C2 only where a wrong answer exists)', async () => {
    const est = await core.call('experiments.estimate', { config: config() });
    // 450 generations + 450 C1 + 450 C2 + 450 answers × 3 settings
    expect(est.calls).toBe(450 + 900 + 1350);
    const kinds = est.rows.map((r) => r.kind).sort();
    expect(kinds).toEqual(['C1', 'C2', 'NR', 'RC', 'RV', 'generate'].sort());
  });

  it("prices the stand-in verdicts once for all generators, to the same figures as every generator's", async () => {
    const file = join(dir, 'some-answers.jsonl');
    writeFileSync(
      file,
      [
        { item_id: 'english-5888115353945373749-2', generator: 'mine', answer: 'Amos Ayre' },
        { item_id: 'english--5162675390402100235-0', generator: 'mine', answer: '1945' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const raw = config({
      providers: {
        p: { kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MOCK_KEY' },
        a: { kind: 'anthropic', baseURL: 'http://127.0.0.1:9', apiKeyEnv: 'MOCK_KEY' },
      },
      generators: ['g1', 'g2', 'g3'].map((label, i) => ({ label, provider: i ? 'a' : 'p', model: 'm' })),
      judges: [
        { label: 'j1', provider: 'a', model: 'claude-sonnet-4-5' },
        { label: 'j2', provider: 'p', model: 'gpt-4o-mini' },
      ],
      answers: file,
      noiseFloor: true,
      // Long enough to be cached: the first call on it writes the cache, the others read it.
      templates: { judgeSystem: 'Grade the answer with care and give a verdict. '.repeat(150) },
      limit: 60,
      // Without calibration the first call on the judge's prompt is a stand-in's verdict.
      parts: { calibration: false },
    });
    const exp = core.experiments.catalogue.draft(raw);
    const grouped = exp.protocol.estimatePlan(exp.view, core.db, null, true);
    const slots = exp.protocol.estimatePlan(exp.view, core.db, null);
    expect(grouped.tasks.length).toBeLessThan(slots.tasks.length);
    const perSlot = estimateTasks(core.db, exp, slots.tasks, slots.note, slots.fresh);
    const est = await core.call('experiments.estimate', { config: raw });
    const rounded = (e: CostEstimate) => e.rows.map((r) => ({ ...r, costUsd: r.costUsd.toFixed(12) }));
    expect(rounded(est)).toEqual(rounded(perSlot));
    expect(est.calls).toBe(perSlot.calls);
    expect(est.costUsd).toBeCloseTo(perSlot.costUsd, 12);
    expect(est.minutesAtRateLimits).toBeCloseTo(perSlot.minutesAtRateLimits, 12);
    expect(est.rows.find((r) => r.label === 'j1' && r.kind === 'NR')).toMatchObject({
      calls: 3 * 60 + 2,
      costUsd: expect.any(Number),
      priced: true,
    });
  });

  it('runs only the parts and settings asked for, in the languages asked for', async () => {
    const est = await core.call('experiments.estimate', {
      config: config({ parts: { calibration: false, settings: ['RC', 'NR'] }, languages: ['te'], limit: 20 }),
    });
    expect(est.calls).toBe(20 + 20 * 2);
  });

  it('names the key of config errors', async () => {
    await expect(core.call('experiments.estimate', { config: config({ transform: {} }) })).rejects.toThrow(
      /transform: unknown key/,
    );
    await expect(
      core.call('experiments.estimate', {
        config: config({ judges: [{ label: 'gen', provider: 'p', model: 'm' }] }),
      }),
    ).rejects.toThrow(/generators\[0\]\.label: duplicate label "gen"/);
    await expect(
      core.call('experiments.estimate', { config: config({ generators: undefined }) }),
    ).rejects.toThrow(/generators: sensitivity needs generators or an "answers" file/);
    await expect(
      core.call('experiments.estimate', {
        config: config({ templates: { judgeUserRV: 'Q: {{question}} A: {{answer}}' } }),
      }),
    ).rejects.toThrow(/templates\.judgeUserRV: missing placeholder \{\{reference\}\}/);
  });

  it('refuses a pairwise dataset with a clear error', async () => {
    await expect(
      core.call('experiments.estimate', { config: config({ dataset: 'LLMBar (sample)' }) }),
    ).rejects.toThrow(/not a QA item .* needs a QA dataset/);
  });

  it('judges imported answers, with human labels', async () => {
    const file = join(dir, 'answers.jsonl');
    writeFileSync(
      file,
      [
        {
          item_id: 'english-5888115353945373749-2',
          generator: 'mine',
          answer: 'Amos and Wilfrid Ayre',
          human_label: 'CORRECT',
        },
        {
          item_id: 'english--5162675390402100235-0',
          generator: 'mine',
          answer: '1945',
          human_label: 'incorrect',
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const est = await core.call('experiments.estimate', {
      config: config({ generators: undefined, answers: file, parts: { calibration: false } }),
    });
    expect(est.calls).toBe(2 * 3);
  });

  it('rejects imported answers for unknown items and bad labels, naming line and field; the store is unchanged', async () => {
    const file = join(dir, 'bad-answers.jsonl');
    writeFileSync(
      file,
      [
        { item_id: 'english-5888115353945373749-2', generator: 'mine', answer: 'x' },
        { item_id: 'no-such-item', generator: 'mine', answer: 'x' },
        { item_id: 'english--5162675390402100235-0', generator: 'mine', answer: 'y', human_label: 'maybe' },
        { item_id: 'english--5162675390402100235-0', generator: 'mine' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const before = await core.call('experiments.list', undefined);
    const err = await core
      .call('experiments.create', { config: config({ name: 'bad', answers: file }) })
      .then(() => ({ message: 'created', issues: [] }))
      .catch((e: unknown) => e as { message: string; issues?: { line?: number; field?: string }[] });
    expect(err.message).toMatch(/bad-answers\.jsonl/);
    expect(err.issues?.map((i: { line?: number; field?: string }) => [i.line, i.field])).toEqual([
      [3, 'human_label'],
      [4, 'answer'],
      [4, 'item_id'], // the same generator's answer to that item again
    ]);
    writeFileSync(file, JSON.stringify({ item_id: 'no-such-item', generator: 'mine', answer: 'x' }) + '\n');
    const err2 = await core
      .call('experiments.create', { config: config({ name: 'bad', answers: file }) })
      .then(() => ({ message: 'created', issues: [] }))
      .catch(
        (e: unknown) =>
          e as { message: string; issues?: { line?: number; field?: string; message: string }[] },
      );
    expect(err2.message).toMatch(/no item/);
    expect((err2 as { issues?: unknown[] }).issues).toEqual([
      expect.objectContaining({
        line: 1,
        field: 'item_id',
        message: 'no item "no-such-item" in the dataset',
      }),
    ]);
    expect(await core.call('experiments.list', undefined)).toEqual(before);
  });

  it('reads imported answers from CSV (quoted multi-line answers, optional human_label)', async () => {
    const file = join(dir, 'answers.csv');
    writeFileSync(
      file,
      [
        'Item_ID,generator,answer,human_label',
        'english-5888115353945373749-2,mine,"Amos and\nWilfrid Ayre, brothers",CORRECT',
        'english--5162675390402100235-0,mine,1945,',
        'english--5162675390402100235-0,other,"He said ""1944""",incorrect',
      ].join('\r\n'),
    );
    const est = await core.call('experiments.estimate', {
      config: config({ generators: undefined, answers: file, parts: { calibration: false } }),
    });
    expect(est.calls).toBe(3 * 3);
  });

  it('rejects a CSV of answers with an unknown item, an empty answer or a bad label, naming the line; nothing is created', async () => {
    const file = join(dir, 'bad-answers.csv');
    const before = await core.call('experiments.list', undefined);
    const create = () =>
      core
        .call('experiments.create', { config: config({ name: 'bad-csv', answers: file }) })
        .then(() => ({
          message: 'created',
          issues: [] as { line?: number; field?: string; message: string }[],
        }))
        .catch(
          (e: unknown) =>
            e as { message: string; issues: { line?: number; field?: string; message: string }[] },
        );

    writeFileSync(
      file,
      [
        'item_id,generator,answer,human_label',
        'english-5888115353945373749-2,mine,"two\nlines",CORRECT',
        'english--5162675390402100235-0,mine,,',
        'english--5162675390402100235-0,other,y,maybe',
      ].join('\n'),
    );
    const err = await create();
    expect(err.message).toMatch(/bad-answers\.csv/);
    expect(err.issues.map((i) => [i.line, i.field, i.message])).toEqual([
      [4, 'answer', 'is missing'],
      [5, 'human_label', 'must be CORRECT or INCORRECT, got "maybe"'],
    ]);

    writeFileSync(
      file,
      'item_id,generator,answer\nenglish-5888115353945373749-2,mine,x\nno-such-item,mine,x\n',
    );
    const unknown = await create();
    expect(unknown.issues).toEqual([
      expect.objectContaining({
        line: 3,
        field: 'item_id',
        message: 'no item "no-such-item" in the dataset',
      }),
    ]);

    writeFileSync(file, 'item,generator,answer\nx,mine,y\n');
    const header = await create();
    expect(header.issues).toEqual([
      expect.objectContaining({
        line: 1,
        message: expect.stringMatching(/missing required column "item_id"/),
      }),
    ]);
    expect(await core.call('experiments.list', undefined)).toEqual(before);
  });
});
