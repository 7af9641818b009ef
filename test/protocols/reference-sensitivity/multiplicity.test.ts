// Issue 32 item 2: a Holm family holds each hypothesis once, and a pooled row that equals its
// only member is not shown twice. One generator, two judges, three languages, NR/RV/RC with the
// noise floor: 12 excess tests (judge × language × NR-RV, NR-RC), not 24 with their "all" copies.
import { describe, expect, it } from 'vitest';
import {
  computeRefSensMetrics,
  type AnswerRecord,
  type MetricsInput,
  type VerdictRecord,
} from '../../../src/main/protocols/reference-sensitivity/metrics';
import { refSensPower } from '../../../src/main/protocols/reference-sensitivity/power';
import { markConfirmatory } from '../../../src/shared/paper/confirmatory';
import { checkFamilies } from '../../../src/shared/report/families';
import { buildRefSensTables } from '../../../src/shared/protocols/reference-sensitivity/report/tables';
import type { Setting, Verdict } from '../../../src/shared/protocols/reference-sensitivity/types';
import { holmAdjust } from '../../../src/shared/stats';

const JUDGES = ['J1', 'J2'];
const LANGUAGES = ['en', 'ar', 'te'];
const SETTINGS: Setting[] = ['NR', 'RV', 'RC'];
const Q = Array.from({ length: 16 }, (_, i) => `q${i}`);

/** A deterministic verdict pattern that differs by judge, language, setting and ask. */
function verdict(judge: number, lang: number, setting: number, q: number, sample: number): Verdict {
  const x = (q * 7 + judge * 3 + lang * 5 + setting * (2 + judge) + sample * (q % 3 === 0 ? 1 : 0)) % 5;
  return x < 3 ? 'CORRECT' : 'INCORRECT';
}

function input(generators: string[]): MetricsInput {
  const verdicts: VerdictRecord[] = [];
  const answers: AnswerRecord[] = [];
  generators.forEach((generator, g) =>
    LANGUAGES.forEach((language, l) =>
      Q.forEach((sourceId, q) => {
        answers.push({ generator, sourceId, language, answer: `a${q}`, humanLabel: null });
        JUDGES.forEach((judge, j) =>
          SETTINGS.forEach((setting, s) => {
            const base = { judge, generator, sourceId, language, setting, extracted: `a${q}` };
            verdicts.push({ ...base, verdict: verdict(j, l + g, s, q, 0) });
            if (setting === 'NR') verdicts.push({ ...base, verdict: verdict(j, l + g, s, q, 1), sample: 1 });
          }),
        );
      }),
    ),
  );
  return {
    judges: JUDGES,
    generators,
    languages: LANGUAGES,
    settings: SETTINGS,
    noiseFloor: true,
    calibration: [],
    verdicts,
    answers,
    gold: new Map(Q.map((q, i) => [q, [`a${i}`]])),
    usage: [],
    failures: [],
  };
}

describe('reference sensitivity: each hypothesis once', () => {
  it('adjusts the noise floor over the 12 single-generator tests, and gives the pooled copies no Holm p', () => {
    const m = computeRefSensMetrics(input(['Sim generator']));
    const excess = m.noise_floor!.excess;
    const family = excess.filter((r) => r.generator !== 'all');
    expect(family).toHaveLength(12);
    expect(family.map((r) => r.mcnemar_p_holm)).toEqual(holmAdjust(family.map((r) => r.mcnemar_p)));
    expect(excess.filter((r) => r.generator === 'all').map((r) => r.mcnemar_p_holm)).toEqual(
      Array<null>(12).fill(null),
    );
    // The old family of 24 doubled every adjusted p below the cap.
    const doubled = holmAdjust(excess.map((r) => r.mcnemar_p));
    expect(family.some((r, i) => r.mcnemar_p_holm !== doubled[excess.indexOf(family[i])])).toBe(true);
  });

  it('shows each row once with one generator (no "all" copy), and the pooled rows beside two', () => {
    const one = buildRefSensTables(computeRefSensMetrics(input(['Sim generator'])));
    for (const t of one.filter((t) => t.columns.some((c) => c.key === 'generator'))) {
      expect(t.rows.length, t.id).toBeGreaterThan(0);
      expect(
        t.rows.filter((r) => r.generator === 'all'),
        t.id,
      ).toEqual([]);
    }
    const nf = one.find((t) => t.id === 'noise_floor')!;
    expect(
      nf.rows.filter((r) => r.transition !== 'NR-NR (repeat)').every((r) => r.mcnemar_p_holm !== null),
    ).toBe(true);
    expect(nf.caption).toMatch(/Holm: adjusted across the NR-RV and NR-RC rows of single generators/);

    const two = buildRefSensTables(computeRefSensMetrics(input(['G1', 'G2'])));
    const flips = two.find((t) => t.id === 'flips')!;
    expect(flips.rows.some((r) => r.generator === 'all')).toBe(true);
    const pooled = two
      .find((t) => t.id === 'noise_floor')!
      .rows.filter((r) => r.generator === 'all' && r.transition !== 'NR-NR (repeat)');
    expect(pooled.length).toBeGreaterThan(0);
    expect(pooled.every((r) => r.mcnemar_p_holm === null)).toBe(true);
  });

  it('holds its declared noise-floor family (generic check), with one generator and with two', () => {
    for (const generators of [['Sim generator'], ['G1', 'G2']]) {
      const tables = buildRefSensTables(computeRefSensMetrics(input(generators)));
      expect(tables.find((t) => t.id === 'noise_floor')!.families, generators.join()).toHaveLength(1);
      expect(checkFamilies(tables), generators.join()).toEqual([]);
    }
  });

  it('marks the generator\'s own rows confirmatory when its "all" copy is not shown', () => {
    for (const generators of [['Sim generator'], ['G1', 'G2']]) {
      const m = computeRefSensMetrics(input(generators));
      const marked = markConfirmatory(buildRefSensTables(m), {
        version: 1,
        reads: [{ comparison: 'flips:NR-RV', rows: refSensPower.reads('flips:NR-RV', m) }],
      }).find((t) => t.id === 'flips')!;
      const confirmatory = marked.rows.filter((r) => r.analysis === 'confirmatory');
      // One row per judge × language: the NR-RV flips pooled over the generators.
      expect(confirmatory).toHaveLength(JUDGES.length * LANGUAGES.length);
      expect(new Set(confirmatory.map((r) => r.generator))).toEqual(
        new Set([generators.length === 1 ? generators[0] : 'all']),
      );
    }
  });
});
