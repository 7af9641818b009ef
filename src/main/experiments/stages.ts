// Between the protocol (pure) and the store: record a plan in the ledger, and turn the
// ledger's answers into variants and judgments.
import { judgeLsProtocol } from '../protocols/judge-ls';
import { auditVariants } from '../protocols/judge-ls/audit';
import type { JudgeTask, TransformTask, Variant } from '../protocols/judge-ls/model';
import type { Job } from '../queue/engine';
import type { Database } from '../store/db';
import {
  listVariants,
  replaceJudgments,
  setVariantReasons,
  tasksOf,
  upsertTasks,
  upsertVariant,
  type JudgmentRow,
} from '../store/experiments';
import { ensureRequests, getRequests } from '../store/ledger';
import type { LoadedExperiment } from './load';
import { endpointIds } from './load';

type AnyTask = TransformTask | JudgeTask;

/** Writes the tasks' requests to the ledger (reusing stored ones) and the plan; returns engine jobs. */
export function recordPlan(
  db: Database,
  exp: Pick<LoadedExperiment, 'row' | 'providers'>,
  tasks: readonly AnyTask[],
  groupOf: (t: AnyTask) => string,
): { jobs: Job[]; changed: number } {
  const endpoints = endpointIds(exp.providers);
  const ids = ensureRequests(
    db,
    tasks.map((t) => ({ endpointId: endpoints.get(t.request.provider)!, spec: t.request })),
  );
  const changed = upsertTasks(
    db,
    exp.row.id,
    tasks.map((t, i) => ({ key: t.key, stage: t.stage, requestId: ids[i], meta: t.meta })),
  );
  return { jobs: tasks.map((t, i) => ({ requestId: ids[i], group: groupOf(t) })), changed };
}

/** The stored variants in the protocol's shape. */
export function currentVariants(db: Database, experimentId: number): Variant[] {
  return listVariants(db, experimentId).map((v) => ({
    itemId: v.itemId,
    language: v.language,
    instruction: v.instruction,
    output1: v.output1,
    output2: v.output2,
    manual: v.manual,
  }));
}

/**
 * Stores each answered transform as a variant (a person's edit is never overwritten),
 * then audits every variant of the experiment.
 */
export function storeVariants(db: Database, exp: LoadedExperiment): void {
  const tasks = tasksOf(db, exp.row.id, 'transform');
  const rows = getRequests(
    db,
    tasks.map((t) => t.requestId),
  );
  const manual = new Set(
    listVariants(db, exp.row.id)
      .filter((v) => v.manual)
      .map((v) => `${v.itemId}:${v.language}`),
  );
  db.transaction(() => {
    for (const t of tasks) {
      const meta = t.meta as TransformTask['meta'];
      const row = rows.get(t.requestId);
      if (!row || row.status !== 'done' || manual.has(`${meta.itemId}:${meta.language}`)) continue;
      const parsed = judgeLsProtocol.stages.transform.parse(row.responseJson, { meta } as TransformTask);
      if (!parsed.ok) continue;
      upsertVariant(db, exp.row.id, {
        itemId: meta.itemId,
        language: meta.language,
        ...parsed.value,
        model: exp.transformer.model,
        promptHash: meta.promptHash,
        requestId: t.requestId,
        reasons: [],
        manual: false,
      });
    }
    auditAll(db, exp);
  })();
}

export function auditAll(db: Database, exp: Pick<LoadedExperiment, 'row' | 'items' | 'options'>): void {
  const audit = auditVariants(exp.items, currentVariants(db, exp.row.id), exp.options.audit);
  for (const v of audit.variants) setVariantReasons(db, exp.row.id, v.itemId, v.language, v.reasons);
}

/** Rebuilds the judgments table from the plan and the ledger: answered slots only. */
export function materializeJudgments(db: Database, experimentId: number): void {
  const tasks = tasksOf(db, experimentId, 'judge');
  const rows = getRequests(
    db,
    tasks.map((t) => t.requestId),
  );
  const out: JudgmentRow[] = [];
  for (const t of tasks) {
    const meta = t.meta as JudgeTask['meta'];
    const row = rows.get(t.requestId);
    if (!row || (row.status !== 'done' && row.status !== 'failed')) continue;
    const base = {
      judge: meta.judge,
      itemId: meta.itemId,
      kind: meta.kind,
      language: meta.language,
      order: meta.order,
      requestId: t.requestId,
      attempts: row.attempts,
    };
    if (row.status === 'done') {
      const parsed = judgeLsProtocol.stages.judge.parse(row.responseJson, { meta } as JudgeTask);
      if (parsed.ok) {
        const v = parsed.value;
        out.push({
          ...base,
          status: 'ok',
          winner: v.winner,
          confidence: v.confidence,
          reason: v.reason,
          failureReason: null,
        });
        continue;
      }
      out.push({
        ...base,
        status: 'failed',
        winner: null,
        confidence: null,
        reason: null,
        failureReason: `unparseable: ${parsed.error}`,
      });
      continue;
    }
    out.push({
      ...base,
      status: 'failed',
      winner: null,
      confidence: null,
      reason: null,
      failureReason: row.failureReason ?? 'failed',
    });
  }
  replaceJudgments(db, experimentId, out);
}
