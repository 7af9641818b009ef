// Writes the study bundle of a stored experiment (issue 24; layout in src/shared/paper/bundle.ts):
// the config as stored, the dataset's items, the prompt templates, the answers in the recorded
// format, the ledger rows of its plan, human labels, and the export folder, each hashed in
// bundle.json. Keys never enter it: the store holds only the names of their variables.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { BUNDLE_ENTRIES as E, BUNDLE_LAYOUT, type BundleJson } from '../../shared/paper/bundle';
import { AppError } from '../base/errors';
import { APP_VERSION } from '../base/version';
import { exportAnswers } from '../experiments/recorded';
import { loadExperiment } from '../experiments/load';
import { exportExperiment } from '../experiments/results';
import { anySimulated } from '../providers/config';
import type { Database } from '../store/db';
import { allItems, getDataset } from '../store/datasets';
import { paperInputs } from './preregistration';
import { readLocks, refuseTampered } from './prereg-locks';
import { inScratch } from './scratch';

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const utf8 = (text: string) => new TextEncoder().encode(text);
const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r) + '\n').join('');

/** The dataset as stored: enough to put the same items, with the same ids, into another store. */
export interface BundleDataset {
  name: string;
  source_file: string;
  format: string;
  kind: string;
  content_hash: string;
  items: {
    source_id: string;
    subset: string | null;
    instruction: string;
    output_1: string | null;
    output_2: string | null;
    label: 1 | 2 | null;
    extra: Record<string, unknown> | null;
  }[];
}

function datasetOf(db: Database, datasetId: number): BundleDataset {
  const ds = getDataset(db, datasetId);
  if (!ds) throw new AppError('not_found', `The experiment's dataset ${datasetId} is no longer stored`);
  return {
    name: ds.name,
    source_file: ds.sourceFile,
    format: ds.format,
    kind: ds.kind ?? 'pairwise',
    content_hash: ds.contentHash,
    items: allItems(db, datasetId).map((i) => ({
      source_id: i.sourceId,
      subset: i.subset,
      instruction: i.instruction,
      output_1: i.output1,
      output_2: i.output2,
      label: i.label,
      extra: i.extra ?? null,
    })),
  };
}

/** Every slot of the plan with its ledger row: the request as sent and the response as received. */
function ledgerRows(db: Database, experimentId: number): unknown[] {
  const rows = db
    .prepare(
      `SELECT t.stage, t.task_key, r.endpoint, r.model, r.request_json, r.status, r.attempts,
              r.response_text, r.response_json, r.failure_reason, r.input_tokens, r.output_tokens,
              r.cached_tokens, r.cache_write_tokens, r.cost_usd, r.created_at, r.updated_at
         FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
        WHERE t.experiment_id = ? ORDER BY t.stage, t.task_key`,
    )
    .all(experimentId) as Record<string, unknown>[];
  return rows.map(({ request_json, response_json, ...rest }) => ({
    ...rest,
    request: JSON.parse(request_json as string) as unknown,
    // The provider's whole response body where one was kept (model version, fingerprint, usage).
    response_json: typeof response_json === 'string' ? (JSON.parse(response_json) as unknown) : null,
  }));
}

function labelRows(db: Database, experimentId: number): unknown[] {
  return db
    .prepare(
      `SELECT s.uid AS set_uid, s.name AS set_name, i.unit_uid, i.item_key, a.name AS annotator,
              l.value_json, l.skipped, l.comment, l.created_at, l.updated_at
         FROM annotation_labels l
         JOIN annotation_sets s ON s.id = l.set_id
         JOIN annotation_items i ON i.set_id = l.set_id AND i.item_key = l.item_key
         JOIN annotators a ON a.id = l.annotator_id
        WHERE s.experiment_id = ? ORDER BY s.uid, i.position, a.name`,
    )
    .all(experimentId)
    .map((r) => {
      const { value_json, ...rest } = r as Record<string, unknown>;
      return { ...rest, value: value_json === null ? null : (JSON.parse(value_json as string) as unknown) };
    });
}

/**
 * The bundle's bytes. `scratch` is an empty folder the export folder is written into first (the
 * caller removes it). Refuses an experiment that has not finished: its answers would not
 * reproduce its metrics.
 */
export async function writeBundle(
  db: Database,
  experimentId: number,
  scratch: string,
  now: Date = new Date(),
): Promise<{ fileName: string; bytes: Uint8Array; entries: string[] }> {
  const exp = loadExperiment(db, experimentId);
  if (exp.row.status !== 'finished')
    throw new AppError(
      'invalid_input',
      `Experiment "${exp.row.name}" is ${exp.row.status}: a study bundle is written from a finished experiment`,
    );
  const entries: Record<string, Uint8Array> = {
    // Sealed again: an experiment stored before configs were sealed may still name a file by path.
    [E.config]: utf8(JSON.stringify(exp.protocol.sealConfig?.(exp.config) ?? exp.config, null, 2) + '\n'),
    [E.dataset]: utf8(JSON.stringify(datasetOf(db, exp.row.datasetId), null, 2) + '\n'),
    [E.prompts]: utf8(JSON.stringify(exp.protocol.promptTemplates(exp.view, db), null, 2) + '\n'),
    [E.answers]: utf8(exportAnswers(db, exp, 'jsonl').text),
    [E.ledger]: utf8(jsonl(ledgerRows(db, experimentId))),
  };
  const labels = labelRows(db, experimentId);
  if (labels.length) entries[E.labels] = utf8(jsonl(labels));
  const edits = exp.protocol.bundleEdits?.list(db, exp.view) ?? [];
  if (edits.length) entries[E.edits] = utf8(JSON.stringify(edits, null, 2) + '\n');
  const locks = readLocks(db, experimentId, exp.row.name);
  // A bundle carries the locks for a reviewer to check: one changed after locking is refused here.
  refuseTampered(exp.row.name, locks, `Bundle of "${exp.row.name}"`);
  if (locks.length)
    entries[E.preregistration] = utf8(JSON.stringify({ experiment: exp.row.name, locks }, null, 2) + '\n');
  // English, as `judge-lab export` writes by default: verify draws the figures in the same words.
  const exported = await exportExperiment(
    db,
    experimentId,
    join(scratch, 'export'),
    'en',
    paperInputs(db, exp),
  );
  for (const f of exported.files) entries[E.exportDir + f] = await readFile(join(exported.outDir, f));

  const names = Object.keys(entries).sort();
  const meta: BundleJson = {
    layout: BUNDLE_LAYOUT,
    format: 'judge-lab study bundle',
    app_version: APP_VERSION,
    created_at: now.toISOString(),
    experiment: { name: exp.row.name, protocol: exp.protocol.id, status: exp.row.status },
    simulated: anySimulated(exp.providers),
    entries: Object.fromEntries(names.map((n) => [n, sha256Hex(entries[n])])),
  };
  const zip = zipSync(
    { 'bundle.json': utf8(JSON.stringify(meta, null, 2) + '\n'), ...entries },
    { level: 6, mtime: now },
  );
  return { fileName: `${exp.row.name}.judgelab`, bytes: zip, entries: ['bundle.json', ...names] };
}

/** The bundle as the API returns it, written in a scratch folder under the data folder. */
export function exportBundle(
  db: Database,
  dataDir: string,
  experimentId: number,
): Promise<{ fileName: string; mime: string; contentBase64: string }> {
  return inScratch(dataDir, '.bundle-', async (dir) => {
    const b = await writeBundle(db, experimentId, dir);
    return {
      fileName: b.fileName,
      mime: 'application/zip',
      contentBase64: Buffer.from(b.bytes).toString('base64'),
    };
  });
}
