// Planning: which calls the protocol makes (DESIGN.md section 5c). Pure functions of the items,
// options and the rewrites stored so far.
import type { Condition, RewriteKind } from '../../../shared/protocols/bias-probes/types';
import type {
  ConditionSpec,
  JudgePrompt,
  InstructionRewriteSpec,
  PromptContext,
} from '../../../shared/protocols/bias-probes/probe-types';
import {
  conditionById,
  measuresPosition,
  ORIGINAL,
  placeboBases,
  selectedProbes,
} from '../../../shared/protocols/bias-probes/probe-registry';
import type { TaskResult } from '../plugin';
import { taskKey, type ProtocolTask } from '../types';
import type { BiasOptions, ModelEntry, RewriterEntry } from './config';
import type { BiasItem } from './item';
import type { Rewrite } from './parse';
import { PAIR_ORDERS, shownPair } from '../../judging/order';
import { modelRequest } from '../../judging/request';
import { PAIRWISE_VERDICT_SCHEMA } from '../../judging/pairwise';
import { SCORE_VERDICT_SCHEMA } from '../../judging/score';
import {
  judgingInstructions,
  PAIRWISE_SYSTEM,
  pairScorePrompt,
  paraphrasePrompt,
  pairwisePrompt,
  REWRITE_SYSTEM,
  rewritePrompt,
  scorePrompt,
  scoreSystem,
  withInstructions,
} from './prompts';

export const REWRITE_MAX_TOKENS = 2000;
export const JUDGE_MAX_TOKENS = 400;

export interface RewriteMeta {
  itemId: number;
  sourceId: string;
  category: string | null;
  slot: string;
  kind: RewriteKind;
  /**
   * A paraphrase of the judging instructions (0 … K − 1): made once per experiment, not per item
   * (`sourceId` '' and `slot` 'instructions', so the response audits and views pass it by).
   */
  paraphrase?: number;
}

/**
 * A judge call. Pointwise: `slot` is the response scored, `condition` the text shown, and for
 * the pair-shown position probe `shown` says whether it was first (A) or second (B).
 * Pairwise: `order` (orig: A = output_1; swap: A = output_2), `condition` is `original`,
 * `longer` (the worse response replaced by its longer variant), `plain` (both stripped) or
 * `markdown` (the worse response as Markdown, the better one plain).
 */
export interface JudgeMeta {
  judge: string;
  itemId: number;
  sourceId: string;
  category: string | null;
  mode: 'pointwise' | 'pairwise';
  condition: Condition;
  slot: string | null;
  shown: 'first' | 'second' | null;
  order: 'orig' | 'swap' | null;
  /** The score scale asked for (pointwise), which the parser checks against. */
  scale: number;
  /** The noise floor's second ask of the unchanged response (absent on first asks). */
  sample?: 1;
  /** The paraphrase of the judging instructions this call was judged under (rubric probe). */
  paraphrase?: number;
}

const vkey = (sourceId: string, slot: string, kind: RewriteKind) => `${sourceId}\u0000${slot}\u0000${kind}`;

/** Rewrites stored so far with a text (`none` answers and failures have none). */
export function variantTexts(results: readonly TaskResult[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of results) {
    if (r.stage !== 'rewrite' || r.status !== 'ok') continue;
    const v = r.value as Rewrite;
    if (v.text === null) continue;
    const m = r.meta as RewriteMeta;
    out.set(
      m.paraphrase === undefined ? vkey(m.sourceId, m.slot, m.kind) : paraphraseKey(m.kind, m.paraphrase),
      v.text,
    );
  }
  return out;
}

export const variantOf = (
  texts: ReadonlyMap<string, string>,
  sourceId: string,
  slot: string,
  kind: RewriteKind,
) => texts.get(vkey(sourceId, slot, kind));

/** Where a paraphrase of the judging instructions sits among the stored texts (no item has this key). */
export const paraphraseKey = (kind: string, k: number) => `\u0001instructions\u0000${kind}\u0000${k}`;

/** The selected conditions whose judging instructions the rewriter paraphrases, judged in this mode. */
export function instructionRewrites(opts: BiasOptions): { id: string; spec: InstructionRewriteSpec }[] {
  return selectedProbes(opts).flatMap((p) =>
    p.conditions.flatMap((c) =>
      c.instructions && judgedIn(c, opts) ? [{ id: c.id, spec: c.instructions }] : [],
    ),
  );
}

/**
 * The paraphrase an item is judged under in a condition: a round-robin on the item's position in
 * the plan, so every paraphrase is used (given K items) and an item keeps its paraphrase on resume.
 */
export const paraphraseIndex = (position: number, opts: BiasOptions, kind: string): number =>
  position % (conditionById(kind)?.instructions?.count(opts) ?? 1);

/** A condition judged in this mode: pointwise, a response alone; pairwise, the pair. */
const judgedIn = (c: ConditionSpec, opts: BiasOptions) =>
  opts.mode === 'pointwise' ? c.pointwise : c.pairwise !== null;

/**
 * The rewrites an item's responses get: each selected probe's rewrite conditions judged in this
 * mode, in registry order (longer and shorter for length, Markdown for format).
 */
export function rewriteKinds(opts: BiasOptions): RewriteKind[] {
  return selectedProbes(opts).flatMap((p) =>
    p.conditions
      .filter((c) => 'rewrite' in c.text && judgedIn(c, opts) && (c.text.rewrite.when?.(opts) ?? true))
      .map((c) => c.id),
  );
}

/**
 * A response's text in a condition: the original, a derived text (no call), or a stored rewrite
 * (undefined until it is stored, and for a rewrite that gave none).
 */
export function conditionText(
  condition: string,
  original: string,
  sourceId: string,
  slot: string,
  texts: ReadonlyMap<string, string>,
): string | undefined {
  if (condition === ORIGINAL) return original;
  const spec = conditionById(condition);
  if (!spec) return undefined;
  if ('rewrite' in spec.text) return variantOf(texts, sourceId, slot, condition);
  if ('derive' in spec.text) return spec.text.derive(original);
  return original;
}

/** The text a rewrite is made from: the original, or the derived condition it names (plain for Markdown). */
export const rewriteSource = (kind: RewriteKind, original: string): string => {
  const from = conditionById(kind);
  const source = from && 'rewrite' in from.text ? from.text.rewrite.from : ORIGINAL;
  return conditionText(source, original, '', '', new Map()) ?? original;
};

/** Pairwise mode rewrites only the worse response (the one the length and format probes promote). */
function slotsToRewrite(item: BiasItem, opts: BiasOptions): string[] {
  if (opts.mode === 'pairwise' && item.label !== null) return [item.label === 1 ? 'output_2' : 'output_1'];
  return item.responses.map((r) => r.slot);
}

export function planRewrite(
  items: readonly BiasItem[],
  rewriter: RewriterEntry | undefined,
  opts: BiasOptions,
): ProtocolTask<'rewrite', RewriteMeta>[] {
  if (!rewriter) return [];
  const kinds = rewriteKinds(opts);
  const tasks: ProtocolTask<'rewrite', RewriteMeta>[] = [];
  // The judging instructions' paraphrases: K per condition, once per experiment (not per item).
  const original = judgingInstructions(opts);
  for (const { id, spec } of instructionRewrites(opts)) {
    const count = spec.count(opts);
    for (let k = 0; k < count; k++)
      tasks.push({
        key: taskKey('rewrite', 'instructions', opts.mode, id, String(k)),
        stage: 'rewrite',
        meta: { itemId: 0, sourceId: '', category: null, slot: 'instructions', kind: id, paraphrase: k },
        request: {
          ...modelRequest(rewriter, REWRITE_MAX_TOKENS),
          system: REWRITE_SYSTEM,
          messages: [{ role: 'user', content: paraphrasePrompt(id, spec.instructions, k, count, original) }],
        },
      });
  }
  for (const item of items)
    for (const slot of slotsToRewrite(item, opts)) {
      const original = item.responses.find((r) => r.slot === slot)!.text;
      for (const kind of kinds)
        tasks.push({
          key: taskKey('rewrite', item.sourceId, slot, kind),
          stage: 'rewrite',
          meta: { itemId: item.id, sourceId: item.sourceId, category: item.category, slot, kind },
          request: {
            ...modelRequest(rewriter, REWRITE_MAX_TOKENS),
            system: REWRITE_SYSTEM,
            // Markdown is made from the plain text, so the pair differs in formatting only.
            messages: [
              {
                role: 'user',
                content: rewritePrompt(kind, item.instruction, rewriteSource(kind, original)),
              },
            ],
          },
        });
    }
  return tasks;
}

/** What every judge call's prompt change is told of the item and the judge. */
const callContext = (
  item: BiasItem,
  judge: ModelEntry,
  opts: BiasOptions,
): Pick<PromptContext, 'opts' | 'item' | 'judge'> => ({
  opts,
  item: { sourceId: item.sourceId, instruction: item.instruction, category: item.category },
  judge: { label: judge.label, model: judge.model },
});

/**
 * A condition's change of the judge's prompt (a probe that perturbs the instructions or message),
 * after its paraphrase of the judging instructions, if it has one.
 */
function promptIn(
  condition: Condition,
  prompt: JudgePrompt,
  ctx: PromptContext,
  paraphrase?: { original: string; text: string },
): JudgePrompt {
  const p = paraphrase
    ? { ...prompt, system: withInstructions(prompt.system, paraphrase.original, paraphrase.text) }
    : prompt;
  const change = conditionById(condition)?.prompt;
  return change ? change(p, ctx) : p;
}

/**
 * The paraphrase a unit of an item is judged under in a condition that has one: its index and
 * text; `null` while that paraphrase is not stored (the unit is planned once it is); `undefined`
 * in a condition without one.
 */
function paraphraseFor(
  condition: Condition,
  position: number,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): { k: number; original: string; text: string } | null | undefined {
  if (!conditionById(condition)?.instructions) return undefined;
  const k = paraphraseIndex(position, opts, condition);
  const text = texts.get(paraphraseKey(condition, k));
  return text === undefined ? null : { k, original: judgingInstructions(opts), text };
}

/** One judge call: the slot's key parts, what differs in its meta, and the prompt. */
function judgeTask(
  judge: ModelEntry,
  item: BiasItem,
  opts: BiasOptions,
  keyParts: string[],
  meta: Pick<JudgeMeta, 'mode' | 'condition'> & Partial<Pick<JudgeMeta, 'slot' | 'shown' | 'order'>>,
  prompt: { system: string; user: string },
): ProtocolTask<'judge', JudgeMeta> {
  return {
    key: taskKey('judge', judge.label, item.sourceId, ...keyParts),
    stage: 'judge',
    meta: {
      judge: judge.label,
      itemId: item.id,
      sourceId: item.sourceId,
      category: item.category,
      slot: null,
      shown: null,
      order: null,
      scale: opts.scale,
      ...meta,
    },
    request: {
      ...modelRequest(judge, JUDGE_MAX_TOKENS),
      system: prompt.system,
      messages: [{ role: 'user', content: prompt.user }],
      response: meta.mode === 'pairwise' ? PAIRWISE_VERDICT_SCHEMA : SCORE_VERDICT_SCHEMA,
    },
  };
}

/**
 * The noise floor's placebo: the same request asked again (sample 1, its own ledger row and
 * slot). Each effect's unchanged side is repeated — the original (longer, shorter), the plain
 * text (Markdown) and, for the pair-shown position probe, the response shown second — so every
 * effect's placebo is the same text and view its effect starts from. The first asks' keys stay
 * as before.
 */
function repeatOf(task: ProtocolTask<'judge', JudgeMeta>): ProtocolTask<'judge', JudgeMeta> {
  return {
    key: `${task.key}:sample:1`,
    stage: 'judge',
    meta: { ...task.meta, sample: 1 },
    request: { ...task.request, sample: 1 },
  };
}

/**
 * The conditions an effect starts from (original for length, plain for Markdown): repeated. Every
 * registered effect's, so a run's repeats do not depend on which other probes it selected.
 */
const isPlaceboBase = (c: Condition) => placeboBases().includes(c);

function scoreTask(
  judge: ModelEntry,
  item: BiasItem,
  opts: BiasOptions,
  slot: string,
  condition: Condition,
  text: string,
  paraphrase?: { k: number; original: string; text: string },
): ProtocolTask<'judge', JudgeMeta> {
  return judgeTask(
    judge,
    item,
    opts,
    [slot, condition],
    { mode: 'pointwise', condition, slot, ...(paraphrase ? { paraphrase: paraphrase.k } : {}) },
    promptIn(
      condition,
      {
        system: scoreSystem(opts.scale, opts.rubric),
        user: scorePrompt(item.instruction, text, opts.scale),
      },
      {
        mode: 'pointwise',
        worse: null,
        scale: opts.scale,
        ...callContext(item, judge, opts),
        models: { response: item.responses.find((r) => r.slot === slot)?.model ?? null },
      },
      paraphrase,
    ),
  );
}

/** One response as a pointwise judge is shown it in one condition (a rewrite once it is stored). */
export interface ShownText {
  slot: string;
  condition: Condition;
  text: string;
  /** From the rewriter (not the dataset, nor stripped of Markdown here). */
  rewritten: boolean;
}

/**
 * The texts pointwise judges score per response and condition: the plan's and the export's. Each
 * response's original, then each selected probe's conditions in registry order (a rewrite once
 * it is stored).
 */
export function pointwiseTexts(
  item: BiasItem,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): ShownText[] {
  const out: ShownText[] = [];
  const conditions = selectedProbes(opts).flatMap((p) => p.conditions.filter((c) => c.pointwise));
  for (const r of item.responses) {
    out.push({ slot: r.slot, condition: ORIGINAL, text: r.text, rewritten: false });
    for (const c of conditions) {
      const text = conditionText(c.id, r.text, item.sourceId, r.slot, texts);
      if (text !== undefined)
        out.push({ slot: r.slot, condition: c.id, text, rewritten: 'rewrite' in c.text });
    }
  }
  return out;
}

function planPointwise(
  item: BiasItem,
  judge: ModelEntry,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
  position: number,
): ProtocolTask<'judge', JudgeMeta>[] {
  const tasks: ProtocolTask<'judge', JudgeMeta>[] = [];
  for (const t of pointwiseTexts(item, opts, texts)) {
    const paraphrase = paraphraseFor(t.condition, position, opts, texts);
    if (paraphrase === null) continue;
    const task = scoreTask(judge, item, opts, t.slot, t.condition, t.text, paraphrase);
    // The noise floor: each effect's unchanged side scored again (sample 1).
    tasks.push(task, ...(opts.noiseFloor && isPlaceboBase(t.condition) ? [repeatOf(task)] : []));
  }
  if (measuresPosition(opts) && item.responses.length === 2) {
    const [r1, r2] = item.responses;
    for (const [target, other] of [
      [r1, r2],
      [r2, r1],
    ])
      for (const shown of ['first', 'second'] as const) {
        const [a, b] = shown === 'first' ? [target.text, other.text] : [other.text, target.text];
        const task = judgeTask(
          judge,
          item,
          opts,
          [target.slot, 'pair', shown],
          { mode: 'pointwise', condition: 'original', slot: target.slot, shown },
          {
            system: scoreSystem(opts.scale, opts.rubric),
            user: pairScorePrompt(item.instruction, a, b, shown === 'first' ? 'A' : 'B', opts.scale),
          },
        );
        // The position effect is shown first − shown second: its placebo repeats the second.
        tasks.push(task, ...(opts.noiseFloor && shown === 'second' ? [repeatOf(task)] : []));
      }
  }
  return tasks;
}

/** A pair as a pairwise judge is shown it in one condition, before the order is applied. */
export interface ShownPair {
  condition: Condition;
  t1: string;
  t2: string;
  /** The slot whose text is a rewrite in this condition, if any. */
  rewritten: 'output_1' | 'output_2' | null;
}

/**
 * The pairs pairwise judges compare per condition: the plan's and the export's. The original
 * pair, then each selected probe's pairwise conditions in registry order: both texts made alike
 * (`both`), or the worse response changed beside the better one as in `betterAs`.
 */
export function pairwiseTexts(
  item: BiasItem,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): ShownPair[] {
  const [o1, o2] = item.responses.map((r) => r.text);
  const worse: 'output_1' | 'output_2' = item.label === 1 ? 'output_2' : 'output_1';
  const better = worse === 'output_1' ? 'output_2' : 'output_1';
  const original = { output_1: o1, output_2: o2 };
  const textOf = (condition: string, slot: 'output_1' | 'output_2') =>
    conditionText(condition, original[slot], item.sourceId, slot, texts);
  const conditions: ShownPair[] = [{ condition: ORIGINAL, t1: o1, t2: o2, rewritten: null }];
  for (const c of selectedProbes(opts).flatMap((p) => p.conditions)) {
    if (c.pairwise === null) continue;
    if (c.pairwise === 'both') {
      const [t1, t2] = [textOf(c.id, 'output_1'), textOf(c.id, 'output_2')];
      if (t1 !== undefined && t2 !== undefined) conditions.push({ condition: c.id, t1, t2, rewritten: null });
      continue;
    }
    const changed = textOf(c.id, worse);
    const kept = textOf(c.pairwise.betterAs, better);
    if (changed === undefined || kept === undefined) continue;
    const rewritten = 'rewrite' in c.text ? worse : null;
    conditions.push(
      worse === 'output_1'
        ? { condition: c.id, t1: changed, t2: kept, rewritten }
        : { condition: c.id, t1: kept, t2: changed, rewritten },
    );
  }
  return conditions;
}

function planPairwise(
  item: BiasItem,
  judge: ModelEntry,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
  position: number,
): ProtocolTask<'judge', JudgeMeta>[] {
  const tasks: ProtocolTask<'judge', JudgeMeta>[] = [];
  for (const c of pairwiseTexts(item, opts, texts)) {
    const paraphrase = paraphraseFor(c.condition, position, opts, texts);
    if (paraphrase === null) continue;
    for (const order of PAIR_ORDERS) {
      const [a, b] = shownPair(order, c.t1, c.t2);
      // Where the worse response is shown in this order, for a probe that names it in the prompt.
      const worse = (item.label === 1) === (order === 'orig') ? 'B' : 'A';
      const task = judgeTask(
        judge,
        item,
        opts,
        [c.condition, order],
        {
          mode: 'pairwise',
          condition: c.condition,
          order,
          ...(paraphrase ? { paraphrase: paraphrase.k } : {}),
        },
        promptIn(
          c.condition,
          { system: PAIRWISE_SYSTEM, user: pairwisePrompt(item.instruction, a, b) },
          {
            mode: 'pairwise',
            worse,
            scale: opts.scale,
            ...callContext(item, judge, opts),
            // shownPair puts output_1 first in the original order.
            models: shownModels(order, item),
          },
          paraphrase,
        ),
      );
      tasks.push(task, ...(opts.noiseFloor && isPlaceboBase(c.condition) ? [repeatOf(task)] : []));
    }
  }
  return tasks;
}

/** The model of each letter in one order (the dataset's model_1 / model_2, where it names them). */
function shownModels(
  order: (typeof PAIR_ORDERS)[number],
  item: BiasItem,
): { A: string | null; B: string | null } {
  const [m1, m2] = item.responses.map((r) => r.model ?? null);
  const [a, b] = shownPair(order, m1, m2);
  return { A: a, B: b };
}

/** Judge calls whose texts exist now (a variant is judged once its rewrite is stored). */
export function planJudge(
  items: readonly BiasItem[],
  judges: readonly ModelEntry[],
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): ProtocolTask<'judge', JudgeMeta>[] {
  const tasks: ProtocolTask<'judge', JudgeMeta>[] = [];
  for (const judge of judges)
    items.forEach((item, position) =>
      tasks.push(
        ...(opts.mode === 'pairwise'
          ? planPairwise(item, judge, opts, texts, position)
          : planPointwise(item, judge, opts, texts, position)),
      ),
    );
  return tasks;
}
