// `judge-lab run` with "noiseFloor": true on reference sensitivity, keyless (the built-in simulated
// provider): NR is asked twice per judge and answer; a judge named `…-flip30` changes its verdict
// on each ask with probability 30 %, so two asks differ with 2 · 0.3 · 0.7 = 42 %, and a judge
// without the suffix never does. metrics.json's noise_floor equals what the test recomputes from
// judgments.csv (its sample column), the noise_floor table is exported, the planted rate is
// recovered within 3.5 SE.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefSensMetrics } from '../../../src/shared/protocols/reference-sensitivity/types';
import { mcnemarExact, newcombePairedInterval, wilsonInterval } from '../../../src/shared/stats';
import { assertBuilt, ROOT } from '../../helpers/cli';
import { runKeylessInProcess } from '../../helpers/cli-simulated';
import { tempDir } from '../../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl');
const FLIP = { label: 'Sim flip', model: 'sim-judge-strong-flip30' };
const STEADY = { label: 'Sim steady', model: 'sim-judge-weak' };

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

type Row = Record<string, string>;

describe('judge-lab run: reference sensitivity with the noise floor', () => {
  it('asks NR twice, exports noise_floor rows equal to the CSV, and recovers the planted flips', async () => {
    const cfg = join(dir, 'refsens-nf.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: 'refsens-nf',
        protocol: 'reference-sensitivity',
        dataset: SAMPLE,
        sample: 'random',
        seed: 5,
        limit: 90,
        noiseFloor: true,
        parts: { calibration: false },
        providers: { demo: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
        generators: [{ label: 'Sim generator', provider: 'demo', model: 'sim-generator' }],
        judges: [FLIP, STEADY].map((j) => ({ ...j, provider: 'demo' })),
        prices: Object.fromEntries(
          ['sim-generator', FLIP.model, STEADY.model].map((m) => [m, { input: 0, output: 0 }]),
        ),
      }),
    );
    const out = join(dir, 'out');
    await runKeylessInProcess(cfg, 'refsens-nf', out, join(dir, 'data'));
    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as RefSensMetrics;
    const rows = parse(readFileSync(join(out, 'judgments.csv'), 'utf8'), {
      columns: true,
      bom: true,
    }) as Row[];
    expect(Object.keys(rows[0])).toContain('sample');
    expect(m.noise_floor).toBeDefined();
    const nf = m.noise_floor!;

    const verdicts = (judge: string, language: string, setting: string, sample: string) =>
      new Map(
        rows
          .filter(
            (r) =>
              r.judge === judge &&
              r.language === language &&
              r.kind === 'sensitivity' &&
              r.setting === setting &&
              r.sample === sample &&
              r.status === 'ok',
          )
          .map((r) => [`${r.generator}\u0000${r.item_id}`, r.verdict]),
      );
    const languages = [...new Set(rows.map((r) => r.language))].sort();
    expect(languages).toEqual(['ar', 'en', 'te']);
    const pooled = { [FLIP.label]: [0, 0], [STEADY.label]: [0, 0] };
    for (const { label } of [FLIP, STEADY])
      for (const language of languages) {
        const nr = verdicts(label, language, 'NR', '0');
        const again = verdicts(label, language, 'NR', '1');
        const keys = [...nr.keys()].filter((k) => again.has(k));
        const flips = keys.filter((k) => nr.get(k) !== again.get(k)).length;
        const rep = nf.repeat.find(
          (r) => r.judge === label && r.language === language && r.generator === 'all',
        )!;
        expect(rep, `${label} ${language}`).toMatchObject({
          n: keys.length,
          flips,
          flip_rate: flips / keys.length,
        });
        expect(rep.flip_rate_ci).toEqual(wilsonInterval(flips, keys.length));
        pooled[label][0] += flips;
        pooled[label][1] += keys.length;
        for (const to of ['RV', 'RC'] as const) {
          const y = verdicts(label, language, to, '0');
          const cells = [0, 0, 0, 0];
          for (const k of keys.filter((x) => y.has(x))) {
            const changed = y.get(k) !== nr.get(k);
            const repeated = again.get(k) !== nr.get(k);
            cells[changed ? (repeated ? 0 : 1) : repeated ? 2 : 3]++;
          }
          const [a, b, c, d] = cells;
          const x = nf.excess.find(
            (r) =>
              r.judge === label &&
              r.language === language &&
              r.generator === 'all' &&
              r.transition === `NR-${to}`,
          )!;
          expect(
            [x.both_flipped, x.change_only, x.repeat_only, x.neither],
            `${label} ${language} ${to}`,
          ).toEqual(cells);
          expect(x.n).toBe(a + b + c + d);
          expect(x.excess_flip_rate).toBeCloseTo((a + b - (a + c)) / x.n, 12);
          expect(x.excess_flip_rate_ci).toEqual(newcombePairedInterval(a, b, c, d));
          expect(x.mcnemar_p).toBe(mcnemarExact(b, c));
        }
      }
    // Planted: 42 % of repeat pairs differ for the -flip30 judge; none for the judge without it.
    const [flips, n] = pooled[FLIP.label];
    expect(n).toBeGreaterThan(60);
    expect(Math.abs(flips / n - 0.42)).toBeLessThan(3.5 * Math.sqrt((0.42 * 0.58) / n));
    expect(pooled[STEADY.label][0]).toBe(0);
    expect(pooled[STEADY.label][1]).toBeGreaterThan(60);

    // The table beside the others, one line per row of the metrics; the grey bar in the figure.
    const table = parse(readFileSync(join(out, 'tables', 'noise_floor.csv'), 'utf8'), {
      columns: true,
      bom: true,
    }) as Row[];
    // One generator: its rows once, without the "all" copy that would repeat them.
    const own = <T extends { generator: string }>(rows: T[]) => rows.filter((r) => r.generator !== 'all');
    expect(table).toHaveLength(own(nf.repeat).length + own(nf.excess).length);
    expect(table.some((r) => Object.values(r).includes('all'))).toBe(false);
    expect(table.filter((r) => Object.values(r).includes('NR-NR (repeat)'))).toHaveLength(
      own(nf.repeat).length,
    );
    expect(readFileSync(join(out, 'figures', 'flips.svg'), 'utf8')).toContain('NR-NR repeat (noise floor)');
  }, 600_000);
});
