// Domain types shared by the core, the doors and the renderer. Types only: no runtime code.
import type { Refusal } from './refusals';

export type Label = 1 | 2;
export type DatasetFormat = 'llmbar-jsonl' | 'llmbar-json' | 'csv';
/**
 * What an item holds. `pairwise`: instruction, output_1, output_2, gold label 1|2 (LLMBar).
 * `qa`: a question with gold answers and a language; its own fields live in `Item.extra`.
 */
export type DatasetKind = 'pairwise' | 'qa' | 'pointwise' | (string & {});
/* The three above are the app's own; a study may register another (src/main/import/kinds.ts
   `registerDatasetKind`, or its plug-in's `datasetKinds`), so the type stays open. */

export interface SubsetCount {
  subset: string;
  count: number;
}

export interface DatasetSummary {
  id: number;
  name: string;
  sourceFile: string;
  format: DatasetFormat;
  /** Absent in summaries from before dataset kinds: pairwise. */
  kind?: DatasetKind;
  contentHash: string;
  itemCount: number;
  subsets: SubsetCount[];
  createdAt: string;
}

/** A row of the item table: enough to list, filter and pick an item. */
export interface ItemRow {
  id: number;
  sourceId: string;
  subset: string | null;
  /** Gold label of a pairwise item; null for other kinds. */
  label: Label | null;
  /** The instruction (a QA item's question), cut to a preview length. */
  instructionPreview: string;
  /**
   * The kind's own fields its list shows (src/shared/dataset-kinds.ts), as text: QA `language`
   * and `answers`, pointwise `response` and `human_score`. Absent for pairwise rows.
   */
  fields?: Record<string, string>;
}

export interface Item {
  id: number;
  datasetId: number;
  sourceId: string;
  position: number;
  subset: string | null;
  /** The instruction of a pairwise item; the question of a QA item. */
  instruction: string;
  /** Pairwise fields: null for items of other kinds. */
  output1: string | null;
  output2: string | null;
  label: Label | null;
  /** The kind's own fields (QA: answers, language, context, category); null for pairwise. */
  extra?: Record<string, unknown> | null;
}

export interface ImportResult {
  dataset: DatasetSummary;
  /** True when the same file content was imported before: nothing new was written. */
  duplicate: boolean;
  /** The column mapping applied (field → file column), chosen now or remembered for this shape. */
  mapping?: Record<string, string>;
  /** True when `mapping` was not sent but remembered from an earlier file with the same columns. */
  mappingRemembered?: boolean;
}

/** One problem in an input file, located as precisely as the format allows. */
export interface InputIssue {
  file: string;
  /** 1-based line in the file (JSONL, JSON when known, CSV physical line). */
  line?: number;
  /** 1-based data row (CSV) or array index + 1 (JSON). */
  row?: number;
  field?: string;
  message: string;
  /** The message's stable key and params (src/shared/refusals.ts), when the core gives one. */
  refusal?: Refusal;
}

export type ErrorCode = 'invalid_input' | 'invalid_params' | 'not_found' | 'conflict' | 'internal';

/** The error shape that crosses every door. */
export interface ApiErrorPayload {
  code: ErrorCode;
  message: string;
  issues?: InputIssue[];
  /** Set when a dataset file's columns do not name the fields a dataset kind needs. */
  columnChoice?: ColumnChoice;
  /** The message's stable key and params (src/shared/refusals.ts): what a page translates. */
  refusal?: Refusal;
}

/** What a person needs to say which column of a file is which field (issue 15 item 12). */
export interface ColumnChoice {
  /** The file's columns in file order (a CSV's header cells, trimmed and lower-cased). */
  columns: string[];
  /** The kind the file was read as, and the fields of every kind (required ones first). */
  kind: DatasetKind;
  kinds: { kind: DatasetKind; fields: { field: string; required: boolean }[] }[];
  /** The first records, column → text (cut short), to preview a mapping. */
  sample: Record<string, string>[];
  /** The mapping tried (sent, or remembered for this shape), to start from. */
  mapping?: Record<string, string>;
}

export interface AppInfo {
  version: string;
  dataDir: string;
  door: 'electron' | 'web' | 'cli';
  samples: { id: string; name: string; itemCount: number; kind: DatasetKind }[];
}

/**
 * A provider's key as a page may know it: `withheld` is set in the environment but not sent to
 * this provider's server (only to its kind's known servers or the one in `<NAME>_BASE_URL`).
 */
export type KeyState = 'set' | 'missing' | 'not_needed' | 'withheld';
