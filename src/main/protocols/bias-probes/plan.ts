// Planning: which calls the protocol makes (DESIGN.md section 5c). Pure functions of the items,
// options and the rewrites stored so far.
import type { Condition, RewriteKind } from '../../../shared/protocols/bias-probes/types';
import type { ChatRequestSpec } from '../host';
import type { TaskResult } from '../plugin';
import { taskKey, type ProtocolTask } from '../types';
import type { BiasOptions, ModelEntry, RewriterEntry } from './config';
import type { BiasItem } from './item';
import type { Rewrite } from './parse';
import { PAIR_ORDERS, shownPair } from '../../judging/order';
import { PAIRWISE_VERDICT_SCHEMA } from '../../judging/pairwise';
import { SCORE_VERDICT_SCHEMA } from '../../judging/score';
import {
  PAIRWISE_SYSTEM,
  pairScorePrompt,
  pairwisePrompt,
  REWRITE_SYSTEM,
  rewritePrompt,
  scorePrompt,
  scoreSystem,
} from './prompts';
import { stripMarkdown } from './strip-markdown';

export const REWRITE_MAX_TOKENS = 2000;
export const JUDGE_MAX_TOKENS = 400;

export interface RewriteMeta {
  itemId: number;
  sourceId: string;
  category: string | null;
  slot: string;
  kind: RewriteKind;
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
    out.set(vkey(m.sourceId, m.slot, m.kind), v.text);
  }
  return out;
}

export const variantOf = (
  texts: ReadonlyMap<string, string>,
  sourceId: string,
  slot: string,
  kind: RewriteKind,
) => texts.get(vkey(sourceId, slot, kind));

function modelRequest(
  m: { provider: string; model: string; temperature?: number | null; maxOutputTokens?: number },
  maxTokens: number,
): Pick<ChatRequestSpec, 'provider' | 'model' | 'temperature' | 'maxOutputTokens'> {
  const temperature = m.temperature === undefined ? 0 : m.temperature;
  return {
    provider: m.provider,
    model: m.model,
    ...(temperature === null ? {} : { temperature }),
    maxOutputTokens: m.maxOutputTokens ?? maxTokens,
  };
}

/** The rewrites an item's responses get: longer (and shorter) for the length probe, Markdown for format. */
export function rewriteKinds(opts: BiasOptions): RewriteKind[] {
  const kinds: RewriteKind[] = [];
  if (opts.probes.includes('length')) kinds.push('longer', ...(opts.shorter ? (['shorter'] as const) : []));
  if (opts.probes.includes('format')) kinds.push('markdown');
  return kinds;
}

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
  const kinds = rewriteKinds(opts).filter((k) => opts.mode === 'pointwise' || k !== 'shorter');
  const tasks: ProtocolTask<'rewrite', RewriteMeta>[] = [];
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
                content: rewritePrompt(
                  kind,
                  item.instruction,
                  kind === 'markdown' ? stripMarkdown(original) : original,
                ),
              },
            ],
          },
        });
    }
  return tasks;
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

/** The conditions an effect starts from (original for length, plain for Markdown): repeated. */
const isPlaceboBase = (c: Condition) => c === 'original' || c === 'plain';

function scoreTask(
  judge: ModelEntry,
  item: BiasItem,
  opts: BiasOptions,
  slot: string,
  condition: Condition,
  text: string,
): ProtocolTask<'judge', JudgeMeta> {
  return judgeTask(
    judge,
    item,
    opts,
    [slot, condition],
    { mode: 'pointwise', condition, slot },
    {
      system: scoreSystem(opts.scale, opts.rubric),
      user: scorePrompt(item.instruction, text, opts.scale),
    },
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

/** The texts pointwise judges score per response and condition: the plan's and the export's. */
export function pointwiseTexts(
  item: BiasItem,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): ShownText[] {
  const out: ShownText[] = [];
  for (const r of item.responses) {
    out.push({ slot: r.slot, condition: 'original', text: r.text, rewritten: false });
    if (opts.probes.includes('length'))
      for (const kind of ['longer', 'shorter'] as const) {
        const v = variantOf(texts, item.sourceId, r.slot, kind);
        if (v !== undefined) out.push({ slot: r.slot, condition: kind, text: v, rewritten: true });
      }
    if (opts.probes.includes('format')) {
      out.push({ slot: r.slot, condition: 'plain', text: stripMarkdown(r.text), rewritten: false });
      const md = variantOf(texts, item.sourceId, r.slot, 'markdown');
      if (md !== undefined) out.push({ slot: r.slot, condition: 'markdown', text: md, rewritten: true });
    }
  }
  return out;
}

function planPointwise(
  item: BiasItem,
  judge: ModelEntry,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): ProtocolTask<'judge', JudgeMeta>[] {
  const tasks: ProtocolTask<'judge', JudgeMeta>[] = [];
  for (const t of pointwiseTexts(item, opts, texts)) {
    const task = scoreTask(judge, item, opts, t.slot, t.condition, t.text);
    // The noise floor: each effect's unchanged side scored again (sample 1).
    tasks.push(task, ...(opts.noiseFloor && isPlaceboBase(t.condition) ? [repeatOf(task)] : []));
  }
  if (opts.probes.includes('position') && item.responses.length === 2) {
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

/** The pairs pairwise judges compare per condition: the plan's and the export's. */
export function pairwiseTexts(
  item: BiasItem,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): ShownPair[] {
  const [o1, o2] = item.responses.map((r) => r.text);
  const worse: 'output_1' | 'output_2' = item.label === 1 ? 'output_2' : 'output_1';
  const conditions: ShownPair[] = [{ condition: 'original', t1: o1, t2: o2, rewritten: null }];
  const swapWorse = (text: string, better: string) =>
    worse === 'output_1'
      ? { t1: text, t2: better, rewritten: worse }
      : { t1: better, t2: text, rewritten: worse };
  if (opts.probes.includes('length')) {
    const v = variantOf(texts, item.sourceId, worse, 'longer');
    if (v !== undefined)
      conditions.push({ condition: 'longer', ...swapWorse(v, worse === 'output_1' ? o2 : o1) });
  }
  if (opts.probes.includes('format')) {
    const p1 = stripMarkdown(o1);
    const p2 = stripMarkdown(o2);
    conditions.push({ condition: 'plain', t1: p1, t2: p2, rewritten: null });
    const md = variantOf(texts, item.sourceId, worse, 'markdown');
    if (md !== undefined)
      conditions.push({ condition: 'markdown', ...swapWorse(md, worse === 'output_1' ? p2 : p1) });
  }
  return conditions;
}

function planPairwise(
  item: BiasItem,
  judge: ModelEntry,
  opts: BiasOptions,
  texts: ReadonlyMap<string, string>,
): ProtocolTask<'judge', JudgeMeta>[] {
  const tasks: ProtocolTask<'judge', JudgeMeta>[] = [];
  for (const c of pairwiseTexts(item, opts, texts))
    for (const order of PAIR_ORDERS) {
      const [a, b] = shownPair(order, c.t1, c.t2);
      const task = judgeTask(
        judge,
        item,
        opts,
        [c.condition, order],
        { mode: 'pairwise', condition: c.condition, order },
        { system: PAIRWISE_SYSTEM, user: pairwisePrompt(item.instruction, a, b) },
      );
      tasks.push(task, ...(opts.noiseFloor && isPlaceboBase(c.condition) ? [repeatOf(task)] : []));
    }
  return tasks;
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
    for (const item of items)
      tasks.push(
        ...(opts.mode === 'pairwise'
          ? planPairwise(item, judge, opts, texts)
          : planPointwise(item, judge, opts, texts)),
      );
  return tasks;
}
