// Column mappings a person chose on import, remembered per file shape, so the next file with
// the same columns imports without asking again.
import type { ColumnMapping } from '../import/column-mapping';
import type { Database } from './db';

export function rememberedMapping(db: Database, shape: string): ColumnMapping | undefined {
  const row = db.prepare('SELECT mapping_json FROM column_mappings WHERE shape = ?').get(shape) as
    { mapping_json: string } | undefined;
  return row ? (JSON.parse(row.mapping_json) as ColumnMapping) : undefined;
}

export function rememberMapping(db: Database, shape: string, mapping: ColumnMapping): void {
  db.prepare(
    `INSERT INTO column_mappings (shape, mapping_json) VALUES (?, ?)
     ON CONFLICT(shape) DO UPDATE SET mapping_json = excluded.mapping_json,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`,
  ).run(shape, JSON.stringify(mapping));
}
