// The API contract names no protocol (issue 21): a protocol's rows, edits and prompt previews
// cross the doors through generic methods by name. These read the contract's source and call
// the generic routes on a real store, so a protocol-shaped method or type fails here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../src/shared/api';
import { rowReader } from '../../src/shared/protocol-rows';
import { listProtocols } from '../../src/main/protocols';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

const CONTRACT = [
  'src/shared/api.ts',
  'src/shared/api/methods.ts',
  'src/shared/api/annotation-methods.ts',
  'src/shared/experiments.ts',
  'src/shared/protocol-rows.ts',
];

describe('the API contract', () => {
  it('names no registered protocol, in its methods or its types', () => {
    const words = listProtocols().flatMap((p) => [p.id, p.title]);
    for (const file of CONTRACT) {
      const text = readFileSync(file, 'utf8');
      for (const w of words) expect(text, `${file} names ${w}`).not.toContain(w);
    }
    for (const m of METHOD_NAMES) expect(m).not.toMatch(/variant|judgment|flip|repeat/i);
  });

  it('a row reader refuses an answer that is not a list of its rows, naming the field', () => {
    const reader = rowReader<{ itemId: number }>('P', { variants: ['itemId'] });
    expect(() => reader.variants({ rows: [] })).toThrow('variants is not a list of P rows');
    expect(() => reader.variants([{ itemId: 1 }, null])).toThrow('variants[1] is not a P row');
    expect(() => reader.variants([{ id: 1 }])).toThrow('field "itemId" is missing');
    expect(() => reader.judgments([])).toThrow('P has no judgments view');
  });
});

describe('generic protocol routes', () => {
  let core: Core;
  let cleanup: () => void;
  let experimentId: number;

  beforeAll(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
    const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
    const sim = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 8 } };
    const exp = await core.call('experiments.create', {
      config: {
        name: 'routes',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: 2,
        providers: sim,
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [{ label: 'J', provider: 'sim', model: 'sim-judge' }],
      },
    });
    experimentId = exp.id;
    await core.experiments.runToEnd(experimentId);
  });
  afterAll(async () => {
    await core?.shutdown();
    cleanup?.();
  });

  it('answers a view or an edit the protocol does not offer with a clear error, writing nothing', async () => {
    await expect(
      core.call('experiments.protocolView', { experimentId, view: 'flips' }),
    ).rejects.toMatchObject({
      code: 'invalid_params',
      message: expect.stringMatching(/offers no "flips" view/),
    });
    await expect(
      core.call('experiments.protocolEdit', { experimentId, edit: 'answer', fields: {} }),
    ).rejects.toMatchObject({
      code: 'invalid_params',
      message: expect.stringMatching(/offers no "answer" edit/),
    });
  });

  it('checks a view query and an edit by the protocol schema, naming the field', async () => {
    await expect(
      core.call('experiments.protocolView', { experimentId, view: 'judgments', query: { colour: 'red' } }),
    ).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(
      core.call('experiments.protocolEdit', {
        experimentId,
        edit: 'variant',
        fields: { itemId: 1, language: 'ZH', instruction: 'x', output1: 'y' },
      }),
    ).rejects.toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/output2/) });
  });

  it('re-plans only what an edit changed and returns the edited row', async () => {
    const rows = (await core.call('experiments.protocolView', { experimentId, view: 'variants' })) as {
      itemId: number;
      language: string;
      output1: string;
      output2: string;
      instruction: string;
    }[];
    const zh = rows.find((r) => r.language === 'ZH')!;
    const r = await core.call('experiments.protocolEdit', {
      experimentId,
      edit: 'variant',
      fields: {
        itemId: zh.itemId,
        language: 'ZH',
        instruction: zh.instruction,
        output1: '改过的',
        output2: zh.output2,
      },
    });
    expect(r.row).toMatchObject({ itemId: zh.itemId, language: 'ZH', output1: '改过的', manual: true });
    // The ZH verdicts in both orders and both tie probes read the edited text; nothing else.
    expect(r.replanned).toBe(4);
    expect(r.estimate.calls - r.estimate.cachedCalls).toBe(4);
  });
});
