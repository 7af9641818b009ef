// Hand edits of bias probes' rewrites (issue 35): a person replaces the text of any rewrite the
// rewriter made (a response's longer / shorter / Markdown / … variant, or a paraphrase of the
// judging instructions). The rewriter's answer stays in the ledger and in the results store; the
// edit lives in the protocol's own table (`bias_rewrite_edits`, one row per edit) and is laid over
// the stored results wherever the protocol reads them (`withHandEdits`: the plan, the audit, the
// metrics, the views, the exports), so the edited text is audited again and the judge calls that
// showed the old text are re-planned (their answers stay in the ledger; nothing else is re-asked).
import { z } from 'zod';
import { AppError, listResults } from '../host';
import type { Database } from '../host';
import type { ExperimentView, TaskResult } from '../plugin';
import type { ProtocolTask } from '../types';
import { biasItems, type BiasExperiment } from './experiment';
import type { Rewrite } from './parse';
import { planJudge, planRewrite, variantTexts, type JudgeMeta, type RewriteMeta } from './plan';

/** One hand edit as stored: which rewrite, its text before and after, who made it and when. */
export interface RewriteEdit {
  taskKey: string;
  kind: string;
  /** The item's source id; null for a paraphrase of the judging instructions. */
  sourceId: string | null;
  slot: string | null;
  /** The paraphrase's index; null for a response rewrite. */
  paraphrase: number | null;
  /** The text it replaced (the rewriter's, or an earlier edit's); null when none was stored yet. */
  before: string | null;
  text: string;
  editedBy: string;
  /** ISO time. */
  editedAt: string;
}

interface EditRow {
  task_key: string;
  kind: string;
  source_id: string | null;
  slot: string | null;
  paraphrase: number | null;
  text_before: string | null;
  text: string;
  edited_by: string;
  edited_at: string;
}

const fromRow = (r: EditRow): RewriteEdit => ({
  taskKey: r.task_key,
  kind: r.kind,
  sourceId: r.source_id,
  slot: r.slot,
  paraphrase: r.paraphrase,
  before: r.text_before,
  text: r.text,
  editedBy: r.edited_by,
  editedAt: r.edited_at,
});

/** Every edit in the order made; with `since` (an ISO time), only those made after it. */
export function listRewriteEdits(db: Database, experimentId: number, since?: string): RewriteEdit[] {
  const rows = db
    .prepare(
      `SELECT * FROM bias_rewrite_edits WHERE experiment_id = ?${since === undefined ? '' : ' AND edited_at > ?'}
       ORDER BY id`,
    )
    .all(...(since === undefined ? [experimentId] : [experimentId, since])) as EditRow[];
  return rows.map(fromRow);
}

/** The text each edited rewrite is judged in now: its newest edit, by the rewrite's task key. */
export function currentEdits(db: Database, experimentId: number): Map<string, RewriteEdit> {
  return new Map(listRewriteEdits(db, experimentId).map((e) => [e.taskKey, e]));
}

function insertEdit(db: Database, experimentId: number, e: RewriteEdit): void {
  db.prepare(
    `INSERT INTO bias_rewrite_edits (experiment_id, task_key, kind, source_id, slot, paraphrase, text_before, text,
                                     edited_by, edited_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    experimentId,
    e.taskKey,
    e.kind,
    e.sourceId,
    e.slot,
    e.paraphrase,
    e.before,
    e.text,
    e.editedBy,
    e.editedAt,
  );
}

/**
 * The stored results with each edited rewrite's text replaced by its newest edit. A rewrite that
 * failed or found nothing to cut counts as made once a person wrote its text.
 */
export function withHandEdits(
  results: readonly TaskResult[],
  edits: ReadonlyMap<string, RewriteEdit>,
): TaskResult[] {
  if (edits.size === 0) return results as TaskResult[];
  return results.map((r) => {
    const e = r.stage === 'rewrite' ? edits.get(r.key) : undefined;
    if (!e) return r;
    const value: Rewrite = { text: e.text, hand: { by: e.editedBy, at: e.editedAt } };
    return { ...r, status: 'ok', value, reason: null };
  });
}

/** The experiment's stored results (one stage or all) as the edits make them. */
export const editedResults = (db: Database, experimentId: number, stage?: string): TaskResult[] =>
  withHandEdits(listResults(db, experimentId, stage), currentEdits(db, experimentId));

/** Which rewrite an edit names: a response's variant, or a paraphrase of the instructions. */
export const RewriteEditFields = z.strictObject({
  /** The item's source id (as the variant browser shows it); absent for a paraphrase. */
  itemId: z.string().min(1).optional(),
  /** The response slot rewritten (output_1, output_2, response); absent for a paraphrase. */
  response: z.string().min(1).optional(),
  /** The rewrite's condition (longer, shorter, markdown, rubric_paraphrase, …). */
  variant: z.string().min(1),
  /** The paraphrase's index (0 … K − 1); only for a paraphrase. */
  paraphrase: z.number().int().nonnegative().optional(),
  text: z.string().refine((t) => t.trim() !== '', 'the edited text is empty'),
  editedBy: z.string().refine((t) => t.trim() !== '', 'say who made the edit'),
});
export type RewriteEditInput = z.infer<typeof RewriteEditFields>;

/** The rewrite task an edit names, among those the experiment plans; refused when none is. */
function rewriteTaskOf(
  exp: BiasExperiment,
  f: Pick<RewriteEditInput, 'itemId' | 'response' | 'variant' | 'paraphrase'>,
): ProtocolTask<'rewrite', RewriteMeta> {
  const tasks = planRewrite(biasItems(exp), exp.config.rewriter, exp.options);
  const task =
    f.paraphrase !== undefined
      ? tasks.find((t) => t.meta.kind === f.variant && t.meta.paraphrase === f.paraphrase)
      : tasks.find(
          (t) =>
            t.meta.paraphrase === undefined &&
            t.meta.sourceId === f.itemId &&
            t.meta.slot === f.response &&
            t.meta.kind === f.variant,
        );
  if (!task) {
    const what =
      f.paraphrase !== undefined
        ? `paraphrase ${f.paraphrase} of ${f.variant}`
        : `the ${f.variant} rewrite of item "${f.itemId ?? ''}" ${f.response ?? ''}`;
    throw new AppError('not_found', `This experiment makes no ${what}`);
  }
  return task;
}

/**
 * Stores an edit and returns the judge tasks it may change (the item's, or every one for a
 * paraphrase): the caller re-plans them, so only the slots whose prompt changed point at new
 * requests and the estimate counts only those.
 */
export function applyRewriteEdit(
  db: Database,
  view: ExperimentView,
  f: RewriteEditInput,
  editedAt = new Date().toISOString(),
): ProtocolTask[] {
  const exp = view as BiasExperiment;
  const task = rewriteTaskOf(exp, f);
  const stored = editedResults(db, exp.id, 'rewrite').find((r) => r.key === task.key);
  const before = stored?.status === 'ok' ? (stored.value as Rewrite).text : null;
  insertEdit(db, exp.id, {
    taskKey: task.key,
    kind: task.meta.kind,
    sourceId: task.meta.paraphrase === undefined ? task.meta.sourceId : null,
    slot: task.meta.paraphrase === undefined ? task.meta.slot : null,
    paraphrase: task.meta.paraphrase ?? null,
    before,
    text: f.text,
    editedBy: f.editedBy.trim(),
    editedAt,
  });
  return replanned(db, exp, task.meta);
}

function replanned(db: Database, exp: BiasExperiment, m: RewriteMeta): ProtocolTask[] {
  const items = biasItems(exp);
  const affected = m.paraphrase === undefined ? items.filter((i) => i.sourceId === m.sourceId) : items;
  const texts = variantTexts(editedResults(db, exp.id, 'rewrite'));
  return planJudge(affected, exp.config.judges, exp.options, texts).filter((t) => {
    const j = t.meta as JudgeMeta;
    return m.paraphrase === undefined || (j.condition === m.kind && j.paraphrase === m.paraphrase);
  });
}

// A study bundle's `edits.json` entries: every edit in order, keyed by source ids.
const BundleEdit = z.strictObject({
  variant: z.string().min(1),
  item_id: z.string().nullable(),
  response: z.string().nullable(),
  paraphrase: z.number().int().nonnegative().nullable(),
  before: z.string().nullable(),
  text: z.string(),
  edited_by: z.string(),
  edited_at: z.string(),
});
type BundleEdit = z.infer<typeof BundleEdit>;

export function listBundleEdits(db: Database, exp: ExperimentView, since?: string): BundleEdit[] {
  return listRewriteEdits(db, exp.id, since).map((e) => ({
    variant: e.kind,
    item_id: e.sourceId,
    response: e.slot,
    paraphrase: e.paraphrase,
    before: e.before,
    text: e.text,
    edited_by: e.editedBy,
    edited_at: e.editedAt,
  }));
}

/**
 * Puts a bundle's edits into a replay's new experiment before it runs (its rewrites are not
 * stored yet): each kept as the study recorded it, who, when and the text it replaced included.
 */
export function applyBundleEdits(db: Database, view: ExperimentView, edits: unknown[], where: string): void {
  const exp = view as BiasExperiment;
  edits.forEach((raw, i) => {
    const refuse = (field: string, message: string): never => {
      throw new AppError('invalid_input', `${where}: entry ${i + 1}: ${field}: ${message}`, [
        { file: where, field: `[${i}].${field}`, message },
      ]);
    };
    const parsed = BundleEdit.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(issue.path.join('.') || '(entry)', issue.message);
    }
    const e = parsed.data;
    let task: ProtocolTask<'rewrite', RewriteMeta>;
    try {
      task = rewriteTaskOf(exp, {
        variant: e.variant,
        ...(e.paraphrase === null
          ? { itemId: e.item_id ?? undefined, response: e.response ?? undefined }
          : { paraphrase: e.paraphrase }),
      });
    } catch (err) {
      return refuse('variant', err instanceof Error ? err.message : String(err));
    }
    if (e.edited_by.trim() === '') return refuse('edited_by', 'empty');
    insertEdit(db, exp.id, {
      taskKey: task.key,
      kind: e.variant,
      sourceId: e.item_id,
      slot: e.response,
      paraphrase: e.paraphrase,
      before: e.before,
      text: e.text,
      editedBy: e.edited_by,
      editedAt: e.edited_at,
    });
  });
}

/** How many rewrites (not edits) a person edited: the Methods' and manifest's count. */
export const editedRewriteCount = (db: Database, experimentId: number): number =>
  currentEdits(db, experimentId).size;
