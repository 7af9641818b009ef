// The variant browser's rows: each rewrite beside the text it was made from, with every judge's
// answer on both (`experiments.protocolView` routes view `variants` here).
import type { BiasVariantView, JudgedCell } from '../../../shared/protocols/bias-probes/views';
import type { Condition } from '../../../shared/protocols/bias-probes/types';
import type { ExperimentView } from '../plugin';
import type { Database } from '../host';
import { editedResults } from './hand-edits';
import { auditVariants, choiceOf } from './metrics';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import type { JudgeMeta } from './plan';
import { biasItems, type BiasExperiment } from './experiment';
import { conditionText, planJudge, rewriteSource } from './plan';
import { tokenCount } from './audit';
import {
  allEffects,
  browsedCondition,
  rewriteOf,
  selectedProbes,
} from '../../../shared/protocols/bias-probes/probe-registry';
import type { ProtocolTask } from '../types';
import type { BiasItem } from './item';

export function variantViews(db: Database, view: ExperimentView, flaggedOnly = false): BiasVariantView[] {
  const exp = view as BiasExperiment;
  const items = biasItems(exp);
  const byId = new Map(items.map((i) => [i.sourceId, i]));
  // As judged: a person's edit of a rewrite replaces the rewriter's text.
  const results = editedResults(db, exp.id);
  const answers = new Map<string, JudgedCell>();
  // The noise floor's repeats (sample 1) of each unchanged side, keyed like the first asks.
  const repeats = new Map<string, JudgedCell>();
  const key = (...p: (string | null)[]) => p.join('\u0000');
  for (const r of results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeMeta;
    if (m.shown) continue;
    const into = m.sample ? repeats : answers;
    if (m.mode === 'pointwise') {
      const v = r.value as ScoreVerdict;
      into.set(key(m.judge, m.sourceId, m.slot, m.condition, null), {
        value: String(v.score),
        reason: v.reason,
      });
    } else {
      const v = r.value as PairwiseVerdict;
      const item = byId.get(m.sourceId);
      const worse = item?.label === 1 ? 2 : 1;
      const c = choiceOf(v, m.order!);
      const value = c === 'tie' ? 'tie' : c === worse ? 'worse' : 'better';
      into.set(key(m.judge, m.sourceId, worse === 1 ? 'output_1' : 'output_2', m.condition, m.order), {
        value,
        reason: v.reason,
      });
    }
  }
  const judges = exp.config.judges.map((j) => j.label);
  const orders = exp.options.mode === 'pairwise' ? (['orig', 'swap'] as const) : [null];
  const judgmentsOf = (sourceId: string, slot: string, base: Condition, variant: Condition) =>
    judges.flatMap((judge) =>
      orders.map((order) => ({
        judge,
        order,
        base: answers.get(key(judge, sourceId, slot, base, order)) ?? null,
        variant: answers.get(key(judge, sourceId, slot, variant, order)) ?? null,
        ...(exp.options.noiseFloor
          ? { repeat: repeats.get(key(judge, sourceId, slot, base, order)) ?? null }
          : {}),
      })),
    );
  const rewrites = auditVariants(items, results, exp.options)
    .filter((a) => a.status === 'ok' && (!flaggedOnly || a.reasons.length > 0))
    .map((a): BiasVariantView => {
      const item = byId.get(a.sourceId)!;
      const original = item.responses.find((r) => r.slot === a.slot)!.text;
      // The text the rewrite was made from (plain for Markdown), which its effect starts from.
      const baseCondition: Condition = rewriteOf(a.kind)?.from ?? 'original';
      return {
        itemId: a.sourceId,
        category: item.category,
        response: a.slot,
        variant: a.kind,
        instruction: item.instruction,
        base: rewriteSource(a.kind, original),
        baseLabel: baseCondition,
        text: a.text!,
        ratio: a.ratio,
        reasons: a.reasons,
        ...(a.hand ? { edited: a.hand } : {}),
        // With the noise floor, the base's own repeat: the original's, or the plain text's for Markdown.
        judgments: judgmentsOf(a.sourceId, a.slot, baseCondition, a.kind),
      };
    });
  if (flaggedOnly) return rewrites;
  return [...rewrites, ...derivedViews(exp, items, judgmentsOf), ...promptViews(exp, items, judgmentsOf)];
}

/** The judgments of one response under a condition and its base (the browser's verdict columns). */
type JudgmentsOf = (
  sourceId: string,
  slot: string,
  base: Condition,
  variant: Condition,
) => BiasVariantView['judgments'];

/**
 * The code-made conditions' rows (`text: { derive }`, no call, never audited): each text beside
 * the text of the base its effect starts from (a fake reference, an irrelevant sentence: beside a
 * neutral sentence of the same size; a derived base such as the format probe's plain text: beside
 * the original it was made from), so a probe that edits the text by code is browsed like a rewrite.
 * Pointwise every response the condition scores; pairwise the worse response of each gold-labelled
 * pair (the response those conditions change). `ratio` is their token ratio, so a reader sees
 * that a base of the same size was compared.
 */
function derivedViews(
  exp: BiasExperiment,
  items: readonly BiasItem[],
  judgmentsOf: JudgmentsOf,
): BiasVariantView[] {
  const pairwise = exp.options.mode === 'pairwise';
  const effects = allEffects();
  const conditions = selectedProbes(exp.options).flatMap((p) =>
    p.conditions
      .filter(
        (c) => 'derive' in c.text && browsedCondition(c) && (pairwise ? c.pairwise !== null : c.pointwise),
      )
      .map((c) => ({
        id: c.id,
        base: effects.find((e) => e.effect.variant === c.id)?.effect.base ?? 'original',
      })),
  );
  const out: BiasVariantView[] = [];
  for (const item of items) {
    const responses = pairwise
      ? item.label === null
        ? []
        : item.responses.filter((r) => r.slot === (item.label === 1 ? 'output_2' : 'output_1'))
      : item.responses;
    for (const c of conditions)
      for (const r of responses) {
        const base = conditionText(c.base, r.text, item.sourceId, r.slot, new Map());
        const text = conditionText(c.id, r.text, item.sourceId, r.slot, new Map());
        if (base === undefined || text === undefined) continue;
        out.push({
          itemId: item.sourceId,
          category: item.category,
          response: r.slot,
          variant: c.id,
          instruction: item.instruction,
          base,
          baseLabel: c.base,
          text,
          kind: 'derived',
          ratio: tokenCount(base) > 0 ? tokenCount(text) / tokenCount(base) : null,
          reasons: [],
          judgments: judgmentsOf(item.sourceId, r.slot, c.base, c.id),
        });
      }
  }
  return out;
}

/**
 * The prompt-only conditions' rows (issue 35): what the judge was told in the condition beside
 * what it was told in its effect's base, as the plan asks them (the first judge's prompt, which
 * only a probe reading the judge's name makes differ), for each response (pointwise) or the
 * worse response of each gold-labelled pair (pairwise, the original order's prompt).
 */
function promptViews(
  exp: BiasExperiment,
  items: readonly BiasItem[],
  judgmentsOf: JudgmentsOf,
): BiasVariantView[] {
  const conditions = selectedProbes(exp.options).flatMap((p) =>
    p.conditions.filter((c) => 'same' in c.text && c.prompt !== undefined),
  );
  const judge = exp.config.judges[0];
  if (!conditions.length || !judge) return [];
  const out: BiasVariantView[] = [];
  const textOf = (t: ProtocolTask<'judge', JudgeMeta>) =>
    t.request.messages.map((m) => m.content).join('\n\n');
  for (const item of items) {
    // Prompt-only conditions need no rewrite: the plan asks them from the dataset's texts.
    const tasks = planJudge([item], [judge], exp.options, new Map()).filter((t) => !t.meta.sample);
    const find = (condition: Condition, slot: string | null) =>
      tasks.find(
        (t) =>
          t.meta.condition === condition &&
          !t.meta.shown &&
          (exp.options.mode === 'pairwise' ? t.meta.order === 'orig' : t.meta.slot === slot),
      );
    const slots =
      exp.options.mode === 'pairwise'
        ? item.label === null
          ? []
          : [item.label === 1 ? 'output_2' : 'output_1']
        : item.responses.map((r) => r.slot);
    for (const c of conditions) {
      const base = allEffects().find((e) => e.effect.variant === c.id)?.effect.base ?? 'original';
      for (const slot of slots) {
        const [before, after] = [find(base, slot), find(c.id, slot)];
        if (!before || !after) continue;
        // The system prompt too where the condition changes it (a rubric or instruction probe).
        const system = before.request.system !== after.request.system;
        const shown = (t: ProtocolTask<'judge', JudgeMeta>) =>
          system ? `${t.request.system ?? ''}\n\n${textOf(t)}` : textOf(t);
        out.push({
          itemId: item.sourceId,
          category: item.category,
          response: slot,
          variant: c.id,
          instruction: item.instruction,
          base: shown(before),
          baseLabel: base,
          text: shown(after),
          kind: 'prompt',
          ratio: null,
          reasons: [],
          judgments: judgmentsOf(item.sourceId, slot, base, c.id),
        });
      }
    }
  }
  return out;
}
