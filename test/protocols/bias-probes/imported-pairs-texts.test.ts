// Pairwise bias probes on answers a researcher imported (a CSV of pairs on disk) from the file to
// what the judge read, the results and texts.csv (issue 26 item 3): a real file, a real store,
// the official OpenAI client against the mock provider, whose log is the ground truth of each
// judging prompt. A bad row is refused naming the file, its line and the field, nothing stored.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { ALL, type BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { csvCell, readExportCsv as table } from '../../helpers/export-csv';
import { tempDir } from '../../helpers/tmp';
import { biasResponder, type PairRecord } from '../../mock-provider/bias-responder';
import { startMockProvider, type MockProvider } from '../../mock-provider/server';

// What a spreadsheet of pairs holds: quoted line breaks, quotes and commas, markup (text, not
// HTML), Chinese.
const PAIRS: PairRecord[] = [
  {
    id: 'p-1',
    instruction: 'Name two primes.',
    output_1: 'Two and three.\nBoth are prime, "obviously".',
    output_2: 'Four and six.',
    label: 1,
  },
  {
    id: 'p-2',
    instruction: 'Greet the reader politely.',
    output_1: 'Go away.',
    output_2: 'Hello, <b>dear</b> reader & welcome.',
    label: 2,
  },
  {
    id: 'p-3',
    instruction: '用一句话介绍北京。',
    output_1: '北京是中国的首都，历史悠久。',
    output_2: '北京在月球上。',
    label: 1,
  },
  {
    id: 'p-4',
    instruction: 'What is 2 + 2?',
    output_1: '5, I think',
    output_2: 'It is 4.\n\nSimple arithmetic.',
    label: 2,
  },
];

const csvOf = (rows: Record<string, string | number>[], header: string[]) =>
  [header.join(','), ...rows.map((r) => header.map((h) => csvCell(r[h] ?? '')).join(','))].join('\r\n') +
  '\r\n';
const HEADER = ['id', 'instruction', 'output_1', 'output_2', 'label'];

const JUDGE = { label: 'Mock judge', provider: 'mock', model: 'judge-model' };

let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
const responder = biasResponder(PAIRS);

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  mock = await startMockProvider({ latencyMs: [0, 0], respond: responder.respond, logBodies: false });
  core = new Core({ dataDir: dir, door: 'cli', keys: new EnvOnlyKeyStore({ MOCK_API_KEY: 'sk-test' }) });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

const importFile = (file: string) =>
  core.call('datasets.import', {
    fileName: file.split('/').pop()!,
    contentBase64: readFileSync(file).toString('base64'),
  });

describe('pairwise bias probes on imported pairs', () => {
  it('send each imported answer to the judge as written; results and texts.csv carry them', async () => {
    const file = join(dir, 'my pairs.csv');
    writeFileSync(file, csvOf(PAIRS as unknown as Record<string, string | number>[], HEADER));
    const { dataset } = await importFile(file);
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'imported pairs',
        protocol: 'bias-probes',
        dataset: dataset.id,
        mode: 'pairwise',
        probes: ['position', 'length'],
        providers: {
          mock: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY', concurrency: 4 },
        },
        rewriter: { provider: 'mock', model: 'rewriter-model' },
        judges: [JUDGE],
      },
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');

    // The judge read each imported pair, byte for byte, in both orders (the mock identifies a
    // text only by its exact words and throws on any other).
    const prompts = mock.log.filter((e) => e.model === JUDGE.model).map((e) => e.lastUser ?? '');
    for (const p of PAIRS) {
      const original = responder.verdicts.filter(
        (v) => v.itemId === p.id && v.a.condition === 'original' && v.b.condition === 'original',
      );
      expect(original.map((v) => v.a.slot).sort(), p.id).toEqual(['output_1', 'output_2']);
      expect(prompts.filter((u) => u.includes(p.output_1) && u.includes(p.output_2)).length).toBeGreaterThan(
        0,
      );
    }

    // The position row: its n and A rate are the mock's own verdicts on the original pairs.
    const metrics = (await core.call('experiments.results', { experimentId: id })).metrics as BiasMetrics;
    const logged = responder.verdicts.filter(
      (v) => v.model === JUDGE.model && v.a.condition === 'original' && v.b.condition === 'original',
    );
    // No categories in the file: one row, all items.
    expect(metrics.position.map((r) => r.category)).toEqual([ALL]);
    const [all] = metrics.position;
    expect(all.n).toBe(logged.length);
    expect(all.position_a_rate).toBeCloseTo(
      logged.filter((v) => v.winner === 'A').length / logged.length,
      12,
    );

    const out = join(dir, 'export');
    await core.call('experiments.export', { experimentId: id, outDir: out });
    const texts = table(out, 'texts.csv');
    for (const p of PAIRS)
      for (const slot of ['output_1', 'output_2'] as const) {
        const row = texts.find(
          (t) => t.item_id === p.id && t.response === slot && t.condition === 'original',
        );
        expect(row, `${p.id} ${slot}`).toBeDefined();
        expect(row!.text).toBe(p[slot]);
        expect(row!.instruction).toBe(p.instruction);
        expect(row!.rewritten).toBe('0');
      }
    // Every verdict joins its two texts on (item_id, condition), and every text is one the judge
    // was sent.
    const byKey = new Map<string, number>();
    for (const t of texts)
      byKey.set(`${t.item_id}|${t.condition}`, (byKey.get(`${t.item_id}|${t.condition}`) ?? 0) + 1);
    const judged = table(out, 'judgments.csv');
    expect(judged.length).toBeGreaterThan(0);
    for (const j of judged)
      expect(byKey.get(`${j.item_id}|${j.condition}`), `${j.item_id} ${j.condition}`).toBe(2);
    for (const t of texts)
      expect(
        prompts.some((u) => u.includes(t.text)),
        `${t.item_id} ${t.condition}`,
      ).toBe(true);
  }, 300_000);

  it('refuses a file with bad rows naming the file, the line and the field; nothing is stored', async () => {
    const file = join(dir, 'bad pairs.csv');
    writeFileSync(
      file,
      [
        HEADER.join(','),
        'b-1,Say hi.,Hi.,Hello.,1',
        'b-2,Say bye.,"Bye,\nfor now",,2',
        'b-3,Count.,One.,Two.,3',
      ].join('\n'),
    );
    const before = await core.call('datasets.list', undefined);
    const err = await importFile(file).then(
      () => null,
      (e: unknown) => e as { message: string; issues?: { file?: string; line?: number; field?: string }[] },
    );
    expect(err).not.toBeNull();
    expect(err!.message).toContain('bad pairs.csv');
    expect(err!.issues?.map((i) => [i.file, i.line, i.field])).toEqual([
      // The quoted answer runs over two lines: its row starts on line 3, the next on line 5.
      ['bad pairs.csv', 3, 'output_2'],
      ['bad pairs.csv', 5, 'label'],
    ]);
    expect(await core.call('datasets.list', undefined)).toEqual(before);
  });
});
