// Metrics and exports of an experiment, computed from stored judgments only (no provider).
import type { ExperimentResults, FailedCallView } from '../../shared/experiments';
import type {
  FlaggedItem,
  JudgmentRecord,
  TargetLanguage,
  UsageRow,
} from '../../shared/protocols/judge-ls/types';
import { exportJudgeLs } from '../protocols/judge-ls/export';
import type { JudgmentTokens } from '../protocols/judge-ls/judgments-csv';
import { judgeLsProtocol } from '../protocols/judge-ls';
import { auditChecks } from '../protocols/judge-ls/audit';
import type { JudgeTask, TransformTask } from '../protocols/judge-ls/model';
import { TRANSFORMER_ROLE, type TransformFailure } from '../protocols/judge-ls/metrics';
import { costOf } from '../providers/pricing';
import type { Database } from '../store/db';
import { listJudgments, listVariants, tasksOf, type JudgmentJoined } from '../store/experiments';
import { getRequests } from '../store/ledger';
import { loadExperiment, type LoadedExperiment } from './load';

export function toRecord(j: JudgmentJoined): JudgmentRecord {
  return {
    judge: j.judge,
    itemId: j.sourceId,
    subset: j.subset,
    gold: j.gold,
    kind: j.kind,
    language: j.language as JudgmentRecord['language'],
    order: j.order as JudgmentRecord['order'],
    status: j.status,
    winner: j.winner,
    confidence: j.confidence,
    reason: j.reason,
    failureReason: j.failureReason,
    attempts: j.attempts,
  };
}

/** Items with any audit reason, keyed by source id (as judgment records are). */
export function flaggedItems(db: Database, exp: LoadedExperiment): FlaggedItem[] {
  const sourceOf = new Map(exp.items.map((i) => [i.id, i.sourceId]));
  const byItem = new Map<string, string[]>();
  for (const v of listVariants(db, exp.row.id)) {
    const source = sourceOf.get(v.itemId);
    if (!source || v.reasons.length === 0) continue;
    byItem.set(source, [...(byItem.get(source) ?? []), ...v.reasons]);
  }
  return exp.items
    .filter((i) => byItem.has(i.sourceId))
    .map((i) => ({ item_id: i.sourceId, reasons: byItem.get(i.sourceId)! }));
}

/**
 * Usage per judge and for the transformer. A request first planned by an earlier
 * experiment was paid there: here it is a cache hit and costs nothing.
 */
export function usageRows(db: Database, exp: LoadedExperiment): UsageRow[] {
  const tasks = tasksOf(db, exp.row.id);
  const rows = getRequests(
    db,
    tasks.map((t) => t.requestId),
  );
  const paidElsewhere = new Set(
    (
      db
        .prepare(
          `SELECT DISTINCT t.request_id FROM experiment_tasks t JOIN experiment_tasks o
             ON o.request_id = t.request_id AND o.experiment_id < t.experiment_id
           WHERE t.experiment_id = ?`,
        )
        .all(exp.row.id) as { request_id: number }[]
    ).map((r) => r.request_id),
  );
  const out = new Map<string, UsageRow>();
  const seen = new Set<number>();
  const row = (role: string, judge: string, model: string) => {
    const key = `${role}\u0000${judge}`;
    let r = out.get(key);
    if (!r) {
      r = {
        role,
        judge,
        model,
        calls: 0,
        cache_hits: 0,
        input_tokens: 0,
        output_tokens: 0,
        cached_input_tokens: 0,
        cost_usd: 0,
      };
      out.set(key, r);
    }
    return r;
  };
  row(TRANSFORMER_ROLE, TRANSFORMER_ROLE, exp.transformer.model);
  for (const j of exp.judges) row('judge', j.label, j.model);
  for (const t of tasks) {
    const req = rows.get(t.requestId);
    if (!req || (req.status !== 'done' && req.status !== 'failed')) continue;
    const r =
      t.stage === 'transform'
        ? row(TRANSFORMER_ROLE, TRANSFORMER_ROLE, req.model)
        : row('judge', (t.meta as JudgeTask['meta']).judge, req.model);
    // The same request in two slots of one plan is one call.
    if (seen.has(req.id) || paidElsewhere.has(req.id)) {
      r.cache_hits++;
      continue;
    }
    seen.add(req.id);
    r.calls++;
    r.input_tokens += req.inputTokens ?? 0;
    r.output_tokens += req.outputTokens ?? 0;
    r.cached_input_tokens += req.cachedTokens ?? 0;
    r.cost_usd +=
      req.costUsd ??
      costOf(
        req.model,
        {
          inputTokens: req.inputTokens ?? 0,
          outputTokens: req.outputTokens ?? 0,
          cachedInputTokens: req.cachedTokens ?? 0,
        },
        exp.prices,
      ).usd;
  }
  return [...out.values()];
}

/** A transform call without a usable answer, with what the ledger kept of it. */
export interface TransformFailureDetail {
  itemId: number;
  sourceId: string;
  language: TargetLanguage;
  reason: string;
  rawText: string | null;
  attempts: number;
}

/** Transform calls that ended failed, or answered with something unusable (plan order). */
export function transformFailureDetails(db: Database, exp: LoadedExperiment): TransformFailureDetail[] {
  const tasks = tasksOf(db, exp.row.id, 'transform');
  const rows = getRequests(
    db,
    tasks.map((t) => t.requestId),
  );
  const out: TransformFailureDetail[] = [];
  for (const t of tasks) {
    const meta = t.meta as TransformTask['meta'];
    const req = rows.get(t.requestId);
    if (!req) continue;
    const base = {
      itemId: meta.itemId,
      sourceId: meta.sourceId,
      language: meta.language,
      rawText: req.responseText,
      attempts: req.attempts,
    };
    if (req.status === 'failed') out.push({ ...base, reason: req.failureReason ?? 'failed' });
    else if (req.status === 'done') {
      const parsed = judgeLsProtocol.stages.transform.parse(req.responseJson, { meta } as TransformTask);
      if (!parsed.ok) out.push({ ...base, reason: `unparseable: ${parsed.error}` });
    }
  }
  return out;
}

/** Transform calls that ended failed, or answered with something unusable. */
export function transformFailures(db: Database, exp: LoadedExperiment): TransformFailure[] {
  // Metrics key items by source id, as judgment records are.
  return transformFailureDetails(db, exp).map((f) => ({
    itemId: f.sourceId,
    language: f.language,
    reason: f.reason,
  }));
}

/**
 * Every call of the experiment that ended without a usable answer: transforms (from the plan
 * and the ledger) first, then failed judgments, each with the model's raw answer when one came.
 */
export function failedCalls(db: Database, experimentId: number): FailedCallView[] {
  const exp = loadExperiment(db, experimentId);
  const transforms: FailedCallView[] = transformFailureDetails(db, exp).map((f) => ({
    stage: 'transform',
    judge: null,
    sourceId: f.sourceId,
    itemId: f.itemId,
    language: f.language,
    order: null,
    kind: 'transform',
    reason: f.reason,
    rawText: f.rawText,
    attempts: f.attempts,
  }));
  const judgments: FailedCallView[] = listJudgments(db, experimentId, { status: 'failed' }).map((j) => ({
    stage: 'judge',
    judge: j.judge,
    sourceId: j.sourceId,
    itemId: j.itemId,
    language: j.language,
    order: j.order,
    kind: j.kind,
    reason: j.failureReason ?? 'failed',
    rawText: j.rawText,
    attempts: j.attempts,
  }));
  return [...transforms, ...judgments];
}

export function computeResults(
  db: Database,
  experimentId: number,
  excludeFlagged = false,
): ExperimentResults {
  const exp = loadExperiment(db, experimentId);
  const flagged = flaggedItems(db, exp);
  const drop = new Set(excludeFlagged ? flagged.map((f) => f.item_id) : []);
  const records = listJudgments(db, experimentId)
    .map(toRecord)
    .filter((r) => !drop.has(r.itemId));
  const metrics = judgeLsProtocol.computeMetrics({
    records,
    flagged: excludeFlagged ? [] : flagged,
    checks: auditChecks(exp.options.audit),
    usage: usageRows(db, exp),
    transformFailures: transformFailures(db, exp).filter((f) => !drop.has(f.itemId)),
  });
  return { metrics, flagged };
}

/** Writes the folder of DESIGN.md section 8. */
export async function exportExperiment(db: Database, experimentId: number, outDir: string) {
  const exp = loadExperiment(db, experimentId);
  const { metrics } = computeResults(db, experimentId);
  const joined = listJudgments(db, experimentId);
  const tokens: JudgmentTokens[] = joined.map((j) => ({
    inputTokens: j.inputTokens ?? 0,
    outputTokens: j.outputTokens ?? 0,
  }));
  const templates = exp.options.templates;
  return exportJudgeLs(outDir, {
    metrics,
    judgments: joined.map(toRecord),
    tokens,
    manifest: {
      experiment: { id: exp.row.id, name: exp.row.name },
      config: exp.config,
      promptTemplates: {
        transformSystem: templates.transformSystem,
        transformUser: templates.transformUser,
        languageRulesZH: templates.languageRules.ZH,
        languageRulesLS: templates.languageRules.LS,
        judgeSystem: templates.judgeSystem,
        judgeUser: templates.judgeUser,
        tieProbeUser: templates.tieProbeUser,
      },
      models: [
        {
          role: TRANSFORMER_ROLE,
          label: TRANSFORMER_ROLE,
          provider: exp.transformer.provider,
          model: exp.transformer.model,
        },
        ...exp.judges.map((j) => ({ role: 'judge', label: j.label, provider: j.provider, model: j.model })),
      ],
      counts: {
        items: exp.items.length,
        requests: tasksOf(db, experimentId).length,
        judgments: joined.length,
        failed_judgments: joined.filter((j) => j.status === 'failed').length,
      },
      time: { startedAt: exp.row.createdAt, finishedAt: exp.row.updatedAt },
    },
  });
}
