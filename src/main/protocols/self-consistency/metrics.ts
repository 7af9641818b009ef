// Self-consistency metrics (DESIGN.md section 5e): pure over the stored results. A "question" is
// one request (judge × condition × item × order) asked K times; the bootstrap resamples items, so
// an item's two orders move together.
import {
  clusterBootstrapRatio,
  DEFAULT_BOOTSTRAP_B,
  DEFAULT_BOOTSTRAP_SEED,
} from '../../../shared/stats/bootstrap';
import { holmAdjust } from '../../../shared/stats/holm';
import { intervalFields, RANGE, ruledBootstrap } from '../../../shared/stats/interval-rule';
import { wilsonInterval } from '../../../shared/stats/intervals';
import {
  leanColumns,
  pairedPositionTest,
  type PositionPair,
  type ShownPosition,
} from '../../../shared/stats/position';
import { fleissKappa } from '../../../shared/stats/raters';
import type { CI } from '../../../shared/report/format';
import type { UsageRow } from '../../../shared/report/usage';
import {
  icc1,
  modalCount,
  oddMedian,
  pairDisagreement,
  plurality,
  sampleSd,
  verdictCounts,
} from '../../../shared/protocols/self-consistency/stats';
import {
  ALL,
  type AccuracyRow,
  type AgreementBin,
  type FailureRow,
  type Mode,
  type PositionRow,
  type SelfConsistencyMetrics,
  type StabilityRow,
  type UnstableRow,
  type Verdict,
} from '../../../shared/protocols/self-consistency/types';
import { choiceOf } from '../../judging/order';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { TaskResult } from '../plugin';
import type { SelfConsistencyOptions } from './config';
import type { ScItem } from './item';
import type { RepeatMeta } from './plan';

export interface MetricsInput {
  opts: SelfConsistencyOptions;
  mode: Mode;
  judges: string[];
  /** Each judge's own temperature (the "own" condition's), null when it sets none. */
  ownTemperature?: Record<string, number | null>;
  items: ScItem[];
  results: readonly TaskResult[];
  usage: UsageRow[];
  bootstrap?: { B?: number; seed?: number };
}

/** One question's repeats: the verdict of each sample (undefined: failed or not answered). */
export interface Question {
  judge: string;
  condition: string;
  item: ScItem;
  order: string;
  verdicts: (Verdict | undefined)[];
  /** What the judge said, for listing (A / B / tie, or the score). */
  shown: (string | undefined)[];
  failed: number;
}

const key = (...parts: (string | number)[]) => parts.join('\u0000');

/** The verdict a stored answer gives: pairwise the normalized choice, pointwise the score. */
export function verdictOf(meta: RepeatMeta, value: unknown): { verdict: Verdict; shown: string } {
  if (meta.mode === 'pairwise') {
    const v = value as PairwiseVerdict;
    return { verdict: choiceOf(meta.order as 'orig' | 'swap', v.winner), shown: v.winner };
  }
  const s = (value as ScoreVerdict).score;
  return { verdict: s, shown: String(s) };
}

/** Every planned question with its repeats, in judge, condition, item, order order. */
export function questionsOf(
  input: Pick<MetricsInput, 'opts' | 'mode' | 'judges' | 'items' | 'results'>,
): Question[] {
  const K = input.opts.repeats;
  const byKey = new Map<string, Question>();
  const orders = input.mode === 'pairwise' ? input.opts.orders : ['-'];
  const list: Question[] = [];
  for (const condition of input.opts.conditions)
    for (const judge of input.judges)
      for (const item of input.items)
        for (const order of orders) {
          const q: Question = {
            judge,
            condition: condition.id,
            item,
            order,
            verdicts: Array.from({ length: K }),
            shown: Array.from({ length: K }),
            failed: 0,
          };
          byKey.set(key(judge, condition.id, item.sourceId, order), q);
          list.push(q);
        }
  for (const r of input.results) {
    const m = r.meta as RepeatMeta;
    const q = byKey.get(key(m.judge, m.condition, m.sourceId, m.order));
    if (!q || m.sample >= K) continue;
    if (r.status !== 'ok') {
      q.failed++;
      continue;
    }
    const v = verdictOf(m, r.value);
    q.verdicts[m.sample] = v.verdict;
    q.shown[m.sample] = v.shown;
  }
  return list;
}

const valid = (q: Question): Verdict[] => q.verdicts.filter((v): v is Verdict => v !== undefined);
const complete = (q: Question) => q.verdicts.every((v) => v !== undefined);

/** Questions with every repeat valid: the ones Fleiss' κ and ICC(1) read. */
export const completeQuestions = (qs: readonly Question[]) => qs.filter(complete);

/** Per-item clusters of a per-question value (num) over questions (den), for the item bootstrap. */
function clusters(qs: readonly Question[], value: (q: Question) => number) {
  const byItem = new Map<string, { num: number; den: number }>();
  for (const q of qs) {
    const c = byItem.get(q.item.sourceId) ?? { num: 0, den: 0 };
    c.num += value(q);
    c.den += 1;
    byItem.set(q.item.sourceId, c);
  }
  return [...byItem.values()];
}

/**
 * `<name>_ci` from the item bootstrap, or null with `<name>_ci_undefined_reason` when it does not
 * exist: no items, or every resample gives the same value (all questions unanimous, say), which
 * would otherwise show as a zero-width interval.
 */
function bootCi<N extends string>(
  name: N,
  cs: { num: number; den: number }[],
  opts: { B: number; seed: number },
): Record<`${N}_ci`, CI | null> & Partial<Record<`${N}_ci_undefined_reason`, string>> {
  // The interval rule shared by every table (src/shared/stats/interval-rule.ts).
  return intervalFields(
    `${name}_ci`,
    ruledBootstrap(cs.length ? clusterBootstrapRatio(cs, opts) : null, RANGE.proportion),
  );
}

function categoriesOf(mode: Mode, scale: number): Verdict[] {
  return mode === 'pairwise' ? [1, 2, 'tie'] : Array.from({ length: scale }, (_, i) => i + 1);
}

function stabilityRow(
  input: MetricsInput,
  qs: Question[],
  base: Pick<StabilityRow, 'judge' | 'condition' | 'temperature' | 'category'>,
  boot: { B: number; seed: number },
): StabilityRow {
  const rated = qs.filter((q) => valid(q).length >= 2);
  const unanimous = rated.filter((q) => verdictCounts(valid(q)).size === 1).length;
  const full = completeQuestions(qs);
  const cats = categoriesOf(input.mode, input.opts.scale);
  const counts = full.map((q) => {
    const c = verdictCounts(valid(q));
    return cats.map((cat) => c.get(cat) ?? 0);
  });
  let kappa: number | null = null;
  let kappaReason: string | undefined;
  if (full.length < 2) kappaReason = 'fewer than 2 complete questions';
  else {
    kappa = fleissKappa(counts);
    if (kappa === null) kappaReason = 'one verdict everywhere';
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  const row: StabilityRow = {
    ...base,
    questions: rated.length,
    items: new Set(rated.map((q) => q.item.sourceId)).size,
    asked: qs.length * input.opts.repeats,
    failed: qs.reduce((s, q) => s + q.failed, 0),
    unanimous,
    unanimous_rate: rated.length ? unanimous / rated.length : null,
    ...bootCi(
      'unanimous_rate',
      clusters(rated, (q) => (verdictCounts(valid(q)).size === 1 ? 1 : 0)),
      boot,
    ),
    disagree_prob: mean(rated.map((q) => pairDisagreement(valid(q))!)),
    ...bootCi(
      'disagree_prob',
      clusters(rated, (q) => pairDisagreement(valid(q))!),
      boot,
    ),
    fleiss_kappa: kappa,
    ...(kappaReason ? { fleiss_kappa_undefined_reason: kappaReason } : {}),
    complete: full.length,
  };
  if (input.mode === 'pointwise') {
    const icc = icc1(full.map((q) => valid(q) as number[]));
    row.within_sd = mean(rated.map((q) => sampleSd(valid(q) as number[])!));
    row.icc1 = icc.icc;
    row.icc1_ci = icc.ci;
    if (icc.undefinedReason) row.icc1_undefined_reason = icc.undefinedReason;
  }
  return row;
}

/** The majority of the first k repeats: plurality of choices (a tied vote: null), median of scores. */
function majority(mode: Mode, vs: readonly Verdict[]): Verdict | null {
  return mode === 'pairwise' ? plurality(vs) : oddMedian(vs as number[]);
}

/** Odd k from 1 to K: a vote of an odd number of binary verdicts cannot tie (three-way ties still can). */
export const oddKs = (K: number) => Array.from({ length: Math.ceil(K / 2) }, (_, i) => 2 * i + 1);

/** The questions the accuracy rows (and their mean single) read: complete, with a gold label. */
export const goldedOf = (qs: readonly Question[]) => qs.filter((q) => q.item.gold !== null && complete(q));

/** The gold verdict of a question: the better output, or the human score rounded half up. */
const goldOf = (mode: Mode, q: Question) => (mode === 'pairwise' ? q.item.gold : Math.round(q.item.gold!));

/** 1 when the majority of the question's first k repeats is its gold verdict. */
export const majorityHit = (mode: Mode, q: Question, k: number) =>
  majority(mode, q.verdicts.slice(0, k) as Verdict[]) === goldOf(mode, q) ? 1 : 0;

/** Each complete question with a gold label, once per odd k: the votes the accuracy-by-k rows count. */
export function listedVotes(input: Pick<MetricsInput, 'opts' | 'mode'>, qs: readonly Question[]) {
  const ks = oddKs(input.opts.repeats);
  return goldedOf(qs).flatMap((q) => ks.map((k) => ({ q, k, hit: majorityHit(input.mode, q, k) === 1 })));
}

function accuracyRows(
  input: MetricsInput,
  qs: Question[],
  boot: { B: number; seed: number },
  category: string,
): AccuracyRow[] {
  const golded = goldedOf(qs);
  const gold = (q: Question) => goldOf(input.mode, q);
  if (golded.length === 0) return [];
  const K = input.opts.repeats;
  return oddKs(K).map((k) => {
    const hit = (q: Question) => majorityHit(input.mode, q, k);
    const correct = golded.reduce((s, q) => s + hit(q), 0);
    const row: AccuracyRow = {
      judge: qs[0].judge,
      condition: qs[0].condition,
      category,
      k,
      n: golded.length,
      correct,
      accuracy: correct / golded.length,
      ...bootCi('accuracy', clusters(golded, hit), boot),
    };
    if (k === 1) {
      let sum = 0;
      for (let j = 0; j < K; j++)
        sum += golded.filter((q) => q.verdicts[j] === gold(q)).length / golded.length;
      row.single_mean = sum / K;
    }
    return row;
  });
}

export interface OrderPair {
  orig: Question;
  swap: Question;
}

/** One judge × condition's items with every repeat of both orders valid: what position by k reads. */
function orderPairs(input: Pick<MetricsInput, 'opts' | 'mode'>, qs: readonly Question[]): OrderPair[] {
  if (input.mode !== 'pairwise' || input.opts.orders.length < 2) return [];
  const pairs = new Map<string, { orig?: Question; swap?: Question }>();
  for (const q of qs) {
    const p = pairs.get(q.item.sourceId) ?? {};
    p[q.order as 'orig' | 'swap'] = q;
    pairs.set(q.item.sourceId, p);
  }
  return [...pairs.values()].filter(
    (p): p is OrderPair => !!p.orig && !!p.swap && complete(p.orig) && complete(p.swap),
  );
}

const same = (a: Verdict | null, b: Verdict | null) => a !== null && a === b;

/** The majority choices of an item's first k repeats agree in both orders (a tied vote does not). */
const orderConsistent = (p: OrderPair, k: number) =>
  same(
    majority('pairwise', p.orig.verdicts.slice(0, k) as Verdict[]),
    majority('pairwise', p.swap.verdicts.slice(0, k) as Verdict[]),
  );

/** Where each order's k-vote majority put its preference as shown (orig shows output 1 first). */
function votedPositions(p: OrderPair, k: number): PositionPair {
  const shown = (order: 'orig' | 'swap', q: Question): ShownPosition => {
    const v = majority('pairwise', q.verdicts.slice(0, k) as Verdict[]);
    if (v !== 1 && v !== 2) return 'tie';
    return (v === 1) === (order === 'orig') ? 'first' : 'second';
  };
  return { orig: shown('orig', p.orig), swap: shown('swap', p.swap) };
}

/** Every judge × condition's `orderPairs`: the items position by k and its mean single read. */
export function listedOrderPairs(input: Pick<MetricsInput, 'opts' | 'mode'>, qs: readonly Question[]) {
  const groups = new Map<string, Question[]>();
  for (const q of qs) {
    const g = key(q.judge, q.condition);
    groups.set(g, [...(groups.get(g) ?? []), q]);
  }
  return [...groups.values()].flatMap((mine) => orderPairs(input, mine));
}

/** Each of `listedOrderPairs` once per odd k: the pairs of votes position by k counts. */
export function listedOrderVotes(input: Pick<MetricsInput, 'opts' | 'mode'>, qs: readonly Question[]) {
  const ks = oddKs(input.opts.repeats);
  return listedOrderPairs(input, qs).flatMap((p) =>
    ks.map((k) => ({ p, k, consistent: orderConsistent(p, k) })),
  );
}

function positionRows(input: MetricsInput, qs: Question[]): PositionRow[] {
  const full = orderPairs(input, qs);
  if (full.length === 0) return [];
  const K = input.opts.repeats;
  return oddKs(K).map((k) => {
    const consistent = full.filter((p) => orderConsistent(p, k)).length;
    const row: PositionRow = {
      judge: qs[0].judge,
      condition: qs[0].condition,
      k,
      n: full.length,
      consistent,
      consistency: consistent / full.length,
      consistency_ci: wilsonInterval(consistent, full.length),
      ...leanColumns(pairedPositionTest(full.map((p) => votedPositions(p, k)))),
      lean_p_holm: Number.NaN,
    };
    if (k === 1) {
      let sum = 0;
      for (let j = 0; j < K; j++)
        sum += full.filter((p) => same(p.orig.verdicts[j]!, p.swap.verdicts[j]!)).length / full.length;
      row.single_mean = sum / K;
    }
    return row;
  });
}

function histogram(input: MetricsInput, qs: Question[]): AgreementBin[] {
  const full = qs.filter(complete);
  if (full.length === 0) return [];
  const K = input.opts.repeats;
  const bins = new Array<number>(K + 1).fill(0);
  for (const q of full) bins[modalCount(valid(q))]++;
  return bins
    .map((questions, modal) => ({ judge: qs[0].judge, condition: qs[0].condition, modal, questions }))
    .filter((b) => b.modal >= 1);
}

function unstableRows(qs: readonly Question[]): UnstableRow[] {
  return qs
    .filter((q) => verdictCounts(valid(q)).size > 1)
    .map((q) => ({
      judge: q.judge,
      condition: q.condition,
      item_id: q.item.sourceId,
      category: q.item.category,
      order: q.order,
      verdicts: q.shown.map((s) => s ?? '×').join(' '),
      distinct: verdictCounts(valid(q)).size,
    }));
}

function failureRows(results: readonly TaskResult[], keep: (id: string) => boolean): FailureRow[] {
  const rows = new Map<string, FailureRow>();
  for (const r of results) {
    const m = r.meta as RepeatMeta;
    if (r.status !== 'failed' || !keep(m.sourceId)) continue;
    const reason = r.reason ?? 'failed';
    const k = key(m.judge, m.condition, reason);
    const row = rows.get(k) ?? { judge: m.judge, condition: m.condition, reason, count: 0 };
    row.count++;
    rows.set(k, row);
  }
  return [...rows.values()];
}

export function computeSelfConsistencyMetrics(input: MetricsInput): SelfConsistencyMetrics {
  const boot = {
    B: input.bootstrap?.B ?? DEFAULT_BOOTSTRAP_B,
    seed: input.bootstrap?.seed ?? DEFAULT_BOOTSTRAP_SEED,
  };
  const questions = questionsOf(input);
  const keep = new Set(input.items.map((i) => i.sourceId));
  const categories = [...new Set(input.items.map((i) => i.category))].sort();
  const stability: StabilityRow[] = [];
  const accuracy: AccuracyRow[] = [];
  const position: PositionRow[] = [];
  const bins: AgreementBin[] = [];
  for (const condition of input.opts.conditions)
    for (const judge of input.judges) {
      const mine = questions.filter((q) => q.judge === judge && q.condition === condition.id);
      if (mine.length === 0) continue;
      const temperature = condition.temperature ?? input.ownTemperature?.[judge] ?? null;
      const base = { judge, condition: condition.id, temperature };
      stability.push(stabilityRow(input, mine, { ...base, category: ALL }, boot));
      if (categories.length > 1)
        for (const category of categories)
          stability.push(
            stabilityRow(
              input,
              mine.filter((q) => q.item.category === category),
              { ...base, category },
              boot,
            ),
          );
      accuracy.push(...accuracyRows(input, mine, boot, ALL));
      // Does voting help in every category, or only where the judge is unsure?
      if (categories.length > 1)
        for (const category of categories)
          accuracy.push(
            ...accuracyRows(
              input,
              mine.filter((q) => q.item.category === category),
              boot,
              category,
            ),
          );
      position.push(...positionRows(input, mine));
      bins.push(...histogram(input, mine));
    }
  // Holm across the position table (every judge, condition and k): the family a reader scans.
  const adjusted = holmAdjust(position.map((r) => r.lean_p));
  position.forEach((r, i) => (r.lean_p_holm = adjusted[i]));
  return {
    mode: input.mode,
    scale: input.mode === 'pointwise' ? input.opts.scale : null,
    repeats: input.opts.repeats,
    orders: input.mode === 'pairwise' ? input.opts.orders : [],
    conditions: input.opts.conditions.map((c) => ({ id: c.id, temperature: c.temperature })),
    stability,
    accuracy_by_k: accuracy,
    position_by_k: position,
    agreement_histogram: bins,
    unstable: unstableRows(questions),
    statistics: { bootstrap_b: boot.B, bootstrap_seed: boot.seed, resampling_unit: 'item' },
    usage: input.usage,
    failures: failureRows(input.results, (id) => keep.has(id)),
  };
}
