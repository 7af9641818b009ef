// Judge-LS's per-item views for the app: variants (review and hand edits), judgments (the
// flip browser), flagged items and prompt previews. The generic protocol-view API routes them
// here by name (plugin.ts `views`).
import type { PromptPreview } from '../../../shared/experiments';
import type { JudgmentView, VariantView } from '../../../shared/protocols/judge-ls/views';
import type { FlaggedItem, TargetLanguage } from '../../../shared/protocols/judge-ls/types';
import { AppError } from '../host';
import type { Database } from '../host';
import { getRequests } from '../host';
import { listResults } from '../host';
import type { ExperimentView } from '../plugin';
import type { JudgeTask } from './model';
import {
  auditAll,
  currentVariants,
  flaggedItems,
  judgeLsExperiment,
  judgmentRecords,
  planAll,
  withStandIns,
  type JudgeLsConfig,
  type JudgeLsExperiment,
} from './experiment';
import type { JudgeLsOptions } from './config';
import { listVariants, upsertVariant } from './variants-store';

export function judgeLsOf(exp: ExperimentView): JudgeLsExperiment {
  if (exp.config.protocol !== 'judge-ls')
    throw new AppError('invalid_params', `Experiment "${exp.name}" is not a Judge-LS experiment`);
  return judgeLsExperiment(exp as JudgeLsExperiment & { config: JudgeLsConfig; options: JudgeLsOptions });
}

export function variantViews(db: Database, exp: ExperimentView, flaggedOnly = false): VariantView[] {
  const items = new Map(exp.items.map((i) => [i.id, i]));
  const all = listVariants(db, exp.id);
  // Flagged only keeps whole items: an item flagged in LS still shows its ZH text beside it.
  const flaggedItems = new Set(all.filter((v) => v.reasons.length > 0).map((v) => v.itemId));
  return all
    .filter((v) => items.has(v.itemId) && (!flaggedOnly || flaggedItems.has(v.itemId)))
    .map((v) => {
      const item = items.get(v.itemId)!;
      return {
        itemId: v.itemId,
        sourceId: item.sourceId,
        subset: item.subset,
        language: v.language,
        instruction: v.instruction,
        output1: v.output1,
        output2: v.output2,
        manual: v.manual,
        reasons: v.reasons,
      };
    });
}

/** Stores a person's edit and re-plans that item's verdicts; returns the judge tasks to estimate. */
export interface VariantEdit {
  itemId: number;
  language: TargetLanguage;
  instruction: string;
  output1: string;
  output2: string;
}

export function applyVariantEdit(db: Database, exp: ExperimentView, p: VariantEdit) {
  const e = judgeLsOf(exp);
  const item = e.items.find((i) => i.id === p.itemId);
  if (!item) throw new AppError('not_found', `Item ${p.itemId} is not part of this experiment`);
  if (!e.options.languages.includes(p.language)) {
    throw new AppError('invalid_params', `This experiment does not use ${p.language}`);
  }
  upsertVariant(db, e.id, {
    itemId: p.itemId,
    language: p.language,
    instruction: p.instruction,
    output1: p.output1,
    output2: p.output2,
    model: null,
    promptHash: null,
    requestId: null,
    reasons: [],
    manual: true,
  });
  auditAll(db, e);
  // Re-plan this item's judgments: slots whose prompt changed point at new requests.
  return planAll({ ...e, items: [item] }, currentVariants(db, e.id)).filter((t) => t.stage === 'judge');
}

export interface JudgmentFilter {
  judge?: string;
  itemId?: number;
  status?: 'ok' | 'failed';
  kind?: 'quality' | 'tie_probe';
}

export function judgmentViews(db: Database, exp: ExperimentView, f: JudgmentFilter): JudgmentView[] {
  judgeLsOf(exp);
  const results = listResults(db, exp.id, 'judge').filter((r) => {
    const m = r.meta as JudgeTask['meta'];
    return (
      (f.judge === undefined || m.judge === f.judge) &&
      (f.itemId === undefined || m.itemId === f.itemId) &&
      (f.status === undefined || r.status === f.status) &&
      (f.kind === undefined || m.kind === f.kind)
    );
  });
  const records = judgmentRecords({ results, excluded: new Set() });
  const raw = getRequests(
    db,
    results.filter((r) => r.status === 'failed').map((r) => r.requestId),
  );
  return results.map((r, i) => {
    const m = r.meta as JudgeTask['meta'];
    const rec = records[i];
    return {
      judge: m.judge,
      itemId: m.itemId,
      sourceId: m.sourceId,
      subset: m.subset,
      gold: m.gold,
      kind: m.kind,
      language: m.language,
      order: m.order,
      status: r.status,
      winner: rec.winner,
      confidence: rec.confidence ?? null,
      reason: rec.reason ?? null,
      failureReason: rec.failureReason ?? null,
      rawText: r.status === 'failed' ? (raw.get(r.requestId)?.responseText ?? null) : null,
      attempts: r.attempts,
      ...(m.sample ? { sample: m.sample } : {}),
    };
  });
}

export function flaggedOf(db: Database, exp: ExperimentView): FlaggedItem[] {
  return flaggedItems(db, exp);
}

export function promptPreview(exp: ExperimentView, itemId?: number): PromptPreview {
  const e = judgeLsOf(exp);
  const item = itemId === undefined ? e.items[0] : e.items.find((i) => i.id === itemId);
  if (!item) throw new AppError('not_found', 'No item to preview');
  const one = { ...e, items: [item] };
  const tasks = planAll(one, withStandIns(one).variants);
  const view = (
    label: string,
    t: (typeof tasks)[number],
    labelKey: string,
    labelParams?: Record<string, string>,
  ) => ({
    stage: t.stage,
    label,
    labelKey,
    ...(labelParams ? { labelParams } : {}),
    system: t.request.system ?? '',
    user: t.request.messages.map((m) => m.content).join('\n\n'),
  });
  const transform = tasks
    .filter((t) => t.stage === 'transform')
    .map((t) =>
      view(`Transform → ${t.meta.language}`, t, 'transform', { language: String(t.meta.language) }),
    );
  const firstJudge = e.judges[0]?.label;
  const judge = tasks
    .filter((t) => t.stage === 'judge' && t.meta.judge === firstJudge)
    .filter((t) => {
      const m = t.meta as JudgeTask['meta'];
      return (
        (m.kind === 'quality' && m.language === 'EN' && m.order === 'orig') ||
        m.order === 'en_zh' ||
        m.order === 'en_target'
      );
    })
    .map((t) => {
      const m = t.meta as JudgeTask['meta'];
      return m.kind === 'quality'
        ? view('Judge (EN, original order)', t, 'judge')
        : m.order === 'en_zh'
          ? view('Tie probe (EN vs ZH; ZH text shown in English here)', t, 'tieProbe')
          : view(
              `Tie probe (EN vs ${m.language.slice(3)}; ${m.language.slice(3)} text shown in English here)`,
              t,
              'tieProbeTarget',
              { language: m.language.slice(3) },
            );
    });
  return { itemId: item.id, sourceId: item.sourceId, prompts: [...transform, ...judge] };
}
