// A reference-sensitivity study that judges answers from a file named by path: the file is stored
// with the experiment (sealed into its config), so its results, a resume and a study bundle do not
// depend on the file any more. The bundle is verified after the file is gone, by a second store
// that never saw it: every recomputed file identical. (Before, the bundle named the exporter's path
// and its replay failed on any other disk.)
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

let dir: string;
let cleanup: () => void;
const cores: Core[] = [];
const newCore = (name: string) => {
  const core = new Core({ dataDir: join(dir, name), door: 'cli', keys: new EnvOnlyKeyStore({}) });
  cores.push(core);
  return core;
};

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(async () => {
  for (const c of cores) await c.shutdown();
  cleanup();
});

describe('an answers file named by path', () => {
  it('is stored with the experiment: results and a bundle verified elsewhere need no file', async () => {
    const core = newCore('author');
    await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
    const file = join(dir, 'my-answers.jsonl');
    const rows = [
      { item_id: 'english-5888115353945373749-2', generator: 'mine', answer: 'Amos and Wilfrid Ayre' },
      {
        item_id: 'english--5162675390402100235-0',
        generator: 'mine',
        answer: '1945',
        human_label: 'incorrect',
      },
    ];
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'rs-answers-file',
        protocol: 'reference-sensitivity',
        dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
        providers: { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } },
        answers: file,
        parts: { calibration: false },
        judges: [{ label: 'Sim', provider: 'sim', model: 'sim-judge-strong' }],
      },
    });
    const stored = (await core.call('experiments.get', { experimentId: id })).config as {
      answers: unknown;
    };
    expect(stored.answers).toEqual({
      fileName: 'my-answers.jsonl',
      text: rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
    });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    unlinkSync(file);

    // The store reads the answers it holds: results and the bundle come without the file.
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts.planned).toBe(2 * 3);
    const bundle = await core.call('experiments.exportBundle', { experimentId: id });
    expect(Buffer.from(bundle.contentBase64, 'base64').includes(Buffer.from(dir))).toBe(false);

    const report = await newCore('reviewer').call('bundles.verify', {
      fileName: bundle.fileName,
      contentBase64: bundle.contentBase64,
    });
    expect(report.identical, JSON.stringify(report.checks.filter((c) => !c.equal))).toBe(true);
    expect(report.replayed).toBe(2 * 3);
  });
});
