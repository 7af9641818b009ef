// The models a protocol's config names (judges, translator, generators, rewriter), as the
// engine and the estimate see them: every protocol builds its `models` from these.
import type { ModelUse } from './plugin';

/** A config entry that names a model, with optional limits of its own. */
export interface ModelEntry {
  provider: string;
  model: string;
  rpm?: number;
  tpm?: number;
  concurrency?: number;
}

/**
 * The model an entry names, in its role; it carries only the limits the entry sets (the
 * provider's apply otherwise) and where its `provider` key sits, for error messages.
 */
export function modelUse(role: string, label: string, e: ModelEntry, path: (string | number)[]): ModelUse {
  const limits = Object.fromEntries(
    Object.entries({ rpm: e.rpm, tpm: e.tpm, concurrency: e.concurrency }).filter(([, v]) => v !== undefined),
  );
  return { role, label, provider: e.provider, model: e.model, path, ...limits };
}

/** Every judge of a config, labelled as the metrics name them. */
export function judgeUses(judges: readonly (ModelEntry & { label: string })[]): ModelUse[] {
  return judges.map((j, i) => modelUse('judge', j.label, j, ['judges', i, 'provider']));
}
