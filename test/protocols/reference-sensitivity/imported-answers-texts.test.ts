// Imported answers (the `answers` key: a researcher's own CSV) from the file to what the judge
// read, the results and texts.csv (issue 26 item 3): a real CSV on disk, a real store, the
// official OpenAI client against the mock provider, whose log is the ground truth of what each
// judging prompt carried. A bad row is refused naming the file, its line and the field, and
// nothing is created.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import type { RefSensMetrics } from '../../../src/shared/protocols/reference-sensitivity/types';
import { csvCell, readExportCsv as table } from '../../helpers/export-csv';
import { tempDir } from '../../helpers/tmp';
import { refSensResponder, type QaRecord } from '../../mock-provider/refsens-responder';
import { startMockProvider, type MockProvider } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/tydiqa-en-ar-te.jsonl');
const items: QaRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as QaRecord);

// Answers a spreadsheet would hold: a quoted line break, quotes, a comma, markup (text, not
// HTML) and Arabic; two people's labels, one answer unlabelled, two "generators".
const ar = items.find((i) => i.language === 'ar')!;
const IMPORTED = [
  { item: items[0].id, generator: 'mine', answer: 'Amos and\nWilfrid Ayre, "brothers"', label: 'CORRECT' },
  { item: items[1].id, generator: 'mine', answer: '<b>1945</b> & later', label: 'INCORRECT' },
  { item: ar.id, generator: 'mine', answer: 'لا أعرف', label: '' },
  { item: items[0].id, generator: 'theirs', answer: 'Nobody, really.', label: 'incorrect' },
];

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
const responder = refSensResponder(items);

function config(answers: string, name = 'imported') {
  return {
    name,
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    providers: {
      openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 4 },
    },
    answers,
    parts: { calibration: false },
    judges: [{ label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini' }],
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  mock = await startMockProvider({ latencyMs: [0, 1], respond: responder.respond, logBodies: false });
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
  });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

describe('imported answers in reference sensitivity', () => {
  it('reach every judging prompt, the results, judgments.csv and texts.csv as written', async () => {
    const file = join(dir, 'my answers.csv');
    writeFileSync(
      file,
      [
        'item_id,generator,answer,human_label',
        ...IMPORTED.map((a) => [a.item, a.generator, csvCell(a.answer), a.label].join(',')),
      ].join('\r\n') + '\r\n',
    );
    const { id } = await core.call('experiments.create', { config: config(file) });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');

    // What the judge read: each imported answer, byte for byte, with its own question, once per
    // setting; nothing was generated.
    const question = (itemId: string) => items.find((i) => i.id === itemId)!.question;
    for (const a of IMPORTED) {
      const asked = responder.judgments.filter(
        (j) => j.answer === a.answer && j.question === question(a.item),
      );
      expect(asked.map((j) => j.setting).sort(), a.answer).toEqual(['NR', 'RC', 'RV']);
    }
    expect(responder.judgments).toHaveLength(IMPORTED.length * 3);
    expect(responder.generations).toHaveLength(0);

    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts).toMatchObject({ planned: IMPORTED.length * 3, failed: 0, pending: 0 });
    const metrics = results.metrics as RefSensMetrics;
    // Acceptance per generator: the mock's own verdicts on those answers.
    for (const generator of ['mine', 'theirs'])
      for (const setting of ['NR', 'RV', 'RC'] as const) {
        const mine = IMPORTED.filter((a) => a.generator === generator);
        const accepted = mine.filter(
          (a) =>
            responder.judgments.find(
              (j) => j.answer === a.answer && j.question === question(a.item) && j.setting === setting,
            )!.verdict === 'CORRECT',
        ).length;
        const rows = metrics.acceptance.filter(
          (r) => r.generator === generator && r.setting === setting && r.judge === 'GPT judge',
        );
        expect(rows.reduce((t, r) => t + r.n, 0)).toBe(mine.length);
        expect(rows.reduce((t, r) => t + r.accept_rate! * r.n, 0)).toBeCloseTo(accepted, 12);
      }
    // The people's labels (any case) are the reference of the human table: three labelled answers.
    for (const row of metrics.human.settings) expect(row.n).toBe(3);

    // The verdict browser shows the imported answer as the text judged.
    const verdicts = await core.call('experiments.verdicts', { experimentId: id });
    const onAnswers = verdicts.rows.filter((v) => v.fields.kind === 'answer');
    expect(onAnswers).toHaveLength(IMPORTED.length * 3);
    // The flips' pairs show the same answer.
    for (const v of verdicts.rows.filter((r) => r.fields.kind !== 'calibration'))
      expect(v.shown).toBe(
        IMPORTED.find((a) => a.item === v.sourceId && a.generator === v.fields.generator)!.answer,
      );

    const out = join(dir, 'export');
    await core.call('experiments.export', { experimentId: id, outDir: out });
    const texts = table(out, 'texts.csv');
    expect(texts.map((t) => [t.item_id, t.generator, t.source, t.answer, t.human_label, t.question])).toEqual(
      expect.arrayContaining(
        IMPORTED.map((a) => [
          a.item,
          a.generator,
          'imported',
          a.answer,
          a.label.toUpperCase(),
          question(a.item),
        ]),
      ),
    );
    expect(texts).toHaveLength(IMPORTED.length);
    // Every verdict joins its text on (item_id, generator), and its shown answer is that text.
    const byKey = new Map(texts.map((t) => [`${t.item_id}|${t.generator}`, t]));
    const judged = table(out, 'judgments.csv').filter((r) => r.kind === 'sensitivity');
    expect(judged).toHaveLength(IMPORTED.length * 3);
    for (const j of judged) expect(byKey.get(`${j.item_id}|${j.generator}`)!.answer).toBe(j.shown_answer);
  }, 300_000);

  it('refuses a bad row naming the file, the line and the field; nothing is created', async () => {
    const file = join(dir, 'bad answers.csv');
    writeFileSync(
      file,
      [
        'item_id,generator,answer,human_label',
        `${items[0].id},mine,fine,CORRECT`,
        `${items[1].id},,no generator,`,
        `${items[2].id},mine,"two`,
        `lines",perhaps`,
      ].join('\n'),
    );
    const before = await core.call('experiments.list', undefined);
    const err = await core.call('experiments.create', { config: config(file, 'bad') }).then(
      () => null,
      (e: unknown) => e as { message: string; issues?: { file?: string; line?: number; field?: string }[] },
    );
    expect(err).not.toBeNull();
    expect(err!.message).toContain('bad answers.csv');
    expect(err!.issues?.map((i) => [i.file, i.line, i.field])).toEqual([
      ['bad answers.csv', 3, 'generator'],
      // A quoted answer over two lines: the row starts on line 4.
      ['bad answers.csv', 4, 'human_label'],
    ]);
    expect(await core.call('experiments.list', undefined)).toEqual(before);
  });
});
