import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { ImportResult } from '../../shared/domain';
import { parseDatasetFile } from '../import';
import { rememberedMapping, rememberMapping } from '../store/column-mappings';
import { findDatasetByHash, insertDataset } from '../store/datasets';
import type { Database } from '../store/db';
import { INPUT_LIMITS, readRegularFile } from '../base/input-limits';

export interface ImportRequest {
  fileName: string;
  bytes: Uint8Array;
  name?: string;
  /** Which column is which field; remembered for later files with the same columns. */
  columns?: Record<string, string>;
}

/**
 * Validates a whole file before writing anything, then writes it in one transaction.
 * The same bytes imported twice give back the first dataset instead of a copy.
 */
export function importDataset(db: Database, req: ImportRequest): ImportResult {
  const contentHash = createHash('sha256').update(req.bytes).digest('hex');
  const existing = findDatasetByHash(db, contentHash);
  if (existing) return { dataset: existing, duplicate: true };
  const parsed = parseDatasetFile(req.fileName, req.bytes, {
    columns: req.columns,
    remembered: (shape) => rememberedMapping(db, shape),
  });
  const name = req.name ?? basename(req.fileName, extname(req.fileName));
  let dataset;
  try {
    dataset = insertDataset(db, {
      name,
      sourceFile: basename(req.fileName),
      format: parsed.format,
      kind: parsed.kind,
      contentHash,
      items: parsed.items,
    });
  } catch (err) {
    // Another process (the app, `serve`, a second CLI run on this folder) imported the same
    // bytes between our look and our write: theirs is the dataset.
    const theirs =
      (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && findDatasetByHash(db, contentHash);
    if (theirs) return { dataset: theirs, duplicate: true };
    throw err;
  }
  // Only a mapping that imported a whole file is remembered.
  if (req.columns && parsed.mapping) rememberMapping(db, parsed.shape, parsed.mapping);
  return {
    dataset,
    duplicate: false,
    ...(parsed.mapping ? { mapping: parsed.mapping, mappingRemembered: !req.columns } : {}),
  };
}

export function importDatasetFromPath(
  db: Database,
  path: string,
  name?: string,
  columns?: Record<string, string>,
): ImportResult {
  const bytes = readRegularFile(path, INPUT_LIMITS.datasetFileBytes);
  return importDataset(db, { fileName: path, bytes, name, columns });
}
