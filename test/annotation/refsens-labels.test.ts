// Human ratings of reference-sensitivity answers: people label each generated answer CORRECT or
// INCORRECT seeing the question and gold answers but not the generator; each judge × setting is a
// rater of its own. Answered by the keyless simulated provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { setItems } from '../../src/main/annotation/store';
import { tempDir } from '../helpers/tmp';

let core: Core;
let cleanup: () => void;
let experimentId: number;

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  ({ id: experimentId } = await core.call('experiments.create', {
    config: {
      name: 'refsens-human',
      protocol: 'reference-sensitivity',
      dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
      limit: 24,
      seed: 3,
      providers: { demo: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
      generators: [{ label: 'Secret generator', provider: 'demo', model: 'sim-generator' }],
      judges: [{ label: 'Sim judge', provider: 'demo', model: 'sim-judge-strong' }],
      parts: { calibration: false, sensitivity: true, settings: ['NR', 'RC'] },
    },
  }));
  expect((await core.experiments.runToEnd(experimentId)).status).toBe('finished');
});

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('reference-sensitivity answers rated by people', () => {
  it('shows question, gold answers and the answer, never the generator; judges are rated per setting', async () => {
    const set = await core.call('annotation.createSet', { experimentId, size: 20, seed: 1 });
    expect(set.scale).toEqual({ kind: 'label', labels: ['CORRECT', 'INCORRECT'] });
    expect(set.itemCount).toBe(20);
    const session = await core.call('annotation.session', { setId: set.id, annotator: 'ana' });
    expect(JSON.stringify(session)).not.toContain('Secret generator');
    expect(session.items[0].view.responses).toHaveLength(1);
    expect(session.items[0].view.context).toMatch(/Gold answers?: /);

    const keys = setItems(core.db, set.id).map((i) => i.itemKey);
    expect(keys.every((k) => k.endsWith('::Secret generator'))).toBe(true);
    const csv = [
      'item_id,annotator,label',
      ...keys.map((k, i) => `"${k}",ana,${i % 3 ? 'correct' : 'INCORRECT'}`),
    ];
    csv.push(`"${keys[0]}",ben,MAYBE`);
    await expect(
      core.call('annotation.importLabels', {
        setId: set.id,
        fileName: 'labels.csv',
        contentBase64: Buffer.from(csv.join('\n')).toString('base64'),
      }),
    ).rejects.toThrow(/labels\.csv:22: field "label": "MAYBE" is out of the scale \(CORRECT or INCORRECT\)/);
    csv.pop();
    await core.call('annotation.importLabels', {
      setId: set.id,
      fileName: 'labels.csv',
      contentBase64: Buffer.from(csv.join('\n')).toString('base64'),
    });
    const report = await core.call('annotation.agreement', { setId: set.id });
    expect(report.judge_human.map((r) => r.judge)).toEqual(['Sim judge · NR', 'Sim judge · RC']);
    for (const r of report.judge_human) {
      expect(r.n).toBe(20);
      expect(r.kappa_weights).toBe('none');
    }
    expect(report.calibration_mapping).toEqual([]);
  });
});
