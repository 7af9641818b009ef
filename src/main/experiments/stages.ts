// Between a protocol's plan and the store: record a plan in the ledger, and store the parsed
// answers (once, as they arrive) in the protocol-neutral results store.
import type { ProtocolTask } from '../protocols/types';
import type { Job } from '../queue/engine';
import type { Database } from '../store/db';
import { upsertTasks } from '../store/experiments';
import { ensureRequests } from '../store/ledger';
import { syncResults } from '../store/results';
import type { LoadedExperiment } from './load';
import { endpointIds } from './load';

/** Writes the tasks' requests to the ledger (reusing stored ones) and the plan; returns engine jobs. */
export function recordPlan(
  db: Database,
  exp: Pick<LoadedExperiment, 'row' | 'providers'>,
  tasks: readonly ProtocolTask[],
  groupOf: (t: ProtocolTask) => string,
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

/**
 * Parses every answered task that has no stored result yet (answers the engine did not store
 * as they arrived: cache hits, batches, a crash between) and lets the protocol react to new
 * results (e.g. store transformed texts in a table of its own).
 */
export function storeAnswers(
  db: Database,
  exp: Pick<LoadedExperiment, 'row' | 'protocol' | 'view'>,
  arrived?: Set<string>,
): void {
  const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
  const added = syncResults(db, exp.row.id, (stage, json, task) => {
    const s = stages.get(stage);
    return s
      ? s.parse(json, task)
      : { ok: false, error: `no stage "${stage}" in protocol ${exp.protocol.id}` };
  });
  // Only stages that got new answers (here, or stored as they arrived: `arrived`, emptied
  // here): the hook may do real work (an audit).
  for (const s of exp.protocol.stages)
    if (added.has(s.name) || added.has('') || arrived?.has(s.name))
      exp.protocol.afterAnswers?.(exp.view, db, s.name);
  arrived?.clear();
}

/**
 * Lets the protocol react to the stages whose results the engine stored as they arrived
 * (`arrived`, emptied here), without storeAnswers' scan of the whole plan for answers stored
 * another way: while a run goes that scan is left to each round's end and to the results API
 * (at 92,000 tasks it cost ~0.3 CPU-s and ran every second).
 */
export function afterArrived(
  db: Database,
  exp: Pick<LoadedExperiment, 'protocol' | 'view'>,
  arrived: Set<string>,
): void {
  for (const s of exp.protocol.stages)
    if (arrived.has(s.name)) exp.protocol.afterAnswers?.(exp.view, db, s.name);
  arrived.clear();
}
