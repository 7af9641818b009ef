// Reference-sensitivity metrics (DESIGN.md section 5b): pure functions of the stored verdicts,
// the answers judged and the gold answers.
import {
  ALL,
  SETTINGS,
  TRANSITIONS,
  type AcceptanceRow,
  type CalibrationRow,
  type EmAgreementRow,
  type FailureRow,
  type FlipRow,
  type HumanFlipRow,
  type HumanRow,
  type NoiseFloorExcessRow,
  type NoiseFloorRepeatRow,
  type RefSensMetrics,
  type Setting,
  type StringBaselineRow,
  type Transition,
  type UsageRow,
  type Verdict,
} from '../../../shared/protocols/reference-sensitivity/types';
import {
  cohensKappaTable,
  holmAdjust,
  clusteredMcnemarExact,
  newcombePairedInterval,
  wilsonInterval,
} from '../../../shared/stats';
import { exactMatch, squadNormalize, strictNormalize, tokenF1 } from './normalize';

export interface CalibrationRecord {
  judge: string;
  sourceId: string;
  language: string;
  probe: 'C1' | 'C2';
  verdict: Verdict | null;
}

export interface VerdictRecord {
  judge: string;
  generator: string;
  sourceId: string;
  language: string;
  setting: Setting;
  verdict: Verdict | null;
  extracted: string | null;
  /** 1 on the noise floor's repeat of an NR verdict; absent on a first ask. */
  sample?: number;
}

export interface AnswerRecord {
  generator: string;
  sourceId: string;
  language: string;
  answer: string;
  humanLabel: Verdict | null;
}

export interface MetricsInput {
  judges: readonly string[];
  /** Generators in config order, then imported ones. */
  generators: readonly string[];
  /** Languages in dataset order. */
  languages: readonly string[];
  settings: readonly Setting[];
  /** Report the noise floor (NR against its repeat); off: no `noise_floor` key. */
  noiseFloor?: boolean;
  calibration: readonly CalibrationRecord[];
  verdicts: readonly VerdictRecord[];
  answers: readonly AnswerRecord[];
  gold: ReadonlyMap<string, readonly string[]>;
  usage: UsageRow[];
  failures: FailureRow[];
}

const rate = (k: number, n: number): number | null => (n === 0 ? null : k / n);
const NO_VALID_PAIR = 'no question with both verdicts valid';
const meanOf = (xs: number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;

/** Per question, a judge's C1 and C2 verdicts in one language, for questions with both valid. */
function calibrationPairs(
  input: Pick<MetricsInput, 'calibration'>,
  judge: string,
  language: string,
): Map<string, { C1: Verdict; C2: Verdict }> {
  const pairs = new Map<string, { C1?: Verdict; C2?: Verdict }>();
  for (const r of input.calibration) {
    if (r.judge !== judge || r.language !== language || r.verdict === null) continue;
    const p = pairs.get(r.sourceId) ?? {};
    p[r.probe] = r.verdict;
    pairs.set(r.sourceId, p);
  }
  const both = new Map<string, { C1: Verdict; C2: Verdict }>();
  for (const [id, p] of pairs) if (p.C1 && p.C2) both.set(id, { C1: p.C1, C2: p.C2 });
  return both;
}

function calibrationRows(input: MetricsInput): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  for (const judge of input.judges)
    for (const language of input.languages) {
      let a = 0;
      let b = 0;
      let c = 0;
      let d = 0;
      for (const p of calibrationPairs(input, judge, language).values()) {
        const one = p.C1 === 'CORRECT';
        const two = p.C2 === 'CORRECT';
        if (one && two) a++;
        else if (one) b++;
        else if (two) c++;
        else d++;
      }
      const n = a + b + c + d;
      if (n === 0 && !input.calibration.some((r) => r.judge === judge && r.language === language)) continue;
      const c1 = rate(a + b, n);
      const c2 = rate(a + c, n);
      // No question with both verdicts valid: no interval (Wilson's and Newcombe's at n = 0 would
      // be the parameter's whole range, read as a result).
      const none = n === 0;
      rows.push({
        judge,
        language,
        n,
        c1_accept: c1,
        c1_accept_ci: none ? null : wilsonInterval(a + b, n),
        c2_accept: c2,
        c2_accept_ci: none ? null : wilsonInterval(a + c, n),
        cgp: c1 === null || c2 === null ? null : c1 - c2,
        cgp_ci: none ? null : newcombePairedInterval(a, b, c, d),
        ...(none ? { ci_undefined_reason: NO_VALID_PAIR } : {}),
      });
    }
  return rows;
}

const gensWithAll = (input: MetricsInput) => [...input.generators, ALL];
const ofGenerator = (g: string, r: { generator: string }) => g === ALL || r.generator === g;

// The per-group tallies below are built in one pass over the verdicts (not one pass per group):
// at the paper's scale that is 72,000 verdicts against some 135 groups.
// Keys are built by template (not a rest array joined): at 72,000 verdicts the arrays showed.
const groupKey = (judge: string, generator: string, language: string, setting: string) =>
  `${judge}\u0000${generator}\u0000${language}\u0000${setting}`;
const pairKey = (generator: string, transition: string) => `${generator}\u0000${transition}`;

/** A group of the per-setting tables with its valid verdicts (n) and those counted (k). */
interface Tally {
  judge: string;
  generator: string;
  language: string;
  setting: Setting;
  n: number;
  k: number;
}

/**
 * Counts per (judge, generator and "all", language, setting) of valid verdicts, in one pass: the
 * groups that have any, in the tables' row order (judge, generator, language, setting).
 */
function tallyVerdicts(input: MetricsInput, count: (r: VerdictRecord) => number | null): Tally[] {
  const out = new Map<string, { n: number; k: number }>();
  const add = (key: string, x: number) => {
    const t = out.get(key);
    if (t) {
      t.n++;
      t.k += x;
    } else out.set(key, { n: 1, k: x });
  };
  for (const r of input.verdicts) {
    if (r.verdict === null) continue;
    const x = count(r);
    if (x === null) continue;
    add(groupKey(r.judge, r.generator, r.language, r.setting), x);
    add(groupKey(r.judge, ALL, r.language, r.setting), x);
  }
  const groups: Tally[] = [];
  for (const judge of input.judges)
    for (const generator of gensWithAll(input))
      for (const language of input.languages)
        for (const setting of input.settings) {
          const t = out.get(groupKey(judge, generator, language, setting));
          if (t) groups.push({ judge, generator, language, setting, n: t.n, k: t.k });
        }
  return groups;
}

function acceptanceRows(input: MetricsInput): AcceptanceRow[] {
  return tallyVerdicts(input, (r) => (r.verdict === 'CORRECT' ? 1 : 0)).map(
    ({ judge, generator, language, setting, n, k }) => ({
      judge,
      generator,
      language,
      setting,
      n,
      accept_rate: rate(k, n),
      accept_rate_ci: wilsonInterval(k, n),
    }),
  );
}

type Slot = `${string}\u0000${string}`;
const slot = (generator: string, sourceId: string): Slot => `${generator}\u0000${sourceId}`;

type VerdictIndex = Map<Setting, Map<Slot, VerdictRecord>>;

function emptyIndex(): VerdictIndex {
  const by: VerdictIndex = new Map();
  for (const s of SETTINGS) by.set(s, new Map());
  return by;
}

/**
 * Each judge's valid verdicts in one language, per setting, by answer (the last one of a slot):
 * built in one pass over the verdicts, not one pass per (judge, language).
 */
function verdictIndexes(
  input: Pick<MetricsInput, 'verdicts'>,
): (judge: string, language: string) => VerdictIndex {
  const all = new Map<string, VerdictIndex>();
  for (const r of input.verdicts) {
    if (r.verdict === null) continue;
    const key = `${r.judge}\u0000${r.language}`;
    let by = all.get(key);
    if (!by) all.set(key, (by = emptyIndex()));
    by.get(r.setting)!.set(slot(r.generator, r.sourceId), r);
  }
  return (judge, language) => all.get(`${judge}\u0000${language}`) ?? emptyIndex();
}

/** The transitions whose both settings were asked. */
function transitionsOf(input: Pick<MetricsInput, 'settings'>): Transition[] {
  return TRANSITIONS.filter((t) => {
    const [from, to] = t.split('-') as [Setting, Setting];
    return input.settings.includes(from) && input.settings.includes(to);
  });
}

/** An answer's valid verdicts in both settings of a transition: the pairs a flip row counts. */
function* transitionPairs(
  by: VerdictIndex,
  transition: Transition,
): Generator<[VerdictRecord, VerdictRecord]> {
  const [from, to] = transition.split('-') as [Setting, Setting];
  for (const [key, x] of by.get(from)!) {
    const y = by.get(to)!.get(key);
    if (y) yield [x, y];
  }
}

function flipRows(input: MetricsInput): FlipRow[] {
  const rows: FlipRow[] = [];
  const transitions = transitionsOf(input);
  // Normalizing (NFKC, case fold) is the costly step: once per distinct extracted answer.
  const normalized = new Map<string, string>();
  const norm = (x: string | null) => {
    const text = x ?? '';
    let v = normalized.get(text);
    if (v === undefined) normalized.set(text, (v = strictNormalize(text)));
    return v;
  };
  const indexOf = verdictIndexes(input);
  for (const judge of input.judges)
    for (const language of input.languages) {
      const by = indexOf(judge, language);
      // perItem: each question's correct-to-incorrect minus incorrect-to-correct pairs; the pooled
      // "all" row holds several generators' answers to one question, so its McNemar takes the
      // question as the unit (with one answer per question it is the plain exact test).
      const tallies = new Map<
        string,
        { n: number; c2i: number; i2c: number; changed: number; perItem: Map<string, number> }
      >();
      for (const transition of transitions) {
        for (const [x, y] of transitionPairs(by, transition)) {
          const c2i = x.verdict === 'CORRECT' && y.verdict === 'INCORRECT' ? 1 : 0;
          const i2c = x.verdict === 'INCORRECT' && y.verdict === 'CORRECT' ? 1 : 0;
          const changed = norm(x.extracted) !== norm(y.extracted) ? 1 : 0;
          for (const g of [x.generator, ALL]) {
            const k = pairKey(g, transition);
            let t = tallies.get(k);
            if (!t) tallies.set(k, (t = { n: 0, c2i: 0, i2c: 0, changed: 0, perItem: new Map() }));
            t.n++;
            t.c2i += c2i;
            t.i2c += i2c;
            t.changed += changed;
            if (c2i !== i2c) t.perItem.set(x.sourceId, (t.perItem.get(x.sourceId) ?? 0) + c2i - i2c);
          }
        }
      }
      for (const generator of gensWithAll(input))
        for (const transition of transitions) {
          const t = tallies.get(pairKey(generator, transition));
          if (!t) continue;
          rows.push({
            judge,
            generator,
            language,
            transition,
            n: t.n,
            flip_rate: rate(t.c2i + t.i2c, t.n),
            flip_rate_ci: wilsonInterval(t.c2i + t.i2c, t.n),
            correct_to_incorrect: t.c2i,
            incorrect_to_correct: t.i2c,
            mcnemar_p: clusteredMcnemarExact([...t.perItem.values()]),
            extraction_change_rate: rate(t.changed, t.n),
          });
        }
    }
  return rows;
}

function stringBaseline(input: MetricsInput): RefSensMetrics['string_baseline'] {
  const em = new Map<Slot, number>();
  const f1 = new Map<Slot, number>();
  // Each gold answer is scored against every generator's answer, twice: normalized once.
  const normalized = new Map<string, string>();
  const norm = (text: string) => {
    let v = normalized.get(text);
    if (v === undefined) normalized.set(text, (v = squadNormalize(text)));
    return v;
  };
  for (const a of input.answers) {
    const gold = input.gold.get(a.sourceId) ?? [];
    em.set(slot(a.generator, a.sourceId), exactMatch(a.answer, gold, norm));
    f1.set(slot(a.generator, a.sourceId), tokenF1(a.answer, gold, norm));
  }
  const answers: StringBaselineRow[] = [];
  for (const generator of gensWithAll(input))
    for (const language of input.languages) {
      const sel = input.answers.filter((a) => a.language === language && ofGenerator(generator, a));
      if (sel.length === 0) continue;
      answers.push({
        generator,
        language,
        n: sel.length,
        exact_match: meanOf(sel.map((a) => em.get(slot(a.generator, a.sourceId))!)),
        token_f1: meanOf(sel.map((a) => f1.get(slot(a.generator, a.sourceId))!)),
      });
    }
  const agreement: EmAgreementRow[] = tallyVerdicts(input, (r) => {
    const m = em.get(slot(r.generator, r.sourceId));
    return m === undefined ? null : (r.verdict === 'CORRECT') === (m === 1) ? 1 : 0;
  }).map(({ judge, generator, language, setting, n, k }) => ({
    judge,
    generator,
    language,
    setting,
    n,
    em_agreement: rate(k, n),
  }));
  return { answers, em_agreement: agreement };
}

function humanRows(input: MetricsInput): RefSensMetrics['human'] {
  const label = new Map<Slot, Verdict>();
  for (const a of input.answers) if (a.humanLabel) label.set(slot(a.generator, a.sourceId), a.humanLabel);
  const settings: HumanRow[] = [];
  const flips: HumanFlipRow[] = [];
  if (label.size === 0) return { settings, nr_rv_flips: flips };
  for (const judge of input.judges) {
    for (const setting of input.settings) {
      // rows: judge CORRECT / INCORRECT; columns: human CORRECT / INCORRECT
      const t = [
        [0, 0],
        [0, 0],
      ];
      for (const r of input.verdicts) {
        if (r.judge !== judge || r.setting !== setting || r.verdict === null) continue;
        const h = label.get(slot(r.generator, r.sourceId));
        if (!h) continue;
        t[r.verdict === 'CORRECT' ? 0 : 1][h === 'CORRECT' ? 0 : 1]++;
      }
      const n = t[0][0] + t[0][1] + t[1][0] + t[1][1];
      if (n === 0) continue;
      const k = cohensKappaTable(t);
      const agree = t[0][0] + t[1][1];
      settings.push({
        judge,
        setting,
        n,
        accuracy: rate(agree, n),
        accuracy_ci: wilsonInterval(agree, n),
        kappa: k.kappa,
        kappa_ci: k.kappa_ci,
        ...(k.kappa_ci_undefined_reason ? { kappa_ci_undefined_reason: k.kappa_ci_undefined_reason } : {}),
      });
    }
    if (input.settings.includes('NR') && input.settings.includes('RV')) {
      const nr = new Map<Slot, Verdict>();
      const rv = new Map<Slot, Verdict>();
      for (const r of input.verdicts) {
        if (r.judge !== judge || r.verdict === null) continue;
        if (r.setting === 'NR') nr.set(slot(r.generator, r.sourceId), r.verdict);
        if (r.setting === 'RV') rv.set(slot(r.generator, r.sourceId), r.verdict);
      }
      let n = 0;
      let toward = 0;
      for (const [key, h] of label) {
        const a = nr.get(key);
        const b = rv.get(key);
        if (!a || !b || a === b) continue;
        n++;
        if (b === h) toward++;
      }
      flips.push({ judge, flips: n, toward_human: toward, toward_human_rate: rate(toward, n) });
    }
  }
  return { settings, nr_rv_flips: flips };
}

const noiseTargets = (input: Pick<MetricsInput, 'settings'>) =>
  (['RV', 'RC'] as const).filter((s) => input.settings.includes(s));

/** A judge's valid NR verdicts in one language that have a valid repeat: what the noise floor counts. */
function repeatedNR(
  indexOf: ReturnType<typeof verdictIndexes>,
  repeats: readonly VerdictRecord[],
  judge: string,
  language: string,
) {
  const by = indexOf(judge, language);
  const again = new Map<Slot, VerdictRecord>();
  for (const r of repeats)
    if (r.judge === judge && r.language === language && r.verdict !== null)
      again.set(slot(r.generator, r.sourceId), r);
  const nr = [...by.get('NR')!].filter(([key]) => again.has(key));
  return { by, again, nr };
}

/**
 * The noise floor (DESIGN.md section 5b): NR against its repeat (NR-NR), and NR→RV, NR→RC flips
 * beside the repeat's on the same answers. The excess is a difference of two paired proportions
 * (flipped under the reference vs flipped under repetition): Newcombe's method 10 on that 2×2,
 * McNemar's exact test on its discordant pairs (the question as the unit: the pooled row holds
 * several generators' answers to one question), Holm across the per-generator excess rows.
 */
function noiseFloor(
  input: MetricsInput,
  repeats: readonly VerdictRecord[],
): NonNullable<RefSensMetrics['noise_floor']> {
  const repeat: NoiseFloorRepeatRow[] = [];
  const excess: NoiseFloorExcessRow[] = [];
  const targets = noiseTargets(input);
  const indexOf = verdictIndexes(input);
  for (const judge of input.judges)
    for (const language of input.languages) {
      const { by, again, nr } = repeatedNR(indexOf, repeats, judge, language);
      for (const generator of gensWithAll(input)) {
        const mine = nr.filter(([, x]) => generator === ALL || x.generator === generator);
        if (mine.length === 0) continue;
        const flipped = mine.filter(([key, x]) => again.get(key)!.verdict !== x.verdict).length;
        repeat.push({
          judge,
          generator,
          language,
          n: mine.length,
          flips: flipped,
          flip_rate: flipped / mine.length,
          flip_rate_ci: wilsonInterval(flipped, mine.length),
        });
        for (const to of targets) {
          const cells = [0, 0, 0, 0];
          // Change-only minus repeat-only per question: the pooled "all" row has several answers per question.
          const perItem = new Map<string, number>();
          for (const [key, x] of mine) {
            const y = by.get(to)!.get(key);
            if (!y) continue;
            const changed = y.verdict !== x.verdict;
            const repeated = again.get(key)!.verdict !== x.verdict;
            cells[changed ? (repeated ? 0 : 1) : repeated ? 2 : 3]++;
            if (changed !== repeated)
              perItem.set(x.sourceId, (perItem.get(x.sourceId) ?? 0) + (changed ? 1 : -1));
          }
          const [a, b, c, d] = cells;
          const n = a + b + c + d;
          if (n === 0) continue;
          excess.push({
            judge,
            generator,
            language,
            transition: `NR-${to}`,
            n,
            flip_rate: (a + b) / n,
            flip_rate_ci: wilsonInterval(a + b, n),
            repeat_flip_rate: (a + c) / n,
            repeat_flip_rate_ci: wilsonInterval(a + c, n),
            excess_flip_rate: (b - c) / n,
            excess_flip_rate_ci: newcombePairedInterval(a, b, c, d),
            both_flipped: a,
            change_only: b,
            repeat_only: c,
            neither: d,
            mcnemar_p: clusteredMcnemarExact([...perItem.values()]),
            mcnemar_p_holm: null,
          });
        }
      }
    }
  // The family holds each hypothesis once: the per-generator rows. A pooled ("all") row tests
  // its generators' data again (with one generator, the very same data), so it is left out of
  // the family and has no Holm p, as in Compare runs (DESIGN.md, "Multiplicity and intervals").
  const family = excess.filter((r) => r.generator !== ALL);
  const adjusted = holmAdjust(family.map((r) => r.mcnemar_p));
  family.forEach((r, i) => (r.mcnemar_p_holm = adjusted[i]));
  for (const r of excess) if (r.generator === ALL) r.mcnemar_p_holm = null;
  return { repeat, excess };
}

export function computeRefSensMetrics(all: MetricsInput): RefSensMetrics {
  // Repeats enter only the noise floor; every other metric reads first asks.
  const repeats = all.verdicts.filter((r) => r.sample);
  const input = repeats.length === 0 ? all : { ...all, verdicts: all.verdicts.filter((r) => !r.sample) };
  return {
    calibration: calibrationRows(input),
    acceptance: acceptanceRows(input),
    flips: flipRows(input),
    string_baseline: stringBaseline(input),
    human: humanRows(input),
    usage: input.usage,
    failures: input.failures,
    ...(input.noiseFloor ? { noise_floor: noiseFloor(input, repeats) } : {}),
  };
}

/**
 * The pairs of verdicts the calibration and flips tables count, for the verdict browser, built by
 * the tables' own pairing: per question, C1 against C2 (judge × language); per answer and
 * transition, the first setting's verdict against the second's (judge × generator × language).
 */
export function listedPairs(
  all: Pick<MetricsInput, 'judges' | 'languages' | 'settings' | 'calibration' | 'verdicts'>,
) {
  const input = { ...all, verdicts: all.verdicts.filter((r) => !r.sample) };
  const calibration: { judge: string; language: string; sourceId: string; C1: Verdict; C2: Verdict }[] = [];
  const flips: {
    judge: string;
    language: string;
    transition: Transition;
    from: VerdictRecord;
    to: VerdictRecord;
  }[] = [];
  const indexOf = verdictIndexes(input);
  for (const judge of input.judges)
    for (const language of input.languages) {
      for (const [sourceId, p] of calibrationPairs(input, judge, language))
        calibration.push({ judge, language, sourceId, ...p });
      const by = indexOf(judge, language);
      for (const transition of transitionsOf(input))
        for (const [from, to] of transitionPairs(by, transition))
          flips.push({ judge, language, transition, from, to });
    }
  return { calibration, flips };
}

/**
 * The verdicts the noise floor counts, for the verdict browser, by the table's own pairing: per
 * answer, the NR verdict against its repeat (`NR-NR`), and on the answers also valid in RV or RC,
 * the NR verdict, that setting's and the repeat's (`NR-RV`, `NR-RC`).
 */
export function listedNoiseFloor(
  all: Pick<MetricsInput, 'judges' | 'languages' | 'settings' | 'verdicts' | 'noiseFloor'>,
) {
  const listed: {
    judge: string;
    language: string;
    transition: 'NR-NR' | 'NR-RV' | 'NR-RC';
    first: VerdictRecord;
    repeat: VerdictRecord;
    target?: VerdictRecord;
  }[] = [];
  if (!all.noiseFloor) return listed;
  const repeats = all.verdicts.filter((r) => r.sample);
  const input = { ...all, verdicts: all.verdicts.filter((r) => !r.sample) };
  const indexOf = verdictIndexes(input);
  for (const judge of input.judges)
    for (const language of input.languages) {
      const { by, again, nr } = repeatedNR(indexOf, repeats, judge, language);
      for (const [key, first] of nr) {
        const repeat = again.get(key)!;
        listed.push({ judge, language, transition: 'NR-NR', first, repeat });
        for (const to of noiseTargets(input)) {
          const target = by.get(to)!.get(key);
          if (target) listed.push({ judge, language, transition: `NR-${to}`, first, repeat, target });
        }
      }
    }
  return listed;
}
