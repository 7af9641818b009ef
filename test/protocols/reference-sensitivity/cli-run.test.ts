// `judge-lab run` with a "protocol": "reference-sensitivity" config, as a real child process
// against the mock provider (both wire formats): exit 0, the export written, and the planted
// Telugu over-acceptance visible in metrics.json, equal to what the mock's log says.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefSensMetrics } from '../../../src/shared/protocols/reference-sensitivity/types';
import { assertBuilt, ROOT, runCliInProcess } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';
import { refSensResponder, type QaRecord } from '../../mock-provider/refsens-responder';
import { startMockProvider } from '../../mock-provider/server';

const SAMPLE = join(ROOT, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl');
const KEYS = { MOCK_OPENAI_KEY: 'sk-test-cli', MOCK_ANTHROPIC_KEY: 'sk-ant-cli' };
const items: QaRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as QaRecord);

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

const runAsync = (args: string[]) => runCliInProcess(args, KEYS, { cwd: dir });

describe('judge-lab run (reference sensitivity)', () => {
  it('runs a Telugu study to the end and exports metrics that match the mock log', async () => {
    const responder = refSensResponder(items);
    const mock = await startMockProvider({ respond: responder.respond, latencyMs: [0, 0], logBodies: false });
    try {
      const cfg = join(dir, 'rs.json');
      writeFileSync(
        cfg,
        JSON.stringify({
          name: 'rs-cli',
          protocol: 'reference-sensitivity',
          dataset: SAMPLE,
          languages: ['te'],
          seed: 3,
          providers: {
            openai: {
              kind: 'openai',
              baseURL: `${mock.url}/v1`,
              apiKeyEnv: 'MOCK_OPENAI_KEY',
              concurrency: 8,
            },
            anthropic: {
              kind: 'anthropic',
              baseURL: mock.url,
              apiKeyEnv: 'MOCK_ANTHROPIC_KEY',
              concurrency: 8,
            },
          },
          generators: [{ label: 'gen', provider: 'anthropic', model: 'gen-model' }],
          judges: [{ label: 'judge', provider: 'openai', model: 'judge-model' }],
        }),
      );
      const out = join(dir, 'out');
      const r = await runAsync(['run', cfg, '--out', out, '--data-dir', join(dir, 'data')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Finished "rs-cli"/);
      const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as RefSensMetrics;
      const cal = metrics.calibration[0];
      expect(cal).toMatchObject({ judge: 'judge', language: 'te', n: 150 });
      // C2 from the log: NR verdicts on answers that are no gold answer of their question, shown
      // in calibration (every wrong shown answer there is another item's first gold answer).
      const goldFirst = new Set(items.filter((i) => i.language === 'te').map((i) => i.answers[0]));
      const c2 = responder.judgments.filter(
        (j) =>
          j.setting === 'NR' &&
          goldFirst.has(j.answer) &&
          !items.find((i) => i.question === j.question)!.answers.includes(j.answer),
      );
      expect(c2).toHaveLength(150);
      expect(cal.c2_accept).toBe(c2.filter((j) => j.verdict === 'CORRECT').length / 150);
      expect(Math.abs(cal.c2_accept! - 0.4)).toBeLessThan(0.14);
      const flip = metrics.flips.find((f) => f.generator === 'all' && f.transition === 'NR-RV')!;
      expect(flip.n).toBe(150);
      expect(flip.incorrect_to_correct).toBe(0);
      const csv = readFileSync(join(out, 'judgments.csv'), 'utf8');
      expect(csv.startsWith('\uFEFFjudge,item_id,language,kind')).toBe(true);
    } finally {
      await mock.close();
    }
  }, 300_000);
});
