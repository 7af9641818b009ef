// Judge-LS metrics (DESIGN.md section 5): pure functions of stored judgments.
//
// "Valid" means a parsed verdict (status ok with a winner). A failed verdict is left out of
// every rate and counted in `failures`; a verdict that was never planned (its language's
// transform failed) is simply absent. Rows with no valid observation (n = 0) are left out,
// since their rates have no value; `failures` says why they are missing. Items without a
// subset are left out of the subset tables only.
//
// Row order is deterministic: judges in first-seen order, languages EN, ZH, LS,
// comparisons EN-ZH, EN-LS, subsets in first-seen order, failure reasons by count
// (descending) then text.
import type {
  Comparison,
  ExcessFlipRow,
  FailureRow,
  FlaggedItem,
  InvarianceRow,
  JudgeLsMetrics,
  JudgmentRecord,
  AuditCheck,
  Language,
  MetricsStatistics,
  NoiseFloorMetrics,
  PositionRow,
  QualityRow,
  RepeatFlipRow,
  SubsetFlipRow,
  SubsetQualityRow,
  TargetLanguage,
  TieProbeRow,
  TargetTieProbeRow,
  ZhTieProbeRow,
  ProbeOrder,
  UsageRow,
  VerificationRow,
} from '../../../shared/protocols/judge-ls/types';
import {
  clusterBootstrapRatio,
  intervalFields,
  RANGE,
  ruledBootstrap,
  DEFAULT_BOOTSTRAP_B,
  DEFAULT_BOOTSTRAP_SEED,
  holmAdjust,
  leanColumns,
  clusteredMcnemar,
  pairedPositionTest,
  shownPosition,
  boundedMeanWilsonInterval,
  newcombePairedInterval,
  wilsonInterval,
  type RatioCluster,
} from '../../../shared/stats';
import { LANGUAGES } from './model';
import {
  comparisonOf,
  isTargetLanguage,
  probeOrdersOf,
  probeTargetOf,
} from '../../../shared/protocols/judge-ls/languages';
import { normalizeChoice, type ProbeChoice, type QualityChoice } from './parse';
import { REPEAT_COMPARISON } from '../../../shared/protocols/judge-ls/choice';
import { doseResponse } from './dose-response';
import type { MixingCount } from '../../../shared/text/mixing';

/**
 * EN, ZH and LS always (as before issue 37), then any other target the records hold, first seen
 * first (plans list them in the options' order): a study of ZH and LS computes exactly as before.
 */
function languagesOf(records: readonly JudgmentRecord[]): Language[] {
  const extra = records
    .filter((r) => r.kind === 'quality' && !(LANGUAGES as readonly string[]).includes(r.language))
    .map((r) => r.language);
  return [...LANGUAGES, ...firstSeen(extra)];
}

/** Each target against EN: EN-ZH, EN-LS, then EN-<code> for the other targets. */
function comparisonsOf(languages: readonly Language[]): [Comparison, TargetLanguage][] {
  return languages.filter((l) => l !== 'EN').map((l) => [comparisonOf(l), l]);
}

/** A transform call that ended failed (its language is then missing for that item). */
export interface TransformFailure {
  itemId: string;
  language: TargetLanguage;
  reason: string;
}

export interface JudgeLsMetricsInput {
  /** Items the audit flagged; `item_id` must use the same ids as `JudgmentRecord.itemId`. */
  flagged: FlaggedItem[];
  checks: AuditCheck[];
  usage: UsageRow[];
  /** Reported under judge 'transformer', kind 'transform'. */
  transformFailures?: TransformFailure[];
  /** Report the noise floor (EN verdicts against their repeats, sample 1); off: no `noise_floor` key. */
  noiseFloor?: boolean;
  /** Which interval the tables show, and the item-clustered bootstrap's replicates and seed. */
  statistics?: { ci?: MetricsStatistics['ci']; bootstrapB?: number; seed?: number };
  /** Back-translation checks (issue 37); absent: no `verification` key. */
  verification?: {
    provider: string;
    model: string;
    metric: string;
    minChrf: number;
    rows: VerificationRow[];
  };
  /** Targets at a mixing ratio (issue 37) and the measured content words of each verdict's text; absent: no `dose_response` key. */
  doseResponse?: { targets: string[]; mixing: ReadonlyMap<string, MixingCount> };
}

/** The bootstrap's settings, passed down to every row builder. */
interface Boot {
  B: number;
  seed: number;
}

/** Label of the transformer in failure rows (and, by convention, usage rows' role). */
export const TRANSFORMER_ROLE = 'transformer';

const NO_REASON = '(no reason recorded)';
const NO_WINNER = 'stored as ok without a winner';

interface Judged {
  rec: JudgmentRecord;
  choice: QualityChoice;
  correct: boolean;
}

interface Probed {
  rec: JudgmentRecord;
  choice: ProbeChoice;
}

/** Valid verdicts, indexed for the metrics. */
interface Index {
  judges: string[];
  subsets: string[];
  /** judge → language → verdicts. */
  quality: Map<string, Map<Language, Judged[]>>;
  /** judge → probed target (ZH, ar, …, first seen) → probes. */
  probes: Map<string, Map<TargetLanguage, Probed[]>>;
  /** The probed targets, first seen (a plan puts ZH first). */
  probeTargets: TargetLanguage[];
  /** EN, ZH, LS and the study's other targets (languagesOf). */
  languages: Language[];
  comparisons: [Comparison, TargetLanguage][];
}

const QUALITY_ORDERS = new Set(['orig', 'swap']);

/** A tie probe's shape: EN against a probed target, in that target's two orders. */
function probeShapeOk(r: JudgmentRecord): boolean {
  const target = probeTargetOf(r.language);
  return target !== null && (probeOrdersOf(target) as readonly string[]).includes(r.order);
}

function describe(r: JudgmentRecord): string {
  const sample = isRepeat(r) ? ` / sample ${r.sample}` : '';
  return `${r.judge} / ${r.itemId} / ${r.kind} / ${r.language} / ${r.order}${sample}`;
}

/** A repeat of a verdict (the noise floor's second ask), not a first ask. */
function isRepeat(r: JudgmentRecord): boolean {
  return r.sample !== undefined && r.sample !== 0;
}

/** Rejects records no planner produces, rather than folding them into some metric. */
function checkRecords(records: readonly JudgmentRecord[]): void {
  const seen = new Set<string>();
  for (const r of records) {
    const key = JSON.stringify([r.judge, r.itemId, r.kind, r.language, r.order, r.sample ?? 0]);
    if (seen.has(key)) throw new Error(`Judgment recorded twice: ${describe(r)}`);
    seen.add(key);
    const shapeOk = isRepeat(r)
      ? r.sample === 1 && r.kind === 'quality' && r.language === 'EN' && QUALITY_ORDERS.has(r.order)
      : r.kind === 'quality'
        ? (r.language === 'EN' || isTargetLanguage(r.language)) && QUALITY_ORDERS.has(r.order)
        : r.kind === 'tie_probe' && probeShapeOk(r);
    if (!shapeOk) throw new Error(`Judgment with an impossible kind/language/order: ${describe(r)}`);
    if (r.gold !== 1 && r.gold !== 2) throw new Error(`Judgment with gold ${String(r.gold)}: ${describe(r)}`);
  }
}

function isValid(r: JudgmentRecord): r is JudgmentRecord & { winner: NonNullable<JudgmentRecord['winner']> } {
  return r.status === 'ok' && r.winner !== null && r.winner !== undefined;
}

function firstSeen<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

function buildIndex(
  records: readonly JudgmentRecord[],
  judges: string[],
  languages: Language[] = languagesOf(records),
): Index {
  const quality = new Map<string, Map<Language, Judged[]>>();
  const probes = new Map<string, Map<TargetLanguage, Probed[]>>();
  // ZH first (as plans put it), then the other probed targets first seen, as languagesOf orders them.
  const probed = firstSeen(
    records.filter((r) => r.kind === 'tie_probe').map((r) => probeTargetOf(r.language)!),
  );
  const probeTargets = [...probed.filter((t) => t === 'ZH'), ...probed.filter((t) => t !== 'ZH')];
  for (const j of judges) {
    quality.set(j, new Map(languages.map((l) => [l, []])));
    probes.set(j, new Map(probeTargets.map((t) => [t, []])));
  }
  for (const rec of records) {
    if (!isValid(rec)) continue;
    if (rec.kind === 'quality') {
      const choice = normalizeChoice(rec.order as 'orig' | 'swap', rec.winner);
      quality
        .get(rec.judge)!
        .get(rec.language as Language)!
        .push({ rec, choice, correct: choice === rec.gold });
    } else {
      probes
        .get(rec.judge)!
        .get(probeTargetOf(rec.language)!)!
        .push({ rec, choice: normalizeChoice(rec.order as ProbeOrder, rec.winner) });
    }
  }
  const subsets = firstSeen(records.flatMap((r) => (r.subset === null ? [] : [r.subset])));
  return {
    judges,
    subsets,
    quality,
    probes,
    probeTargets,
    languages,
    comparisons: comparisonsOf(languages),
  };
}

function count<T>(xs: readonly T[], pred: (x: T) => boolean): number {
  let n = 0;
  for (const x of xs) if (pred(x)) n++;
  return n;
}

/** 1 correct, 0.5 tie, 0 wrong. */
function tieHalfScore(j: Judged): number {
  return j.correct ? 1 : j.choice === 'tie' ? 0.5 : 0;
}

/**
 * Mean and its Wilson score CI on the mean (n = verdicts; it keeps a width at 0% and 100%, where
 * the normal approximation collapsed), independent of the order the store returned rows in.
 */
function tieHalf(scores: number[]): { mean: number; ci: [number, number] } {
  const sorted = [...scores].sort((a, b) => a - b);
  return { mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, ci: boundedMeanWilsonInterval(sorted) };
}

/**
 * Clusters of a rate by item: the verdicts of one item (both orders; both sides of a pair) are
 * resampled together. Clusters in item-id order, so the same verdicts give the same interval
 * whatever order the store returned them in.
 */
function byItem<T>(xs: readonly T[], itemOf: (x: T) => string, hit: (x: T) => boolean): RatioCluster[] {
  const clusters = new Map<string, RatioCluster>();
  for (const x of xs) {
    const c = clusters.get(itemOf(x)) ?? { num: 0, den: 0 };
    c.den++;
    if (hit(x)) c.num++;
    clusters.set(itemOf(x), c);
  }
  return [...clusters.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

function qualityRows(ix: Index, boot: Boot): QualityRow[] {
  const rows: QualityRow[] = [];
  for (const judge of ix.judges) {
    for (const language of ix.languages) {
      const vs = ix.quality.get(judge)!.get(language)!;
      const n = vs.length;
      if (n === 0) continue;
      const correct = count(vs, (v) => v.correct);
      const th = tieHalf(vs.map(tieHalfScore));
      rows.push({
        judge,
        language,
        n,
        accuracy_strict: correct / n,
        accuracy_strict_ci: wilsonInterval(correct, n),
        ...intervalFields(
          'accuracy_strict_ci_boot',
          ruledBootstrap(
            clusterBootstrapRatio(
              byItem(
                vs,
                (v) => v.rec.itemId,
                (v) => v.correct,
              ),
              boot,
            ),
            RANGE.proportion,
          ),
        ),
        accuracy_tie_half: th.mean,
        accuracy_tie_half_ci: th.ci,
        position_a_rate: count(vs, (v) => v.rec.winner === 'A') / n,
        tie_rate: count(vs, (v) => v.choice === 'tie') / n,
      });
    }
  }
  return rows;
}

interface Pair {
  en: Judged;
  target: Judged;
}

/** (item, order) pairs with a valid verdict in English and in the target language. */
function pairs(ix: Index, judge: string, target: TargetLanguage): Pair[] {
  const en = new Map(
    ix.quality
      .get(judge)!
      .get('EN')!
      .map((v) => [`${v.rec.itemId}\u0000${v.rec.order}`, v]),
  );
  const out: Pair[] = [];
  for (const t of ix.quality.get(judge)!.get(target)!) {
    const e = en.get(`${t.rec.itemId}\u0000${t.rec.order}`);
    if (e) out.push({ en: e, target: t });
  }
  return out;
}

function invarianceRows(ix: Index, boot: Boot): InvarianceRow[] {
  const rows: InvarianceRow[] = [];
  for (const judge of ix.judges) {
    for (const [comparison, target] of ix.comparisons) {
      const ps = pairs(ix, judge, target);
      const n = ps.length;
      if (n === 0) continue;
      // A tie is a choice like any other: tie vs 1 is a flip, tie vs tie is not.
      const flipped = (p: Pair) => p.en.choice !== p.target.choice;
      const correctnessFlipped = (p: Pair) => p.en.correct !== p.target.correct;
      const item = (p: Pair) => p.en.rec.itemId;
      const flips = count(ps, flipped);
      const bothCorrect = count(ps, (p) => p.en.correct && p.target.correct);
      const enOnly = count(ps, (p) => p.en.correct && !p.target.correct);
      const targetOnly = count(ps, (p) => !p.en.correct && p.target.correct);
      rows.push({
        judge,
        comparison,
        n,
        flip_rate: flips / n,
        flip_rate_ci: wilsonInterval(flips, n),
        ...intervalFields(
          'flip_rate_ci_boot',
          ruledBootstrap(clusterBootstrapRatio(byItem(ps, item, flipped), boot), RANGE.proportion),
        ),
        correctness_flip_rate: (enOnly + targetOnly) / n,
        correctness_flip_rate_ci: wilsonInterval(enOnly + targetOnly, n),
        ...intervalFields(
          'correctness_flip_rate_ci_boot',
          ruledBootstrap(clusterBootstrapRatio(byItem(ps, item, correctnessFlipped), boot), RANGE.proportion),
        ),
        both_correct: bothCorrect,
        en_only_correct: enOnly,
        target_only_correct: targetOnly,
        both_wrong: n - bothCorrect - enOnly - targetOnly,
        // An item's two orders are two pairs of one item, not independent draws: the test takes the item as its unit.
        mcnemar_p: clusteredMcnemar(ps, item, (p) =>
          p.en.correct === p.target.correct ? 0 : p.en.correct ? 1 : -1,
        ),
        mcnemar_p_holm: Number.NaN,
        accuracy_change: (targetOnly - enOnly) / n,
        // p1 = target accuracy (a + b), p2 = EN accuracy (a + c) on the same pairs.
        accuracy_change_ci: newcombePairedInterval(
          bothCorrect,
          targetOnly,
          enOnly,
          n - bothCorrect - enOnly - targetOnly,
        ),
      });
    }
  }
  // Holm across the table's comparisons (every judge and language pair): the family a reader scans.
  const adjusted = holmAdjust(rows.map((r) => r.mcnemar_p));
  rows.forEach((r, i) => (r.mcnemar_p_holm = adjusted[i]));
  return rows;
}

function positionRows(ix: Index): PositionRow[] {
  const rows: PositionRow[] = [];
  for (const judge of ix.judges) {
    for (const language of ix.languages) {
      const byItem = new Map<string, { orig?: Judged; swap?: Judged }>();
      for (const v of ix.quality.get(judge)!.get(language)!) {
        const slot = byItem.get(v.rec.itemId) ?? {};
        slot[v.rec.order as 'orig' | 'swap'] = v;
        byItem.set(v.rec.itemId, slot);
      }
      const both = [...byItem.values()].filter((s) => s.orig && s.swap);
      const n = both.length;
      if (n === 0) continue;
      const inconsistent = count(both, (s) => s.orig!.choice !== s.swap!.choice);
      const lean = pairedPositionTest(
        both.map((s) => ({
          orig: shownPosition(s.orig!.rec.winner!),
          swap: shownPosition(s.swap!.rec.winner!),
        })),
      );
      rows.push({
        judge,
        language,
        n,
        inconsistency_rate: inconsistent / n,
        inconsistency_rate_ci: wilsonInterval(inconsistent, n),
        ...leanColumns(lean),
        lean_p_holm: Number.NaN,
      });
    }
  }
  // Holm across the table (every judge and language): the family a reader scans for a lean.
  const adjusted = holmAdjust(rows.map((r) => r.lean_p));
  rows.forEach((r, i) => (r.lean_p_holm = adjusted[i]));
  return rows;
}

/**
 * One row per judge and probed target. A study that probes only ZH keeps the rows of before
 * issue 37 (no `language`, `zh_*`), byte for byte; one that probes any other target gives every
 * row its `language` and `target_*` (TargetTieProbeRow), so a file has a single row shape.
 */
function tieProbeRows(ix: Index): TieProbeRow[] {
  const rows: TargetTieProbeRow[] = [];
  for (const judge of ix.judges) {
    for (const language of ix.probeTargets) {
      const ps = ix.probes.get(judge)!.get(language)!;
      const n = ps.length;
      if (n === 0) continue;
      const isTarget = (p: Probed) => p.choice === 'ZH' || p.choice === 'target';
      const en = count(ps, (p) => p.choice === 'EN');
      const target = count(ps, isTarget);
      const ties = n - en - target;
      rows.push({
        judge,
        language,
        n,
        en_wins: en,
        target_wins: target,
        ties,
        en_win_rate: en / n,
        en_win_rate_ci: wilsonInterval(en, n),
        target_win_rate: target / n,
        target_win_rate_ci: wilsonInterval(target, n),
        tie_rate: ties / n,
        tie_rate_ci: wilsonInterval(ties, n),
        en_share_non_tie: en + target === 0 ? null : en / (en + target),
        // An item is probed in both orders (EN first, target first): the item is the unit, its
        // probes' EN wins minus target wins summed (with one probe per item: the exact binomial test at ½).
        binomial_p: clusteredMcnemar(
          ps,
          (p) => p.rec.itemId,
          (p) => (p.choice === 'EN' ? 1 : isTarget(p) ? -1 : 0),
        ),
        binomial_p_holm: Number.NaN,
      });
    }
  }
  // One test per judge and language: the table's family, adjusted together as the invariance table's are.
  const adjusted = holmAdjust(rows.map((r) => r.binomial_p));
  rows.forEach((r, i) => (r.binomial_p_holm = adjusted[i]));
  if (ix.probeTargets.some((t) => t !== 'ZH')) return rows;
  return rows.map((r): ZhTieProbeRow => ({
    judge: r.judge,
    n: r.n,
    en_wins: r.en_wins,
    zh_wins: r.target_wins,
    ties: r.ties,
    en_win_rate: r.en_win_rate,
    en_win_rate_ci: r.en_win_rate_ci,
    zh_win_rate: r.target_win_rate,
    zh_win_rate_ci: r.target_win_rate_ci,
    tie_rate: r.tie_rate,
    tie_rate_ci: r.tie_rate_ci,
    en_share_non_tie: r.en_share_non_tie,
    binomial_p: r.binomial_p,
    binomial_p_holm: r.binomial_p_holm,
  }));
}

function subsetQualityRows(ix: Index): SubsetQualityRow[] {
  const rows: SubsetQualityRow[] = [];
  for (const judge of ix.judges) {
    for (const subset of ix.subsets) {
      for (const language of ix.languages) {
        const scores = ix.quality
          .get(judge)!
          .get(language)!
          .filter((v) => v.rec.subset === subset)
          .map(tieHalfScore);
        if (scores.length === 0) continue;
        const th = tieHalf(scores);
        rows.push({
          judge,
          subset,
          language,
          n: scores.length,
          accuracy_tie_half: th.mean,
          accuracy_tie_half_ci: th.ci,
        });
      }
    }
  }
  return rows;
}

function subsetFlipRows(ix: Index): SubsetFlipRow[] {
  const rows: SubsetFlipRow[] = [];
  for (const judge of ix.judges) {
    const byComparison = ix.comparisons.map(([c, t]) => [c, pairs(ix, judge, t)] as const);
    for (const subset of ix.subsets) {
      for (const [comparison, all] of byComparison) {
        const ps = all.filter((p) => p.en.rec.subset === subset);
        const n = ps.length;
        if (n === 0) continue;
        const flips = count(ps, (p) => p.en.choice !== p.target.choice);
        rows.push({
          judge,
          subset,
          comparison,
          n,
          flip_rate: flips / n,
          flip_rate_ci: wilsonInterval(flips, n),
        });
      }
    }
  }
  return rows;
}

const pairKey = (r: JudgmentRecord) => `${r.itemId}\u0000${r.order}`;

/** The valid EN repeats of one judge by (item, order), as normalized choices. */
function repeatChoices(repeats: readonly JudgmentRecord[], judge: string): Map<string, QualityChoice> {
  const out = new Map<string, QualityChoice>();
  for (const r of repeats) {
    if (r.judge !== judge || !isValid(r)) continue;
    out.set(pairKey(r), normalizeChoice(r.order as 'orig' | 'swap', r.winner));
  }
  return out;
}

/**
 * The noise floor (DESIGN.md section 5): each EN verdict against its repeat, and each language's
 * flips against the repeat's on the same (item, order) pairs. The excess is a difference of two
 * paired proportions (flipped under translation vs flipped under repetition), so its interval is
 * Newcombe's method 10 on that 2×2 and its test McNemar's exact test on the discordant pairs.
 */
function noiseFloor(ix: Index, repeats: readonly JudgmentRecord[], boot: Boot): NoiseFloorMetrics {
  const repeat: RepeatFlipRow[] = [];
  const excess: ExcessFlipRow[] = [];
  for (const judge of ix.judges) {
    const again = repeatChoices(repeats, judge);
    const en = ix.quality
      .get(judge)!
      .get('EN')!
      .filter((v) => again.has(pairKey(v.rec)));
    if (en.length > 0) {
      const flipped = (v: Judged) => again.get(pairKey(v.rec)) !== v.choice;
      const flips = count(en, flipped);
      repeat.push({
        judge,
        n: en.length,
        flips,
        flip_rate: flips / en.length,
        flip_rate_ci: wilsonInterval(flips, en.length),
        ...intervalFields(
          'flip_rate_ci_boot',
          ruledBootstrap(
            clusterBootstrapRatio(
              byItem(en, (v) => v.rec.itemId, flipped),
              boot,
            ),
            RANGE.proportion,
          ),
        ),
      });
    }
    for (const [comparison, target] of ix.comparisons) {
      const ps = pairs(ix, judge, target).filter((p) => again.has(pairKey(p.en.rec)));
      const n = ps.length;
      if (n === 0) continue;
      const language = (p: Pair) => p.en.choice !== p.target.choice;
      const repeated = (p: Pair) => p.en.choice !== again.get(pairKey(p.en.rec));
      const a = count(ps, (p) => language(p) && repeated(p));
      const b = count(ps, (p) => language(p) && !repeated(p));
      const c = count(ps, (p) => !language(p) && repeated(p));
      excess.push({
        judge,
        comparison,
        n,
        flip_rate: (a + b) / n,
        flip_rate_ci: wilsonInterval(a + b, n),
        repeat_flip_rate: (a + c) / n,
        repeat_flip_rate_ci: wilsonInterval(a + c, n),
        excess_flip_rate: (b - c) / n,
        excess_flip_rate_ci: newcombePairedInterval(a, b, c, n - a - b - c),
        both_flipped: a,
        language_only: b,
        repeat_only: c,
        neither: n - a - b - c,
        mcnemar_p: clusteredMcnemar(
          ps,
          (p) => p.en.rec.itemId,
          (p) => (language(p) === repeated(p) ? 0 : language(p) ? 1 : -1),
        ),
        mcnemar_p_holm: Number.NaN,
      });
    }
  }
  const adjusted = holmAdjust(excess.map((r) => r.mcnemar_p));
  excess.forEach((r, i) => (r.mcnemar_p_holm = adjusted[i]));
  return { repeat, excess };
}

const KIND_ORDER = ['quality', 'repeat', 'tie_probe', 'transform'];
const LANGUAGE_ORDER = ['EN', 'ZH', 'LS', 'EN-ZH'];
/** Other targets (issue 37) after the original four, then by their count and reason. */
const languageRank = (l: string) =>
  LANGUAGE_ORDER.includes(l) ? LANGUAGE_ORDER.indexOf(l) : LANGUAGE_ORDER.length;

function failureRows(
  records: readonly JudgmentRecord[],
  judges: string[],
  transform: TransformFailure[],
): FailureRow[] {
  const counts = new Map<string, FailureRow>();
  // Per language, so a language whose every verdict failed can be named (EN: 0 usable of 360).
  const add = (judge: string, kind: string, language: string, reason: string) => {
    const key = JSON.stringify([judge, kind, language, reason]);
    const row = counts.get(key);
    if (row) row.count++;
    else counts.set(key, { judge, kind, language, reason, count: 1 });
  };
  for (const r of records) {
    // The noise floor's repeat of an EN verdict fails under its own kind.
    const kind = isRepeat(r) ? 'repeat' : r.kind;
    if (r.status === 'failed') add(r.judge, kind, r.language, r.failureReason?.trim() || NO_REASON);
    else if (!isValid(r)) add(r.judge, kind, r.language, NO_WINNER);
  }
  for (const f of transform) add(TRANSFORMER_ROLE, 'transform', f.language, f.reason.trim() || NO_REASON);
  const judgeRank = new Map([...judges, TRANSFORMER_ROLE].map((j, i) => [j, i]));
  return [...counts.values()].sort(
    (a, b) =>
      judgeRank.get(a.judge)! - judgeRank.get(b.judge)! ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      languageRank(a.language) - languageRank(b.language) ||
      b.count - a.count ||
      (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0),
  );
}

/**
 * All Judge-LS metrics from stored judgments. `records[i].itemId` and `flagged[i].item_id`
 * must use the same ids (the items' source ids). Throws on records no plan can produce
 * (duplicates, impossible kind/language/order combinations, a gold label other than 1 or 2).
 */
export function computeJudgeLsMetrics(
  records: readonly JudgmentRecord[],
  input: JudgeLsMetricsInput,
): JudgeLsMetrics {
  checkRecords(records);
  const judges = firstSeen(records.map((r) => r.judge));
  // Repeats enter only the noise floor (and the failures); every other metric reads first asks.
  const repeats = records.filter(isRepeat);
  const firsts = repeats.length === 0 ? records : records.filter((r) => !isRepeat(r));
  const ix = buildIndex(firsts, judges);
  const excluded = firstSeen(input.flagged.map((f) => f.item_id));
  const excludedSet = new Set(excluded);
  const kept = buildIndex(
    firsts.filter((r) => !excludedSet.has(r.itemId)),
    judges,
    ix.languages,
  );
  const stats = input.statistics ?? {};
  const boot: Boot = {
    B: stats.bootstrapB ?? DEFAULT_BOOTSTRAP_B,
    seed: stats.seed ?? DEFAULT_BOOTSTRAP_SEED,
  };
  return {
    quality: qualityRows(ix, boot),
    language_invariance: invarianceRows(ix, boot),
    position: positionRows(ix),
    tie_probe: tieProbeRows(ix),
    subset_quality: subsetQualityRows(ix),
    subset_flip: subsetFlipRows(ix),
    audit: { checks: input.checks, flagged: input.flagged },
    sensitivity: {
      excluded_item_ids: excluded,
      quality: qualityRows(kept, boot),
      language_invariance: invarianceRows(kept, boot),
    },
    usage: input.usage,
    failures: failureRows(records, judges, input.transformFailures ?? []),
    statistics: {
      ci: stats.ci ?? 'wilson',
      bootstrap_b: boot.B,
      bootstrap_seed: boot.seed,
      resampling_unit: 'item',
    },
    ...(input.noiseFloor ? { noise_floor: noiseFloor(ix, repeats, boot) } : {}),
    ...(input.verification
      ? { verification: verificationMetrics(firsts, judges, ix, input.verification, boot) }
      : {}),
    ...(input.doseResponse
      ? {
          dose_response: doseResponse(
            firsts,
            judges,
            input.doseResponse.targets,
            input.doseResponse.mixing,
            boot,
          ),
        }
      : {}),
  };
}

/** The headline tables again without the items whose translation failed its back-translation check. */
function verificationMetrics(
  firsts: readonly JudgmentRecord[],
  judges: string[],
  ix: Index,
  v: NonNullable<JudgeLsMetricsInput['verification']>,
  boot: Boot,
): NonNullable<JudgeLsMetrics['verification']> {
  const excluded = firstSeen(v.rows.filter((r) => !r.verified).map((r) => r.item_id));
  const out = new Set(excluded);
  const verified = buildIndex(
    firsts.filter((r) => !out.has(r.itemId)),
    judges,
    ix.languages,
  );
  return {
    provider: v.provider,
    model: v.model,
    metric: v.metric,
    min_chrf: v.minChrf,
    translations: v.rows,
    excluded_item_ids: excluded,
    quality: qualityRows(verified, boot),
    language_invariance: invarianceRows(verified, boot),
  };
}

/** A verdict of a listed pair, graded as the metrics grade it. */
export interface ListedVerdict {
  rec: JudgmentRecord;
  choice: QualityChoice;
  correct: boolean;
}

/**
 * One pair of verdicts a pair table counts, for the verdict browser: `language` (EN against the
 * target on one item and order: invariance, subset flips), `position` (one item's orig against
 * its swap, per language), `noise_floor` (EN against its repeat, `group` 'EN-EN (repeat)'; or EN
 * against the target on the pairs that have a repeat, `group` the comparison).
 */
export interface ListedPair {
  table: 'language' | 'position' | 'noise_floor';
  judge: string;
  /** The comparison (EN-ZH, EN-LS, EN-EN (repeat)), or the language of a position pair. */
  group: string;
  first: ListedVerdict;
  second: ListedVerdict;
}

/**
 * Every pair the pair tables count, built by the same functions as their rows (so a row's n is
 * its pairs' count). Records as `computeJudgeLsMetrics` takes them (flagged items already out).
 */
export function listedPairs(records: readonly JudgmentRecord[], noiseFloorOn: boolean): ListedPair[] {
  const judges = firstSeen(records.map((r) => r.judge));
  const repeats = records.filter(isRepeat);
  const ix = buildIndex(
    records.filter((r) => !isRepeat(r)),
    judges,
  );
  const out: ListedPair[] = [];
  for (const judge of judges) {
    for (const [comparison, target] of ix.comparisons)
      for (const p of pairs(ix, judge, target))
        out.push({ table: 'language', judge, group: comparison, first: p.en, second: p.target });
    for (const language of ix.languages) {
      const orig = new Map<string, Judged>();
      const vs = ix.quality.get(judge)!.get(language)!;
      for (const v of vs) if (v.rec.order === 'orig') orig.set(v.rec.itemId, v);
      for (const v of vs) {
        const o = orig.get(v.rec.itemId);
        if (v.rec.order === 'swap' && o)
          out.push({ table: 'position', judge, group: language, first: o, second: v });
      }
    }
    if (!noiseFloorOn) continue;
    const again = new Map<string, ListedVerdict>();
    for (const r of repeats) {
      if (r.judge !== judge || !isValid(r)) continue;
      const choice = normalizeChoice(r.order as 'orig' | 'swap', r.winner);
      again.set(pairKey(r), { rec: r, choice, correct: choice === r.gold });
    }
    for (const v of ix.quality.get(judge)!.get('EN')!) {
      const a = again.get(pairKey(v.rec));
      if (a) out.push({ table: 'noise_floor', judge, group: REPEAT_COMPARISON, first: v, second: a });
    }
    for (const [comparison, target] of ix.comparisons)
      for (const p of pairs(ix, judge, target))
        if (again.has(pairKey(p.en.rec)))
          out.push({ table: 'noise_floor', judge, group: comparison, first: p.en, second: p.target });
  }
  return out;
}
