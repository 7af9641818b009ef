// What a run's stored calls say about how it went, beside its status: answers read from a
// cut-off answer, and why calls failed (a run whose calls mostly failed is not just "finished").
import { readFromCutOff } from '../providers/structured';
import { runOutcome } from '../../shared/run-status-text';
import type { Database } from '../store/db';
import { planCounts } from '../store/experiments';

/**
 * Answered calls of the plan that were read from the whole fields of an answer cut off at the
 * output limit (their text holds no whole JSON object). Whole JSON texts are left out in SQL:
 * only texts that are not valid JSON are read here.
 */
export function cutOffReadsOf(db: Database, experimentId: number): number {
  const rows = db
    .prepare(
      `SELECT r.response_text AS text, r.response_json AS json FROM requests r
       WHERE r.id IN (SELECT request_id FROM experiment_tasks WHERE experiment_id = ?)
         AND r.status = 'done' AND r.response_json LIKE '{%' AND json_valid(r.response_text) = 0`,
    )
    .all(experimentId) as { text: string | null; json: string }[];
  let n = 0;
  for (const r of rows) {
    try {
      if (readFromCutOff(r.text, JSON.parse(r.json))) n++;
    } catch {
      // A stored answer that is not JSON is not one read from a cut-off object.
    }
  }
  return n;
}

/** Failed calls of the plan by kind, most first, each with one stored reason in full. */
export function failureDigest(
  db: Database,
  experimentId: number,
): { kind: string; count: number; example: string }[] {
  const rows = db
    .prepare(
      `SELECT r.failure_reason AS reason, COUNT(*) AS n FROM requests r
       WHERE r.id IN (SELECT request_id FROM experiment_tasks WHERE experiment_id = ?) AND r.status = 'failed'
       GROUP BY r.failure_reason ORDER BY n DESC`,
    )
    .all(experimentId) as { reason: string | null; n: number }[];
  const byKind = new Map<string, { kind: string; count: number; example: string }>();
  for (const r of rows) {
    const reason = r.reason ?? 'failed';
    const m = /^([a-z_]+):\s*([\s\S]*)$/.exec(reason);
    const kind = m ? m[1] : 'failed';
    const k = byKind.get(kind);
    if (k) k.count += r.n;
    else byKind.set(kind, { kind, count: r.n, example: m ? m[2] : reason });
  }
  return [...byKind.values()].sort((a, b) => b.count - a.count);
}

/**
 * Why a finished run's calls all or mostly failed, in words, with the reasons (null when they
 * did not): the status line says what happened, not "finished" after nothing was answered.
 */
export function failedRunMessage(db: Database, experimentId: number): string | null {
  const c = planCounts(db, experimentId);
  const outcome = runOutcome('finished', c);
  if (outcome === 'finished') return null;
  const reasons = failureDigest(db, experimentId)
    .slice(0, 3)
    .map((f) => `${f.kind} ${f.count} (${f.example})`)
    .join('; ');
  const what =
    outcome === 'all_failed'
      ? `Every call failed (${c.failed} of ${c.failed}): there are no answers.`
      : `Most calls failed (${c.failed} of ${c.done + c.failed}).`;
  return `${what} Reasons: ${reasons}. Fix the cause, then send the failed calls again (Retry failed, or judge-lab run --retry-failed).`;
}
