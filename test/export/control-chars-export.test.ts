// Issue 22 item 1: a control character in a subset name made every figure fail to parse as XML
// after the calls were paid (no export folder, `export` failing forever), and model reasons with
// ANSI codes were written raw into judgments.csv, so `cat` replayed them. The dataset here is
// stored through the store (as a release before the importer refused such names did), judged by
// the official SDKs against the mock provider, whose reasons carry ANSI sequences.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { AppError } from '../../src/main/base/errors';
import { Core } from '../../src/main/facade/core';
import { writeExportFolder } from '../../src/main/report/export-folder';
import { insertDataset } from '../../src/main/store/datasets';
import type { Item } from '../../src/shared/domain';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';

const SUBSET = 'S\x1b[31m';
const ANSI_REASON = '\x1b[2J\x1b[31mred alert\x1b[0m\x07 and a C1 CSI \u009b1m';
// What no file may hold: C0 controls other than TAB, LF, CR; DEL; C1 controls.
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

let dir: string;
let cleanup: () => void;
let core: Core;
let mock: MockProvider;
let experimentId: number;

function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('judge-lab-control-'));
  core = new Core({
    dataDir: join(dir, 'data'),
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test-openai' }),
  });
  const ds = insertDataset(core.db, {
    name: 'hostile names',
    sourceFile: 'old.jsonl',
    format: 'llmbar-jsonl',
    contentHash: 'control-chars-test',
    items: [1, 2, 3, 4].map((i) => ({
      sourceId: `c-${i}`,
      subset: i % 2 ? SUBSET : 'Plain',
      instruction: `Say ${i} in words.`,
      output1: `${i} as a word`,
      output2: `not ${i}`,
      label: 1 as const,
    })),
  });
  const items = (await Promise.all(
    (await core.call('items.list', { datasetId: ds.id })).map((r) =>
      core.call('items.get', { itemId: r.id }),
    ),
  )) as Item[];
  const responder = judgeLsResponder(items);
  mock = await startMockProvider({
    respond: (req) => {
      const answer = responder.respond(req) as Record<string, unknown>;
      return 'reason' in answer ? { ...answer, reason: `${ANSI_REASON} ${String(answer.reason)}` } : answer;
    },
    wrapText: false,
  });
  const summary = await core.call('experiments.create', {
    config: {
      name: 'control-chars',
      protocol: 'judge-ls',
      dataset: ds.id,
      providers: {
        openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 8 },
      },
      transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
      judges: [{ label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' }],
      tieProbes: false,
    },
  });
  experimentId = summary.id;
  const final = await core.experiments.runToEnd(experimentId);
  expect(final.status).toBe('finished');
}, 180_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

describe('control characters in names and reasons', () => {
  it('exports every file, figures included, with the control characters shown as \\x1B', async () => {
    const out = join(dir, 'export');
    const r = await core.call('experiments.export', { experimentId, outDir: out });
    expect(r.figureFailures).toEqual([]);
    expect(r.files.some((f) => f.endsWith('.png'))).toBe(true);
    expect(r.files.some((f) => f.endsWith('.svg'))).toBe(true);
    for (const path of files(out)) {
      if (path.endsWith('.png')) continue;
      const bytes = readFileSync(path);
      // XLSX is a zip: look inside at its XML parts.
      const texts = path.endsWith('.xlsx')
        ? Object.values(unzipSync(bytes)).map((b) => Buffer.from(b).toString('utf8'))
        : [bytes.toString('utf8')];
      for (const text of texts) expect(CONTROL.test(text), path).toBe(false);
    }
    const csv = readFileSync(join(out, 'judgments.csv'), 'utf8');
    expect(csv).toContain('S\\x1B[31m');
    expect(csv).toContain('\\x1B[2J\\x1B[31mred alert\\x1B[0m\\x07 and a C1 CSI \\x9B1m');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.figures_failed).toEqual([]);
  }, 120_000);

  it('keeps the tables when a figure cannot be drawn, naming it in the manifest and the result', async () => {
    const out = join(dir, 'broken-figure');
    // A chart option whose drawing throws stands for any figure bug.
    const option = {
      get series(): never {
        throw new Error('this figure cannot be drawn');
      },
    };
    const bad = { id: 'broken', title: 'x', width: 100, height: 100, option };
    const ok = { id: 'fine', title: 'ok', width: 200, height: 100, option: { title: { text: 'ok' } } };
    const r = await writeExportFolder(out, {
      protocol: 'test',
      metrics: { a: 1 },
      metricsKeys: ['a'],
      tables: [
        {
          id: 't',
          title: 'T',
          caption: 'c',
          columns: [{ key: 'x', header: 'x', kind: 'text', align: 'l' }],
          rows: [{ x: 'v' }],
        },
      ],
      figures: [bad, ok] as never,
      manifest: { config: {}, promptTemplates: {}, models: [], counts: { items: 0, requests: 0 } },
    });
    expect(r.figureFailures.map((f) => `${f.id}.${f.format}`)).toEqual(['broken.svg']);
    expect(r.files).toEqual(
      expect.arrayContaining([
        'tables/t.csv',
        'tables/t.tex',
        'tables/tables.xlsx',
        'figures/fine.svg',
        'figures/fine.png',
      ]),
    );
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.figures_failed).toEqual([{ id: 'broken', format: 'svg', error: expect.any(String) }]);
  });

  it('refuses such a subset at import, naming the file, line and field', () => {
    const file = join(dir, 'new.jsonl');
    writeFileSync(
      file,
      JSON.stringify({ instruction: 'i', output_1: 'a', output_2: 'b', label: 1, subset: SUBSET }) + '\n',
    );
    let err: unknown;
    try {
      core.importFile(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('invalid_input');
    expect(e.message).toContain('new.jsonl');
    expect(e.issues[0]).toMatchObject({ line: 1, field: 'subset' });
    expect(e.issues[0].message).toContain('\\x1B');
  });
});
