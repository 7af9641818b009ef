// Issue 26 item 3: the texts each verdict was given travel with the results. Judge-LS writes
// texts.csv beside judgments.csv (one row per item and language, EN and each stored
// translation, a person's edit as edited), keyed by the columns judgments.csv has (item_id,
// language), so a spreadsheet joins them. Real core, SQLite on disk, simulated provider.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

let done: (() => Promise<void>) | undefined;
afterEach(async () => {
  await done?.();
  done = undefined;
});

const csv = (file: string) =>
  parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];

describe('texts.csv beside judgments.csv', () => {
  it('holds the text of every (item, language) a verdict names, the edited translation as edited', async () => {
    const t = tempDir();
    const core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
    done = async () => {
      await core.shutdown();
      t.cleanup();
    };
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
    const id = core.experiments.createOrUpdate({
      name: 'texts',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: 3,
      providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 8 } },
      transform: { provider: 'sim', model: 'sim-translator' },
      judges: [{ label: 'J', provider: 'sim', model: 'sim-judge-weak' }],
    }).id;
    await core.experiments.runToEnd(id);
    const variants = (await core.call('experiments.protocolView', {
      experimentId: id,
      view: 'variants',
    })) as {
      itemId: number;
      sourceId: string;
      language: string;
      instruction: string;
    }[];
    const edited = variants.find((v) => v.language === 'ZH')!;
    await core.call('experiments.protocolEdit', {
      experimentId: id,
      edit: 'variant',
      fields: {
        itemId: edited.itemId,
        language: 'ZH',
        instruction: '人工修改的指令',
        output1: '输出一',
        output2: '输出二',
      },
    });
    await core.experiments.runToEnd(id);

    const out = join(t.dir, 'export');
    const result = await core.experiments.export(id, out);
    expect(result.files).toContain('texts.csv');
    const judgments = csv(join(result.dir, 'judgments.csv'));
    const texts = csv(join(result.dir, 'texts.csv'));
    expect(Object.keys(texts[0])).toEqual([
      'item_id',
      'language',
      'instruction',
      'output_1',
      'output_2',
      'edited',
    ]);
    const byKey = new Map(texts.map((r) => [`${r.item_id}\u0000${r.language}`, r]));
    // Every quality verdict joins to the text it was given.
    for (const j of judgments.filter((r) => r.kind === 'quality'))
      expect(byKey.has(`${j.item_id}\u0000${j.language}`), `${j.item_id} ${j.language}`).toBe(true);
    const zh = byKey.get(`${edited.sourceId}\u0000ZH`)!;
    expect(zh).toMatchObject({
      instruction: '人工修改的指令',
      output_1: '输出一',
      output_2: '输出二',
      edited: '1',
    });
    const items = await core.call('items.list', { datasetId: dataset.id });
    const en = byKey.get(`${edited.sourceId}\u0000EN`)!;
    const item = await core.call('items.get', {
      itemId: items.find((i) => i.sourceId === edited.sourceId)!.id,
    });
    expect(en).toMatchObject({ instruction: item.instruction, output_1: item.output1, edited: '0' });
  }, 120_000);
});
