// What the app lends a protocol (issue 21, DESIGN.md §1b): the one module under protocols/
// that may import the lower layers, so the list below is exactly what a study can use besides
// the seam's types (plugin.ts, types.ts, model-use.ts), the judging kit and src/shared.
// eslint.config.mjs refuses any other import from a protocol's folder. Adding to this list
// is a design decision: say why in DESIGN.md §1b.

/** Refusals with a code the doors map to exit codes and HTTP statuses. */
export { AppError } from '../base/errors';
/** Reading a user's file (an answers file) under the same limits as datasets. */
export { INPUT_LIMITS, readRegularFile } from '../base/input-limits';
export { decodeText } from '../import/decode';
export { invalidInput, showValue, typeName } from '../import/issues';
export { readCsv, type CsvColumns } from '../import/csv';
export { readJson } from '../import/json';
export { readJsonl } from '../import/jsonl';
/** A study's own dataset kind (ProtocolPlugin.datasetKinds): its record check makes these items. */
export type { DatasetKindSpec } from '../import/kinds';
export type { SourceRecord } from '../import/record';
export type { NewItem } from '../store/datasets';
/** The request a task asks and the schema it asks the answer in. */
export type { ChatRequestSpec, ResponseSchema } from '../providers/types';
/** Token estimates before anything was answered. */
export { estimateInputTokens } from '../providers/tokens';
/** The store: hooks get the handle; a protocol reads its results and calls, and keeps tables of its own. */
export type { Database } from '../store/db';
export { listResults } from '../store/results';
export { getRequests } from '../store/ledger';
/** CSV as every export writes it. */
export { toCsv } from '../report/csv';

/** The simulated judge's planted-effect knobs: a study tells it where its perturbations show. */
export { setPlantedDetectors, type PlantedDetect } from '../providers/simulated/planted-bias';
