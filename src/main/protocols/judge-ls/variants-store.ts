// Judge-LS's own table: the variants (translations) of each item, which the audit flags and
import type { TargetLanguage } from '../../../shared/protocols/judge-ls/types';
// people edit by hand. A protocol table, because the review page filters and edits them.
import type { Database } from '../host';

export interface VariantRow {
  itemId: number;
  language: TargetLanguage;
  instruction: string;
  output1: string;
  output2: string;
  model: string | null;
  promptHash: string | null;
  requestId: number | null;
  reasons: string[];
  manual: boolean;
}

export function upsertVariant(db: Database, experimentId: number, v: VariantRow): void {
  db.prepare(
    `INSERT INTO variants (experiment_id, item_id, language, instruction, output_1, output_2, model, prompt_hash,
                           request_id, audit_json, manual)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (experiment_id, item_id, language) DO UPDATE SET
       instruction = excluded.instruction, output_1 = excluded.output_1, output_2 = excluded.output_2,
       model = excluded.model, prompt_hash = excluded.prompt_hash, request_id = excluded.request_id,
       audit_json = excluded.audit_json, manual = excluded.manual,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`,
  ).run(
    experimentId,
    v.itemId,
    v.language,
    v.instruction,
    v.output1,
    v.output2,
    v.model,
    v.promptHash,
    v.requestId,
    JSON.stringify(v.reasons),
    v.manual ? 1 : 0,
  );
}

export function setVariantReasons(
  db: Database,
  experimentId: number,
  itemId: number,
  language: string,
  reasons: string[],
): void {
  db.prepare(
    'UPDATE variants SET audit_json = ? WHERE experiment_id = ? AND item_id = ? AND language = ?',
  ).run(JSON.stringify(reasons), experimentId, itemId, language);
}

/** Which request each variant came from and whether a person wrote it (no texts). */
export function variantSources(
  db: Database,
  experimentId: number,
): { itemId: number; language: TargetLanguage; requestId: number | null; manual: boolean }[] {
  const rows = db
    .prepare('SELECT item_id, language, request_id, manual FROM variants WHERE experiment_id = ?')
    .all(experimentId) as {
    item_id: number;
    language: TargetLanguage;
    request_id: number | null;
    manual: number;
  }[];
  return rows.map((r) => ({
    itemId: r.item_id,
    language: r.language,
    requestId: r.request_id,
    manual: r.manual === 1,
  }));
}

/** The variants (by "itemId:language") a person edited after `since` (an ISO time). */
export function variantsEditedSince(db: Database, experimentId: number, since: string): Set<string> {
  const rows = db
    .prepare(
      'SELECT item_id, language FROM variants WHERE experiment_id = ? AND manual = 1 AND updated_at > ?',
    )
    .all(experimentId, since) as { item_id: number; language: string }[];
  return new Set(rows.map((r) => `${r.item_id}:${r.language}`));
}

/** Which variants are stored, as "itemId:language" (no texts). */
export function variantKeys(db: Database, experimentId: number): Set<string> {
  const rows = db
    .prepare('SELECT item_id, language FROM variants WHERE experiment_id = ?')
    .all(experimentId) as { item_id: number; language: string }[];
  return new Set(rows.map((r) => `${r.item_id}:${r.language}`));
}

/** One variant's texts, or undefined when none is stored. */
export function variantTexts(
  db: Database,
  experimentId: number,
  itemId: number,
  language: string,
): { instruction: string; output1: string; output2: string; manual: boolean } | undefined {
  const r = db
    .prepare(
      'SELECT instruction, output_1, output_2, manual FROM variants WHERE experiment_id = ? AND item_id = ? AND language = ?',
    )
    .get(experimentId, itemId, language) as
    { instruction: string; output_1: string; output_2: string; manual: number } | undefined;
  return (
    r && { instruction: r.instruction, output1: r.output_1, output2: r.output_2, manual: r.manual === 1 }
  );
}

export function listVariants(db: Database, experimentId: number): VariantRow[] {
  const rows = db
    .prepare('SELECT * FROM variants WHERE experiment_id = ? ORDER BY item_id, language')
    .all(experimentId) as {
    item_id: number;
    language: TargetLanguage;
    instruction: string;
    output_1: string;
    output_2: string;
    model: string | null;
    prompt_hash: string | null;
    request_id: number | null;
    audit_json: string;
    manual: number;
  }[];
  return rows.map((r) => ({
    itemId: r.item_id,
    language: r.language,
    instruction: r.instruction,
    output1: r.output_1,
    output2: r.output_2,
    model: r.model,
    promptHash: r.prompt_hash,
    requestId: r.request_id,
    reasons: JSON.parse(r.audit_json) as string[],
    manual: r.manual === 1,
  }));
}
