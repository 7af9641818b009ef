// Bias-probes metrics (DESIGN.md section 5c): a pure function of the stored results.
import {
  ALL,
  type AuditSummary,
  type BiasMetrics,
  type AccuracyRow,
  type BiasNoiseFloor,
  type ExcessRow,
  type PairedTest,
  type PlaceboBase,
  type PlaceboRow,
  type Condition,
  type DebiasedRow,
  type DiffSeries,
  type FailureRow,
  type FlaggedVariant,
  type ItemScore,
  type LengthCorrelationRow,
  type OwnAnswersRow,
  type PositionRow,
  type ProbeRow,
  type RewriteKind,
  type ScatterPoint,
  type UsageRow,
} from '../../../shared/protocols/bias-probes/types';
import {
  clusteredMcnemar,
  type CI,
  holmAdjust,
  leanColumns,
  pairedPositionTest,
  type PositionPair,
  shownPosition,
  clusteredPairedEffect,
  itemSums,
  partialSpearman,
  pearson,
  robustnessRate,
  spearman,
  wilcoxonSignedRank,
  wilsonInterval,
} from '../../../shared/stats';
import type { TaskResult } from '../plugin';
import { auditVariant, tokenCount } from './audit';
import type { BiasOptions } from './config';
import type { BiasItem } from './item';
import { choiceOf as orderChoice, type PairOrder } from '../../judging/order';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { Rewrite } from './parse';
import type { JudgeMeta, RewriteMeta } from './plan';
import { instructionParaphrases } from './instructions';
import { conditionText, instructionRewrites, rewriteSource } from './plan';
import type { EffectSpec } from '../../../shared/protocols/bias-probes/probe-types';
import {
  allConditions,
  allEffects,
  conditionById,
  effectById,
  measuresPosition,
  ORIGINAL,
  placeboBases,
  rewriteConditions,
  selectedProbes,
  SHOWN_SECOND,
} from '../../../shared/protocols/bias-probes/probe-registry';
import { ownAnswersRow, ownSlot, type OwnUnit } from './own-answers';

export interface MetricsInput {
  opts: BiasOptions;
  judges: string[];
  items: BiasItem[];
  results: readonly TaskResult[];
  usage: UsageRow[];
  /** Each judge's model by its label: an `own-answers` effect's "own" (self-preference). */
  judgeModels?: Readonly<Record<string, string>>;
}

const SIGNIFICANCE = 0.05;

// ---- audit -----------------------------------------------------------------------------

export interface AuditedVariant {
  sourceId: string;
  slot: string;
  kind: RewriteKind;
  /** null: the rewriter found no filler (shorter) or the call failed. */
  text: string | null;
  status: 'ok' | 'none' | 'failed';
  ratio: number | null;
  reasons: string[];
  /** Set when a person wrote the text (hand-edits.ts): who and when. */
  hand?: { by: string; at: string };
}

export function auditVariants(
  items: readonly BiasItem[],
  results: readonly TaskResult[],
  opts: BiasOptions,
): AuditedVariant[] {
  const byId = new Map(items.map((i) => [i.sourceId, i]));
  const out: AuditedVariant[] = [];
  for (const r of results) {
    if (r.stage !== 'rewrite') continue;
    const m = r.meta as RewriteMeta;
    const item = byId.get(m.sourceId);
    if (!item) continue;
    const base = { sourceId: m.sourceId, slot: m.slot, kind: m.kind };
    if (r.status !== 'ok') {
      out.push({ ...base, text: null, status: 'failed', ratio: null, reasons: [] });
      continue;
    }
    const v = r.value as Rewrite;
    if (v.text === null) {
      out.push({ ...base, text: null, status: 'none', ratio: null, reasons: [] });
      continue;
    }
    const original = item.responses.find((x) => x.slot === m.slot)!.text;
    const source = rewriteSource(m.kind, original);
    const a = auditVariant(m.kind, source, v.text, opts);
    out.push({
      ...base,
      text: v.text,
      status: 'ok',
      ratio: a.ratio,
      reasons: a.reasons,
      ...(v.hand ? { hand: v.hand } : {}),
    });
  }
  return out;
}

function auditSummary(audited: readonly AuditedVariant[], opts: BiasOptions): AuditSummary {
  // An opt-in probe's band only when it runs: a study that does not choose it keeps its checks
  // (and its metrics.json) as before the probe existed.
  const rewrites = rewriteConditions(opts.probes);
  const kinds: RewriteKind[] = rewrites.map((r) => r.condition.id);
  const flagged: FlaggedVariant[] = audited
    .filter((a) => a.reasons.length > 0)
    .map((a) => ({ item_id: a.sourceId, response: a.slot, variant: a.kind, reasons: a.reasons }));
  return {
    // Each registered rewrite's band (longer_band, shorter_band, markdown_tolerance; an opt-in
    // probe's when selected), then the checks every rewrite gets.
    checks: {
      ...Object.fromEntries(rewrites.map((r) => r.rewrite.check(opts))),
      numbers_kept: true,
      not_empty: true,
    } as AuditSummary['checks'],
    variants: kinds
      .map((variant) => {
        const of = audited.filter((a) => a.kind === variant);
        return {
          variant,
          made: of.filter((a) => a.status === 'ok').length,
          flagged: of.filter((a) => a.reasons.length > 0).length,
          none: of.filter((a) => a.status === 'none').length,
        };
      })
      .filter((v) => v.made + v.none > 0),
    flagged,
  };
}

// ---- reading verdicts --------------------------------------------------------------------

const k = (...parts: (string | null)[]) => parts.join('\u0000');

interface Scores {
  /** judge, sourceId, slot, condition → score (pointwise, response alone). */
  alone: Map<string, ScoreVerdict>;
  /** judge, sourceId, slot, shown → score (pointwise, pair in view). */
  pair: Map<string, ScoreVerdict>;
  /** judge, sourceId, condition, order → verdict (pairwise). */
  verdicts: Map<string, PairwiseVerdict>;
}

/** Verdicts of the first asks; the noise floor's repeats (sample 1) go to `repeats` only. */
function readScores(
  results: readonly TaskResult[],
  keep: (sourceId: string) => boolean,
  repeats?: Scores,
): Scores {
  const s: Scores = { alone: new Map(), pair: new Map(), verdicts: new Map() };
  for (const r of results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeMeta;
    if (!keep(m.sourceId)) continue;
    if (m.sample) {
      if (m.mode === 'pairwise')
        repeats?.verdicts.set(k(m.judge, m.sourceId, m.condition, m.order), r.value as PairwiseVerdict);
      else if (m.shown) repeats?.pair.set(k(m.judge, m.sourceId, m.slot, m.shown), r.value as ScoreVerdict);
      else repeats?.alone.set(k(m.judge, m.sourceId, m.slot, m.condition), r.value as ScoreVerdict);
      continue;
    }
    if (m.mode === 'pairwise')
      s.verdicts.set(k(m.judge, m.sourceId, m.condition, m.order), r.value as PairwiseVerdict);
    else if (m.shown) s.pair.set(k(m.judge, m.sourceId, m.slot, m.shown), r.value as ScoreVerdict);
    else s.alone.set(k(m.judge, m.sourceId, m.slot, m.condition), r.value as ScoreVerdict);
  }
  return s;
}

/** The output a pairwise verdict chose: 1 | 2 | tie, undoing the swap. */
export function choiceOf(v: PairwiseVerdict, order: PairOrder): 1 | 2 | 'tie' {
  return orderChoice(order, v.winner);
}

/** Win score of output `slot` (1 | 2): 1 win, 0.5 tie, 0 loss. */
const winScore = (choice: 1 | 2 | 'tie', slot: 1 | 2) => (choice === 'tie' ? 0.5 : choice === slot ? 1 : 0);

// ---- effects -----------------------------------------------------------------------------

interface Pair {
  sourceId: string;
  /** The paired unit within the item: the response (pointwise) or the order (pairwise). */
  unit: string;
  category: string | null;
  diff: number;
  /** Pairwise: the original did not choose the worse response, and the modified one did. */
  flipped?: boolean;
  /** Pairwise: the original did not choose the worse response (the flip's denominator). */
  flippable?: boolean;
  /** The variant behind the pair was flagged by the audit. */
  flagged: boolean;
  /** For the verdict browser (effect pairs only): the item, both answers as the tables read them, the judge's reason on the variant. */
  itemId?: number;
  shown?: string;
  reason?: string;
  /** For the verdict browser: the text judged before the probe and the one judged after. */
  texts?: ComparedTexts;
}

/**
 * What a paired difference can take: a score on 1–scale moves by at most scale − 1, a win score
 * (1, ½, 0) by at most 1. The t interval knows no bounds; the rows' intervals are clipped to this.
 */
const differenceRange = (opts: MetricsInput['opts']): [number, number] =>
  opts.mode === 'pairwise' ? [-1, 1] : [-(opts.scale - 1), opts.scale - 1];

/** The text a probe changed, before and after (labels are conditions: original, plain, longer…). */
export interface ComparedTexts {
  before: string;
  after: string;
  beforeLabel: Condition;
  afterLabel: Condition;
}

/** The rewrites made, by `k(sourceId, slot, kind)`, for the texts a verdict's pair compares. */
type VariantTexts = ReadonlyMap<string, string>;

/**
 * The paired test's fields of a row, before Holm (each family's pass fills `p_holm` and
 * `significant`). All differences zero: nothing moved, the test has nothing to reject (p = 1).
 */
function pairedTest(
  e: Pick<ReturnType<typeof clusteredPairedEffect>, 'sd' | 'dz'>,
  w: ReturnType<typeof wilcoxonSignedRank>,
): PairedTest {
  return {
    sd: e.sd,
    dz: e.dz,
    p: w ? w.p : 1,
    p_method: w ? w.method : null,
    p_holm: null,
    significant: false,
  };
}

function probeRow(
  judge: string,
  category: string,
  effect: ProbeRow['effect'],
  pairs: Pair[],
  range: [number, number],
): ProbeRow | null {
  if (pairs.length === 0) return null;
  const diffs = pairs.map((p) => p.diff);
  const items = pairs.map((p) => p.sourceId);
  const e = clusteredPairedEffect(diffs, items, range);
  const w = wilcoxonSignedRank(itemMeans(diffs, items));
  const row: ProbeRow = {
    judge,
    category,
    probe: effectById(effect)!.probe.id,
    effect,
    n: e.n,
    items: e.items,
    mean: e.mean,
    mean_ci: e.ci,
    ...(e.ci_undefined_reason ? { mean_ci_undefined: e.ci_undefined_reason } : {}),
    ...pairedTest(e, w),
  };
  if (pairs.some((p) => p.flippable !== undefined)) Object.assign(row, flipFields(pairs));
  if (effectById(effect)!.effect.measure === 'paired-change') Object.assign(row, robustnessFields(pairs));
  return row;
}

/**
 * CALM's robustness rate on the row's units. A verdict is unchanged exactly when its difference is
 * 0: a score moved by 0, or (pairwise) the same choice — the worse response's win score (1, ½, 0)
 * differs for each of its three choices, so a tie counts as a verdict of its own.
 */
function robustnessFields(pairs: readonly Pair[]): {
  robustness_rate: number | null;
  robustness_rate_ci: CI | null;
  robustness_rate_ci_undefined?: string;
} {
  const rr = robustnessRate(
    pairs.map((p) => p.diff === 0),
    pairs.map((p) => p.sourceId),
  );
  return {
    robustness_rate: rr.rate,
    robustness_rate_ci: rr.ci,
    ...(rr.ci_undefined_reason ? { robustness_rate_ci_undefined: rr.ci_undefined_reason } : {}),
  };
}

/** Pairwise: how often the verdict turned to the worse response, among the pairs where it could. */
function flipFields(pairs: readonly Pair[]): {
  flip_n: number;
  flip_rate: number | null;
  flip_rate_ci: CI | null;
} {
  const flippable = pairs.filter((p) => p.flippable);
  const flips = flippable.filter((p) => p.flipped).length;
  return {
    flip_n: flippable.length,
    flip_rate: flippable.length ? flips / flippable.length : null,
    flip_rate_ci: flippable.length ? wilsonInterval(flips, flippable.length) : null,
  };
}

/** The registered effects of a measure in a mode, in registry order. */
const effectsIn = (measure: EffectSpec['measure'], mode: MetricsInput['opts']['mode']): EffectSpec[] =>
  allEffects()
    .map((e) => e.effect)
    .filter((e) => e.measure === measure && e.modes.includes(mode));

function effectPairs(
  input: MetricsInput,
  s: Scores,
  judge: string,
  flaggedSet: ReadonlySet<string>,
  variantTexts?: VariantTexts,
): Map<ProbeRow['effect'], Pair[]> {
  // The verdict browser shows the changed text beside the one it was made from (issue 38 item 7):
  // a Markdown variant beside the plain text, a length variant beside the original. A probe that
  // changes only the prompt shows no texts (they are the same).
  const compared = (
    sourceId: string,
    original: string,
    slot: string,
    effect: EffectSpec,
  ): ComparedTexts | undefined => {
    if (!variantTexts) return undefined;
    const spec = conditionById(effect.variant);
    if (!spec || 'same' in spec.text) return undefined;
    const after = conditionText(effect.variant, original, sourceId, slot, variantTexts);
    const before = conditionText(effect.base, original, sourceId, slot, variantTexts);
    if (after === undefined || before === undefined) return undefined;
    return { before, after, beforeLabel: effect.base, afterLabel: effect.variant };
  };
  const out = new Map<ProbeRow['effect'], Pair[]>();
  const add = (e: ProbeRow['effect'], p: Pair) => out.set(e, [...(out.get(e) ?? []), p]);
  const isFlagged = (sourceId: string, slot: string, kind: RewriteKind) =>
    flaggedSet.has(k(sourceId, slot, kind));
  const changes = effectsIn('paired-change', input.opts.mode);
  const positions = effectsIn('paired-position', input.opts.mode);
  const owns = selectedEffectsIn('own-answers', input.opts);
  for (const item of input.items) {
    if (input.opts.mode === 'pointwise') {
      for (const r of item.responses) {
        const verdict = (c: Condition) => s.alone.get(k(judge, item.sourceId, r.slot, c));
        const at = (c: Condition) => verdict(c)?.score;
        for (const effect of changes) {
          const v = at(effect.variant);
          const base = at(effect.base);
          if (v !== undefined && base !== undefined)
            add(effect.id, {
              sourceId: item.sourceId,
              unit: r.slot,
              category: item.category,
              diff: v - base,
              flagged: isFlagged(item.sourceId, r.slot, effect.variant),
              itemId: item.id,
              shown: `${base} → ${v}`,
              reason: verdict(effect.variant)!.reason,
              texts: compared(item.sourceId, r.text, r.slot, effect),
            });
        }
        const firstV = s.pair.get(k(judge, item.sourceId, r.slot, 'first'));
        const secondV = s.pair.get(k(judge, item.sourceId, r.slot, SHOWN_SECOND));
        if (firstV !== undefined && secondV !== undefined)
          for (const effect of positions)
            add(effect.id, {
              sourceId: item.sourceId,
              unit: r.slot,
              category: item.category,
              diff: firstV.score - secondV.score,
              flagged: false,
              itemId: item.id,
              shown: `${secondV.score} → ${firstV.score}`,
              reason: firstV.reason,
            });
      }
    } else if (item.label !== null) {
      const worse: 1 | 2 = item.label === 1 ? 2 : 1;
      const worseSlot = worse === 1 ? 'output_1' : 'output_2';
      for (const effect of owns) {
        const unit = ownUnits(input, s, judge, item, effect);
        for (const [order, own] of unit)
          add(effect.id, {
            sourceId: item.sourceId,
            unit: order,
            category: item.category,
            diff: own.win - own.ref,
            flagged: false,
            itemId: item.id,
            // The human's verdict on the judge's own response → the judge's, the row's unit.
            shown: `${own.ref} → ${own.win}`,
            reason: s.verdicts.get(k(judge, item.sourceId, ORIGINAL, order))!.reason,
          });
      }
      for (const order of ['orig', 'swap'] as const) {
        const verdict = (c: Condition) => s.verdicts.get(k(judge, item.sourceId, c, order));
        const at = (c: Condition) => {
          const v = verdict(c);
          return v ? choiceOf(v, order) : undefined;
        };
        for (const effect of changes) {
          const v = at(effect.variant);
          const b = at(effect.base);
          if (v === undefined || b === undefined) continue;
          add(effect.id, {
            sourceId: item.sourceId,
            unit: order,
            category: item.category,
            diff: winScore(v, worse) - winScore(b, worse),
            flippable: b !== worse,
            flipped: b !== worse && v === worse,
            flagged: isFlagged(item.sourceId, worseSlot, effect.variant),
            itemId: item.id,
            // The worse response's win score before → after, the unit the row's mean is in.
            shown: `${winScore(b, worse)} → ${winScore(v, worse)}`,
            reason: verdict(effect.variant)!.reason,
            texts: compared(
              item.sourceId,
              item.responses.find((x) => x.slot === worseSlot)?.text ?? '',
              worseSlot,
              effect,
            ),
          });
        }
      }
    }
  }
  return out;
}

/** The selected probes' effects of a measure in the mode (an own-answers effect reads the original verdicts any probe asks). */
const selectedEffectsIn = (measure: EffectSpec['measure'], opts: MetricsInput['opts']): EffectSpec[] =>
  selectedProbes(opts).flatMap((p) =>
    p.effects.filter((e) => e.measure === measure && e.modes.includes(opts.mode)),
  );

/**
 * An own-answers effect's units of one item (pairwise, gold label): both orders' original verdicts
 * when exactly one response is by the judge's own model, else none (an item missing an order is
 * left out: the orders are averaged, so each item weighs the same).
 */
function ownUnits(
  input: MetricsInput,
  s: Scores,
  judge: string,
  item: BiasItem,
  effect: EffectSpec,
): [PairOrder, OwnUnit][] {
  const model = input.judgeModels?.[judge];
  if (model === undefined || item.label === null) return [];
  const at = ownSlot(
    effect,
    model,
    item.responses.map((r) => r.model),
    input.opts,
  );
  if (at === null || at === 'both') return [];
  const { slot } = at;
  const tokens = item.responses.map((r) => tokenCount(r.text));
  const verdicts = (['orig', 'swap'] as const).map(
    (order) => [order, s.verdicts.get(k(judge, item.sourceId, ORIGINAL, order))] as const,
  );
  if (verdicts.some(([, v]) => !v)) return [];
  return verdicts.map(([order, v]) => [
    order,
    {
      sourceId: item.sourceId,
      category: item.category,
      win: winScore(choiceOf(v!, order), slot),
      ref: item.label === slot ? 1 : 0,
      longer: tokens[slot - 1] > tokens[2 - slot],
    },
  ]);
}

/**
 * The own-answers section: per judge × category × selected own-answers effect, from the same
 * units as the profile row, whose Wilcoxon p and Holm p its excess repeats.
 */
function ownAnswersOf(input: MetricsInput, s: Scores, profile: readonly ProbeRow[]): OwnAnswersRow[] {
  const effects = selectedEffectsIn('own-answers', input.opts);
  if (!effects.length) return [];
  const rows: OwnAnswersRow[] = [];
  for (const judge of input.judges) {
    const model = input.judgeModels?.[judge] ?? judge;
    for (const effect of effects) {
      const units = input.items.flatMap((item) => ownUnits(input, s, judge, item, effect).map(([, u]) => u));
      const answerModels = [
        ...new Set(input.items.flatMap((i) => i.responses.flatMap((r) => (r.model ? [r.model] : [])))),
      ];
      const ownModels = answerModels.filter((m) => effect.ownAnswer!(model, m, input.opts)).sort();
      for (const cat of categoriesOf(input.items)) {
        const inCat = (x: { category: string | null }) => cat === ALL || x.category === cat;
        const bothOwn = input.items.filter(
          (i) =>
            inCat(i) &&
            ownSlot(
              effect,
              model,
              i.responses.map((r) => r.model),
              input.opts,
            ) === 'both',
        ).length;
        const row = ownAnswersRow(
          {
            judge,
            category: cat,
            effect: effect.id,
            judge_model: model,
            own_models: ownModels,
            both_own: bothOwn,
          },
          units.filter(inCat),
        );
        const p = profile.find((r) => r.judge === judge && r.category === cat && r.effect === effect.id);
        if (p) Object.assign(row.excess, { p: p.p, p_method: p.p_method, p_holm: p.p_holm });
        rows.push(row);
      }
    }
  }
  return rows;
}

/** The variants the audit flagged, keyed as `effectPairs` looks them up. */
function flaggedKeys(audited: readonly AuditedVariant[]): Set<string> {
  return new Set(audited.filter((a) => a.reasons.length > 0).map((a) => k(a.sourceId, a.slot, a.kind)));
}

/** Every registered effect, in registry order: the order of the profile's rows. */
const effectIds = (): ProbeRow['effect'][] => allEffects().map((e) => e.effect.id);

/**
 * The paired differences behind the bias profile's rows (the verdict browser, issue 26 item 4):
 * the same pairs `probeRows` computes its rows from, flagged variants kept as the profile keeps them.
 */
export function profilePairs(
  input: MetricsInput,
): { judge: string; effect: ProbeRow['effect']; pair: Readonly<Pair> }[] {
  const keep = new Set(input.items.map((i) => i.sourceId));
  const audited = auditVariants(input.items, input.results, input.opts);
  const flaggedSet = flaggedKeys(audited);
  const s = readScores(input.results, (id) => keep.has(id));
  const texts = new Map(
    audited.filter((a) => a.text !== null).map((a) => [k(a.sourceId, a.slot, a.kind), a.text!] as const),
  );
  return input.judges.flatMap((judge) => {
    const pairs = effectPairs(input, s, judge, flaggedSet, texts);
    return effectIds().flatMap((effect) =>
      (pairs.get(effect) ?? []).map((pair) => ({ judge, effect, pair })),
    );
  });
}

function categoriesOf(items: readonly BiasItem[]): string[] {
  return [ALL, ...new Set(items.map((i) => i.category).filter((c): c is string => c !== null))];
}

function probeRows(input: MetricsInput, s: Scores, flaggedSet: ReadonlySet<string>, dropFlagged: boolean) {
  const rows: ProbeRow[] = [];
  const differences: DiffSeries[] = [];
  const cats = categoriesOf(input.items);
  for (const judge of input.judges) {
    const pairs = effectPairs(input, s, judge, flaggedSet);
    for (const effect of effectIds()) {
      const all = (pairs.get(effect) ?? []).filter((p) => !(dropFlagged && p.flagged));
      if (all.length) differences.push({ judge, effect, diffs: all.map((p) => p.diff) });
      for (const cat of cats) {
        const row = probeRow(
          judge,
          cat,
          effect,
          cat === ALL ? all : all.filter((p) => p.category === cat),
          differenceRange(input.opts),
        );
        if (row) rows.push(row);
      }
    }
  }
  return { rows, differences };
}

function positionRows(input: MetricsInput, s: Scores): PositionRow[] {
  if (input.opts.mode !== 'pairwise' || !measuresPosition(input.opts)) return [];
  const rows: PositionRow[] = [];
  for (const judge of input.judges)
    for (const cat of categoriesOf(input.items)) {
      const items = input.items.filter((i) => cat === ALL || i.category === cat);
      let a = 0;
      let decided = 0;
      let same = 0;
      const both: PositionPair[] = [];
      for (const item of items) {
        const o = s.verdicts.get(k(judge, item.sourceId, 'original', 'orig'));
        const w = s.verdicts.get(k(judge, item.sourceId, 'original', 'swap'));
        for (const v of [o, w])
          if (v && v.winner !== 'tie') {
            decided++;
            if (v.winner === 'A') a++;
          }
        if (o && w) {
          both.push({ orig: shownPosition(o.winner), swap: shownPosition(w.winner) });
          if (choiceOf(o, 'orig') === choiceOf(w, 'swap')) same++;
        }
      }
      const pairs = both.length;
      if (decided === 0 && pairs === 0) continue;
      rows.push({
        judge,
        category: cat,
        n: decided,
        position_a_rate: decided ? a / decided : 0,
        position_a_rate_ci: wilsonInterval(a, decided),
        // The two orders of an item are a pair: the test reads the items, not the verdicts.
        ...leanColumns(pairedPositionTest(both)),
        p_holm: null,
        n_pairs: pairs,
        swap_consistency: pairs ? same / pairs : null,
        swap_consistency_ci: pairs ? wilsonInterval(same, pairs) : null,
      });
    }
  return rows;
}

/** Holm within each judge × category: its probe effects and its paired position test. */
function applyHolm(probes: ProbeRow[], position: PositionRow[]): void {
  const families = new Map<string, { get: () => number | null; set: (p: number | null) => void }[]>();
  const add = (
    judge: string,
    cat: string,
    e: { get: () => number | null; set: (p: number | null) => void },
  ) => families.set(k(judge, cat), [...(families.get(k(judge, cat)) ?? []), e]);
  for (const r of probes)
    add(r.judge, r.category, {
      get: () => r.p,
      set: (p) => {
        r.p_holm = p;
        r.significant = p !== null && p < SIGNIFICANCE;
      },
    });
  for (const r of position)
    add(r.judge, r.category, {
      get: () => r.lean_p,
      set: (p) => {
        r.p_holm = p;
      },
    });
  for (const family of families.values()) {
    const adjusted = holmAdjust(family.map((e) => e.get()));
    family.forEach((e, i) => e.set(adjusted[i]));
  }
}

// ---- the noise floor ----------------------------------------------------------------------

/** Each effect's unchanged side, which its placebo asks again (plan.ts repeats exactly these). */
const placeboOf = (effect: ProbeRow['effect']): PlaceboBase => effectById(effect)!.effect.placebo;

/** Placebo pairs: repeat − first of one repeated side, on the units the probes pair. */
function placeboPairs(
  input: MetricsInput,
  s: Scores,
  repeats: Scores,
  judge: string,
  base: PlaceboBase,
): Pair[] {
  const out: Pair[] = [];
  for (const item of input.items) {
    const at = { sourceId: item.sourceId, category: item.category, flagged: false };
    if (input.opts.mode === 'pointwise')
      for (const r of item.responses) {
        const [first, again] =
          base === SHOWN_SECOND
            ? [
                s.pair.get(k(judge, item.sourceId, r.slot, SHOWN_SECOND))?.score,
                repeats.pair.get(k(judge, item.sourceId, r.slot, SHOWN_SECOND))?.score,
              ]
            : [
                s.alone.get(k(judge, item.sourceId, r.slot, base))?.score,
                repeats.alone.get(k(judge, item.sourceId, r.slot, base))?.score,
              ];
        if (first !== undefined && again !== undefined)
          out.push({ ...at, unit: r.slot, diff: again - first });
      }
    else if (item.label !== null && base !== SHOWN_SECOND) {
      const worse: 1 | 2 = item.label === 1 ? 2 : 1;
      for (const order of ['orig', 'swap'] as const) {
        const key = k(judge, item.sourceId, base, order);
        const [first, again] = [s.verdicts.get(key), repeats.verdicts.get(key)];
        if (!first || !again) continue;
        const [b, v] = [choiceOf(first, order), choiceOf(again, order)];
        out.push({
          ...at,
          unit: order,
          diff: winScore(v, worse) - winScore(b, worse),
          flippable: b !== worse,
          flipped: b !== worse && v === worse,
        });
      }
    }
  }
  return out;
}

const ALL_EQUAL = 'every difference is equal, so the t interval has no width to estimate';

const isPairwise = (pairs: readonly Pair[]) => pairs.some((p) => p.flippable !== undefined);

/**
 * Each item's mean of `values` (first-seen order). An item's units (a pairwise item's two orders,
 * a pointwise item's responses) move together, so the signed-rank test ranks items, not units.
 */
const itemMeans = (values: readonly number[], items: readonly string[]): number[] =>
  itemSums(values, items).map(([sum, m]) => sum / m);

function placeboRow(
  judge: string,
  category: string,
  repeated: PlaceboBase,
  pairs: Pair[],
): PlaceboRow | null {
  if (!pairs.length) return null;
  const diffs = pairs.map((p) => p.diff);
  const items = pairs.map((p) => p.sourceId);
  const e = clusteredPairedEffect(diffs, items);
  const w = wilcoxonSignedRank(itemMeans(diffs, items));
  const ci = e.ci;
  const row: PlaceboRow = {
    judge,
    category,
    repeated,
    n: e.n,
    items: e.items,
    changed: diffs.filter((d) => d !== 0).length,
    mean: e.mean,
    mean_ci: ci,
    mean_ci_undefined: ci ? null : (e.ci_undefined_reason ?? ALL_EQUAL),
    sd: e.sd,
    p: w ? w.p : 1,
    p_method: w ? w.method : null,
    ...robustnessFields(pairs),
  };
  if (isPairwise(pairs)) Object.assign(row, flipFields(pairs));
  return row;
}

/**
 * An effect against its own placebo on the units that have both: the signed excess (a paired
 * difference of differences), and — since the placebo's mean change is about 0 by construction,
 * so the excess mostly re-tests the probe — how often and by how much each changes the score,
 * compared pairwise on the same units as the other studies compare flip rates.
 */
function excessRow(
  judge: string,
  category: string,
  effect: ProbeRow['effect'],
  pairs: Pair[],
  placebo: ReadonlyMap<string, number>,
): ExcessRow | null {
  const both = pairs.flatMap((p) => {
    const d0 = placebo.get(k(p.sourceId, p.unit));
    return d0 === undefined ? [] : [{ source: p.sourceId, effect: p.diff, placebo: d0 }];
  });
  if (!both.length) return null;
  const diffs = both.map((b) => b.effect - b.placebo);
  const items = both.map((b) => b.source);
  const e = clusteredPairedEffect(diffs, items);
  const w = wilcoxonSignedRank(itemMeans(diffs, items));
  const ci = e.ci;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const probeOnly = both.filter((b) => b.effect !== 0 && b.placebo === 0).length;
  const repeatOnly = both.filter((b) => b.effect === 0 && b.placebo !== 0).length;
  const abs = wilcoxonSignedRank(
    itemMeans(
      both.map((b) => Math.abs(b.effect) - Math.abs(b.placebo)),
      items,
    ),
  );
  return {
    judge,
    category,
    effect,
    repeated: placeboOf(effect),
    n: e.n,
    items: e.items,
    effect_mean: mean(both.map((b) => b.effect)),
    placebo_mean: mean(both.map((b) => b.placebo)),
    excess: e.mean,
    excess_ci: ci,
    excess_ci_undefined: ci ? null : (e.ci_undefined_reason ?? ALL_EQUAL),
    ...pairedTest(e, w),
    changed_probe: both.filter((b) => b.effect !== 0).length,
    changed_repeat: both.filter((b) => b.placebo !== 0).length,
    probe_only: probeOnly,
    repeat_only: repeatOnly,
    // No discordant unit: the two change alike, nothing to reject.
    // The item is the unit: a pairwise item's two orders are two units of one item.
    changed_p: clusteredMcnemar(
      both,
      (b) => b.source,
      (b) => ((b.effect !== 0) === (b.placebo !== 0) ? 0 : b.effect !== 0 ? 1 : -1),
    ),
    changed_p_holm: null,
    abs_probe_mean: mean(both.map((b) => Math.abs(b.effect))),
    abs_repeat_mean: mean(both.map((b) => Math.abs(b.placebo))),
    abs_p: abs ? abs.p : 1,
    abs_p_method: abs ? abs.method : null,
    abs_p_holm: null,
  };
}

/** Holm across the effects of one judge × category, per test (each hypothesis once per family). */
function holmFamilies(family: ExcessRow[]): void {
  holmAdjust(family.map((r) => r.p)).forEach((p, i) => {
    family[i].p_holm = p;
    family[i].significant = p !== null && p < SIGNIFICANCE;
  });
  holmAdjust(family.map((r) => r.changed_p)).forEach((p, i) => (family[i].changed_p_holm = p));
  holmAdjust(family.map((r) => r.abs_p)).forEach((p, i) => (family[i].abs_p_holm = p));
}

function noiseFloorOf(
  input: MetricsInput,
  s: Scores,
  repeats: Scores,
  flaggedSet: ReadonlySet<string>,
): BiasNoiseFloor {
  const placebo: PlaceboRow[] = [];
  const excess: ExcessRow[] = [];
  const cats = categoriesOf(input.items);
  for (const judge of input.judges) {
    const zero = new Map(placeboBases().map((b) => [b, placeboPairs(input, s, repeats, judge, b)]));
    const byUnit = new Map(
      placeboBases().map((b) => [b, new Map(zero.get(b)!.map((p) => [k(p.sourceId, p.unit), p.diff]))]),
    );
    const effects = effectPairs(input, s, judge, flaggedSet);
    for (const cat of cats) {
      const inCat = (p: Pair) => cat === ALL || p.category === cat;
      for (const base of placeboBases()) {
        const row = placeboRow(judge, cat, base, zero.get(base)!.filter(inCat));
        if (row) placebo.push(row);
      }
      const family: ExcessRow[] = [];
      for (const effect of effectIds()) {
        // Observational: nothing was changed, so no placebo repeats a changed side.
        if (effectById(effect)!.effect.measure === 'own-answers') continue;
        const of = (effects.get(effect) ?? []).filter(inCat);
        const e = excessRow(judge, cat, effect, of, byUnit.get(placeboOf(effect))!);
        if (e) family.push(e);
      }
      holmFamilies(family);
      excess.push(...family);
    }
  }
  return { placebo, excess };
}

// ---- accuracy (pairwise, gold labels) -------------------------------------------------------

/** The conditions a pairwise judge may see, in the order the plan asks them (registry order). */
const pairwiseConditions = (): Condition[] => [
  ORIGINAL,
  ...allConditions()
    .filter((c) => c.condition.pairwise !== null)
    .map((c) => c.condition.id),
];

/**
 * Pairwise mode with gold labels: per judge × variant × category the share of (item, order)
 * verdicts choosing the better response (first asks; a tie is not correct), Wilson 95%.
 */
function accuracyRows(input: MetricsInput, s: Scores): AccuracyRow[] {
  if (input.opts.mode !== 'pairwise') return [];
  const gold = input.items.filter((i) => i.label !== null);
  if (!gold.length) return [];
  const rows: AccuracyRow[] = [];
  for (const judge of input.judges)
    for (const variant of pairwiseConditions())
      for (const cat of categoriesOf(gold)) {
        let n = 0;
        let correct = 0;
        let ties = 0;
        for (const item of gold) {
          if (cat !== ALL && item.category !== cat) continue;
          for (const order of ['orig', 'swap'] as const) {
            const v = s.verdicts.get(k(judge, item.sourceId, variant, order));
            if (!v) continue;
            n++;
            const c = choiceOf(v, order);
            if (c === 'tie') ties++;
            else if (c === item.label) correct++;
          }
        }
        if (n)
          rows.push({
            judge,
            category: cat,
            variant,
            n,
            correct,
            ties,
            accuracy: correct / n,
            accuracy_ci: wilsonInterval(correct, n),
          });
      }
  return rows;
}

// ---- raw and debiased item scores ----------------------------------------------------------

/**
 * One row per judge × item × response: `raw` is the judge's score of the response as given
 * (pairwise: the win score of output_1 in the original order); `debiased` is its score with
 * Markdown stripped (the `plain` text) where the format probe ran, and for pairwise the win
 * score of output_1 averaged over both orders (on the plain texts where judged). Null where the
 * judge gave no valid answer.
 */
export function itemScoresOf(
  input: Pick<MetricsInput, 'opts' | 'judges' | 'items' | 'results'>,
): ItemScore[] {
  const s = readScores(input.results, () => true);
  // The condition whose score is the debiased one (the format probe's plain text), if registered.
  const debiasing = allConditions().find((c) => c.condition.debiases)?.condition.id;
  const rows: ItemScore[] = [];
  for (const judge of input.judges)
    for (const item of input.items) {
      const category = item.category ?? '';
      if (input.opts.mode === 'pointwise') {
        for (const r of item.responses) {
          const raw = s.alone.get(k(judge, item.sourceId, r.slot, 'original'))?.score ?? null;
          const plain =
            debiasing === undefined
              ? undefined
              : s.alone.get(k(judge, item.sourceId, r.slot, debiasing))?.score;
          rows.push({
            itemId: item.sourceId,
            response: r.slot,
            judge,
            category,
            raw,
            debiased: plain ?? raw,
          });
        }
      } else {
        const at = (c: Condition, order: 'orig' | 'swap') => {
          const v = s.verdicts.get(k(judge, item.sourceId, c, order));
          return v ? winScore(choiceOf(v, order), 1) : undefined;
        };
        const raw = at('original', 'orig') ?? null;
        const both = (c: Condition) => {
          const [o, w] = [at(c, 'orig'), at(c, 'swap')];
          return o !== undefined && w !== undefined ? (o + w) / 2 : undefined;
        };
        const debiased = (debiasing === undefined ? undefined : both(debiasing)) ?? both(ORIGINAL) ?? null;
        rows.push({ itemId: item.sourceId, response: 'output_1', judge, category, raw, debiased });
      }
    }
  return rows;
}

function debiasedRows(input: MetricsInput, scores: ItemScore[]): DebiasedRow[] {
  const rows: DebiasedRow[] = [];
  for (const judge of input.judges)
    for (const cat of categoriesOf(input.items)) {
      const of = scores.filter(
        (r) =>
          r.judge === judge && (cat === ALL || r.category === cat) && r.raw !== null && r.debiased !== null,
      );
      if (!of.length) continue;
      rows.push({
        judge,
        category: cat,
        n: of.length,
        raw_mean: of.reduce((a, r) => a + r.raw!, 0) / of.length,
        debiased_mean: of.reduce((a, r) => a + r.debiased!, 0) / of.length,
      });
    }
  return rows;
}

// ---- length correlations ---------------------------------------------------------------

function lengthRows(
  input: MetricsInput,
  s: Scores,
): { rows: LengthCorrelationRow[]; scatter: ScatterPoint[] } {
  const rows: LengthCorrelationRow[] = [];
  const scatter: ScatterPoint[] = [];
  for (const judge of input.judges) {
    const points: (ScatterPoint & { category: string | null; human: number | null })[] = [];
    // Pairwise: the length difference output_1 − output_2 against output_1's win score,
    // averaged over the orders judged (original texts).
    if (input.opts.mode === 'pairwise')
      for (const item of input.items) {
        const wins = (['orig', 'swap'] as const).flatMap((order) => {
          const v = s.verdicts.get(k(judge, item.sourceId, 'original', order));
          return v ? [winScore(choiceOf(v, order), 1)] : [];
        });
        if (wins.length)
          points.push({
            judge,
            item_id: item.sourceId,
            response: 'output_1',
            tokens: tokenCount(item.responses[0].text) - tokenCount(item.responses[1].text),
            score: wins.reduce((a, b) => a + b, 0) / wins.length,
            category: item.category,
            human: null,
          });
      }
    else
      for (const r of input.items.flatMap((item) => item.responses.map((resp) => ({ item, resp })))) {
        const { item } = r;
        const v = s.alone.get(k(judge, item.sourceId, r.resp.slot, 'original'));
        if (v)
          points.push({
            judge,
            item_id: item.sourceId,
            response: r.resp.slot,
            tokens: tokenCount(r.resp.text),
            score: v.score,
            category: item.category,
            human: item.humanScore,
          });
      }
    scatter.push(
      ...points.map(({ judge, item_id, response, tokens, score }) => ({
        judge,
        item_id,
        response,
        tokens,
        score,
      })),
    );
    for (const cat of categoriesOf(input.items)) {
      const of = points.filter((p) => cat === ALL || p.category === cat);
      if (of.length < 2) continue;
      const x = of.map((p) => p.tokens);
      const y = of.map((p) => p.score);
      const withHuman = of.filter((p) => p.human !== null);
      const ps = partialSpearman(
        withHuman.map((p) => p.tokens),
        withHuman.map((p) => p.score),
        withHuman.map((p) => p.human!),
      );
      const pr = pearson(x, y);
      const sr = spearman(x, y);
      rows.push({
        judge,
        category: cat,
        n: of.length,
        pearson_r: pr.r,
        pearson_p: pr.p,
        spearman_r: sr.r,
        spearman_p: sr.p,
        n_human: withHuman.length,
        partial_spearman_r: ps.r,
        partial_spearman_p: ps.p,
      });
    }
  }
  return { rows, scatter };
}

// ---- failures and the whole ----------------------------------------------------------------

function failureRows(results: readonly TaskResult[]): FailureRow[] {
  const rows = new Map<string, FailureRow>();
  for (const r of results) {
    if (r.status !== 'failed') continue;
    const stage = r.stage === 'rewrite' ? 'rewrite' : 'judge';
    const who = stage === 'rewrite' ? 'rewriter' : (r.meta as JudgeMeta).judge;
    const jm = r.meta as JudgeMeta;
    const kind =
      stage === 'rewrite'
        ? (r.meta as RewriteMeta).kind
        : `${jm.mode}:${jm.shown ? 'pair' : jm.condition}${jm.sample ? ' repeat' : ''}`;
    const reason = r.reason ?? 'failed';
    const key = k(who, stage, kind, reason);
    const row = rows.get(key) ?? { who, stage, kind, reason, count: 0 };
    row.count++;
    rows.set(key, row);
  }
  return [...rows.values()];
}

export function computeBiasMetrics(input: MetricsInput): BiasMetrics {
  const keep = new Set(input.items.map((i) => i.sourceId));
  const audited = auditVariants(input.items, input.results, input.opts);
  const flaggedSet = flaggedKeys(audited);
  const repeats: Scores = { alone: new Map(), pair: new Map(), verdicts: new Map() };
  const s = readScores(input.results, (id) => keep.has(id), repeats);
  const main = probeRows(input, s, flaggedSet, false);
  const sensitivity = probeRows(input, s, flaggedSet, true);
  const position = positionRows(input, s);
  applyHolm(main.rows, position);
  applyHolm(sensitivity.rows, positionRows(input, s));
  const length = lengthRows(input, s);
  const audit = auditSummary(audited, input.opts);
  const accuracy = accuracyRows(input, s);
  const own = ownAnswersOf(input, s, main.rows);
  return {
    mode: input.opts.mode,
    scale: input.opts.scale,
    probes: main.rows,
    position,
    length_correlation: length.rows,
    debiased: debiasedRows(
      input,
      itemScoresOf({
        ...input,
        results: input.results.filter((r) => keep.has((r.meta as { sourceId: string }).sourceId)),
      }),
    ),
    audit,
    sensitivity: {
      excluded_item_ids: [...new Set(audit.flagged.map((f) => f.item_id))],
      probes: sensitivity.rows,
    },
    scatter: length.scatter,
    differences: main.differences,
    usage: input.usage,
    failures: failureRows(input.results),
    ...(accuracy.length ? { accuracy } : {}),
    ...(input.opts.noiseFloor ? { noise_floor: noiseFloorOf(input, s, repeats, flaggedSet) } : {}),
    ...(instructionRewrites(input.opts).length
      ? {
          instruction_paraphrases: instructionParaphrases(
            input.opts,
            input.judges,
            input.items,
            input.results,
          ),
        }
      : {}),
    ...(own.length ? { own_answers: own } : {}),
    ...handEditsOf(input.results),
  };
}

/**
 * How many rewrites and paraphrases are judged in a person's text (hand edits), for Methods;
 * absent without any, so metrics.json is as before.
 */
function handEditsOf(results: readonly TaskResult[]): { hand_edits?: BiasMetrics['hand_edits'] } {
  let rewrites = 0;
  let paraphrases = 0;
  for (const r of results) {
    const v = r.value as Rewrite | null;
    if (r.stage !== 'rewrite' || r.status !== 'ok' || v?.text == null || !v.hand) continue;
    if ((r.meta as RewriteMeta).paraphrase === undefined) rewrites++;
    else paraphrases++;
  }
  return rewrites + paraphrases ? { hand_edits: { rewrites, paraphrases } } : {};
}
