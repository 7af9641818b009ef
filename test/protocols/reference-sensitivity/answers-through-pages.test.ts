// Imported answers through a page's door: a path outside the data folder is refused (a page may
// not make the server read its files); the wizard sends the file itself ({fileName, text}),
// checked line by line under its own name, and kept with the experiment.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { tempDir } from '../../helpers/tmp';

let core: Core;
const cleanups: (() => void)[] = [];
let outside: string;

beforeAll(async () => {
  const data = tempDir();
  const out = tempDir();
  cleanups.push(data.cleanup, out.cleanup);
  outside = out.dir;
  core = new Core({ dataDir: data.dir, door: 'web' });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
});
afterAll(() => {
  core?.close();
  cleanups.forEach((c) => c());
});

const config = (answers: unknown) => ({
  name: 'pages',
  protocol: 'reference-sensitivity',
  dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
  providers: { s: { kind: 'simulated' } },
  answers,
  parts: { calibration: false },
  judges: [{ label: 'J', provider: 's', model: 'sim-judge' }],
});

const CSV = 'item_id,generator,answer,human_label\nenglish-5888115353945373749-2,mine,Amos,CORRECT\n';

describe('imported answers through a page', () => {
  it('refuses an answers path outside the data folder', async () => {
    const file = join(outside, 'answers.csv');
    writeFileSync(file, CSV);
    await expect(core.call('experiments.estimate', { config: config(file) })).rejects.toThrow(
      /answers: a file outside the data folder/,
    );
  });

  it('takes the file itself, and names it in errors with the line', async () => {
    const est = await core.call('experiments.estimate', {
      config: config({ fileName: 'mine.csv', text: CSV }),
    });
    expect(est.calls).toBe(3);
    await expect(
      core.call('experiments.create', {
        config: config({ fileName: 'mine.csv', text: `${CSV}no-such-item,mine,x,\n` }),
      }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/mine\.csv/),
      issues: [expect.objectContaining({ file: 'mine.csv', line: 3, field: 'item_id' })],
    });
    const { id } = await core.call('experiments.create', {
      config: config({ fileName: 'mine.csv', text: CSV }),
    });
    const detail = await core.call('experiments.get', { experimentId: id });
    expect(detail.config).toMatchObject({ answers: { fileName: 'mine.csv', text: CSV } });
  });
});
