// Names a task's slot in the words of a recorded-answers file, for any protocol. A task key
// (protocols/types.ts `taskKey`) lists the slot's parts in order — the stage, who answers, the
// item, the conditions — and every part is also a field of the task's meta: each part is named
// by the meta field holding its value, so the file's columns are the protocol's own condition
// fields (Judge-LS: judge, item_id, kind, language, order) without the protocol declaring them.
// The parts decide the key, so two tasks never share a slot.

/** What a slot is read from: a planned or stored task. */
export interface SlotSource {
  key: string;
  stage: string;
  meta: unknown;
}

/** The dataset's own item id is the `item_id` column; the store's row id is never a part. */
const ITEM_FIELD = 'sourceId';
const SKIPPED_FIELDS = new Set(['itemId']);

/** Columns every file has, before and after the slot's own. */
export const LEAD_COLUMNS = ['stage'] as const;
export const ANSWER_COLUMNS = ['model', 'answer'] as const;
/** Optional: the usage the answer cost where it was made (reports and spend; 0 when empty). */
export const USAGE_COLUMNS = ['input_tokens', 'output_tokens', 'cached_tokens'] as const;

/** The parts of a task key (the inverse of `taskKey`'s escaping). */
export function keyParts(key: string): string[] {
  return key.split(':').map((p) => p.replace(/%3A/g, ':').replace(/%25/g, '%'));
}

function columnName(field: string): string {
  if (field === ITEM_FIELD) return 'item_id';
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * The slot's columns in key order (stage first). A part no meta field holds is `part_<i>`: the
 * file still names it, only less readably.
 */
export function slotFields(task: SlotSource): [string, string][] {
  const parts = keyParts(task.key);
  if (parts[0] === task.stage) parts.shift();
  const meta =
    task.meta && typeof task.meta === 'object' ? Object.entries(task.meta as Record<string, unknown>) : [];
  const taken = new Set<string>();
  const fields: [string, string][] = [['stage', task.stage]];
  parts.forEach((part, i) => {
    // The item first: a judge label could equal an item id, the item's field is the one meant.
    const candidates = [
      ...meta.filter(([k]) => k === ITEM_FIELD),
      ...meta.filter(([k]) => k !== ITEM_FIELD && !SKIPPED_FIELDS.has(k)),
    ];
    const hit = candidates.find(
      ([k, v]) => !taken.has(k) && (typeof v === 'string' || typeof v === 'number') && String(v) === part,
    );
    const name = hit ? columnName(hit[0]) : `part_${i}`;
    if (hit) taken.add(hit[0]);
    fields.push([name, part]);
  });
  return fields;
}

/** One string per slot: its non-empty columns, sorted by name (a file row gives the same). */
export function slotId(fields: Iterable<[string, string]>): string {
  const entries = [...fields].filter(([, v]) => v !== '').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/** How a slot is named in messages: `judge item_id=7 language=ZH order=swap`. */
export function slotText(fields: Iterable<[string, string]>): string {
  return [...fields]
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

/** Every slot column the tasks use, in first-seen order, stage first. */
export function slotColumns(tasks: Iterable<SlotSource>): string[] {
  const seen = new Set<string>();
  for (const t of tasks) for (const [name] of slotFields(t)) seen.add(name);
  return [...seen];
}
