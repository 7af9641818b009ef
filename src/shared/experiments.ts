// Experiment types that cross the doors, for every protocol (runner state, estimates, results).
import type { KeyState } from './domain';
import type { ConfirmatoryMarks } from './paper/confirmatory';
import type { PowerPlan } from './paper/types';
import type { Table } from './report/table';

export type ExperimentStatus = 'draft' | 'running' | 'paused' | 'cancelled' | 'finished' | 'failed';
/** A protocol stage's name. */
export type Phase = string;

export interface PhaseProgress {
  /** Jobs in the group (a request needed twice counts twice). */
  total: number;
  /** Finished with a usable answer, cache hits included. */
  done: number;
  failed: number;
  /** Done without a call: the answer was already in the ledger (cost 0). */
  cacheHits: number;
  /** Claimed in the ledger and not finished yet (on the wire or waiting to retry). */
  inFlight: number;
  /** Not started yet. */
  pending: number;
}

/** Live state of a run, pushed as `run.progress` roughly four times a second. */
export interface ExperimentProgress {
  experimentId: number;
  status: ExperimentStatus;
  phase: Phase | null;
  /** The protocol's stages in order: the run view shows one row per stage, from these. */
  stages: Phase[];
  /** Per stage (key: stage name). */
  phases: Record<Phase, PhaseProgress>;
  /** Per judge (key: judge label), summed over every stage whose tasks name that judge. */
  judges: Record<string, PhaseProgress>;
  callsPerMinute: number;
  etaSeconds: number | null;
  tokens: { input: number; output: number; cached: number };
  costUsd: number;
  failuresByReason: Record<string, number>;
  /**
   * Answers cut off at the output limit (finish_reason "length", stop_reason "max_tokens")
   * whose whole fields held a usable answer: read, not asked again. Counted beside the failures.
   */
  cutOffReads?: number;
  /** Endpoints the run had to stop using, with the reason in plain words (bad key, quota…). */
  pausedLanes: { endpoint: string; model: string; kind: string; reason: string; label?: string }[];
  message: string | null;
  updatedAt: string;
  /** Provider batches (providers in batch mode) of this experiment, newest first. */
  batches?: BatchProgress[];
}

/** One provider batch as progress shows it: it answers within the provider's window (24 h). */
export interface BatchProgress {
  id: number;
  provider: string;
  model: string;
  remoteId: string | null;
  /** submitting | open | cancelling | ended | failed */
  status: string;
  /** The provider's own word (validating, in_progress, ended, …). */
  remoteStatus: string | null;
  requests: number;
  finished: number;
  createdAt: string;
}

export interface ExperimentSummary {
  id: number;
  name: string;
  protocol: string;
  datasetId: number;
  datasetName: string;
  status: ExperimentStatus;
  judges: string[];
  itemCount: number;
  createdAt: string;
  updatedAt: string;
  /** Done/total over every planned request, from the store (no live run needed). */
  counts: { planned: number; done: number; failed: number };
  /** Answered by the built-in simulated provider: a demo, not a measurement. */
  simulated: boolean;
  /**
   * A stored config field that today's rules refuse (e.g. an `apiKeyEnv` name): the experiment
   * opens and exports, but cannot run until it is fixed. Absent when the config is fine.
   */
  configProblem?: string;
}

export interface ExperimentDetail extends ExperimentSummary {
  /** The validated config as stored (keys are never in it: only env var names). */
  config: unknown;
  /** Whether each provider's key is available to the core; never the key itself. */
  keys: Record<string, KeyState>;
}

export interface EstimateRow {
  /** The model's role in the protocol: judge, transformer, generator, … */
  role: string;
  label: string;
  provider: string;
  model: string;
  /** What kind of call (the protocol's word, e.g. a stage or verdict kind). */
  kind: string;
  calls: number;
  /** Calls whose answer is already stored: free. */
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  priced: boolean;
  /** Sent through the provider's Batch API: batch prices, answers within `batchWindowHours`. */
  batch?: boolean;
}

/**
 * One model's calls still to pay (a judge, or a transformer), priced and timed four ways: live at
 * the standard rate, through the provider's Batch API, on OpenAI's flex tier, and exported for a
 * cluster of one's own (`judge-lab batch export`). Absent tiers: the provider has none.
 */
export interface TierEstimate {
  label: string;
  role: string;
  provider: string;
  model: string;
  /** Calls not answered yet (the ones a tier would pay for). */
  calls: number;
  /** False: the model is not in the price table (its figures are 0 and say so). */
  priced: boolean;
  /** Live calls at list prices; minutes at the lane's rate limits (a typical server without them). */
  standard: { usd: number; minutes: number };
  /** The provider's Batch API (openai and anthropic kinds): batch prices, answered within `windowHours` per round. */
  batch?: { usd: number; windowHours: number; rounds: number };
  /** OpenAI's flex tier (OpenAI's own API): its Batch prices, answered live but slower (minutes at a slow server's pace). */
  flex?: { usd: number; minutes: number };
  /** Exported for a cluster: nothing at API prices (the GPUs' own cost and time are the user's). */
  cluster: { usd: 0 };
  /** The tier the config sends these calls on: its provider's `mode: "batch"` or `serviceTier: "flex"`, else standard. */
  chosen?: 'standard' | 'batch' | 'flex';
}

export interface CostEstimate {
  rows: EstimateRow[];
  /** Per model, the four ways to pay for what is left (issue 39). */
  tiers?: TierEstimate[];
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unpricedModels: string[];
  /** Wall time at the configured rate limits, in minutes (the slowest lane decides); live calls only. */
  minutesAtRateLimits: number;
  /**
   * When a lane has no RPM limit, its time is how fast its server answers: the minutes at a fast
   * and at a slow server (`minutesAtRateLimits` is a typical one's). Absent: rate bound.
   */
  minutesRange?: [number, number];
  /** When some calls go through a Batch API: the provider's turnaround window (24 h) per round of batches. */
  batchWindowHours?: number;
  /** The same calls at live prices (shown beside `costUsd` when batches save money). */
  liveCostUsd?: number;
  /** How the estimate was made, in English (e.g. later stages estimated from texts that exist now). */
  note: string;
  /** The note's key in the protocol's UI strings (the wizard shows it in the UI language). */
  noteKey?: string;
  /** Power of the confirmatory comparisons for these items (issue 24); absent for a protocol without a power model. */
  power?: PowerPlan;
}

/**
 * A call that ended without a usable answer, at any stage of a protocol (a text it prepares or a
 * verdict). `rawText` is the model's answer exactly as received, when there was one.
 */
export interface FailedCallView {
  /** The protocol stage of the call. */
  stage: string;
  /** The judge label; null for a model that prepares texts (not a judge). */
  judge: string | null;
  sourceId: string;
  itemId: number;
  /** The item's language as the call saw it (the protocol's own codes). */
  language: string;
  /** The answers' order for a pairwise verdict (the protocol's own codes); null otherwise. */
  order: string | null;
  /** The protocol's kind of call (its stage or verdict kind). */
  kind: string;
  reason: string;
  rawText: string | null;
  attempts: number;
}

/** An item an audit flagged, with its reasons (the sensitivity view leaves it out). */
export interface FlaggedItem {
  item_id: string;
  reasons: string[];
}

/** Where an experiment's plan stands, counted from the store (answers appear as they arrive). */
export interface ResultCounts {
  /** Tasks in the plan. */
  planned: number;
  /** Answered with a usable value. */
  ok: number;
  /** Ended without a usable answer (counted in every report, with the reason). */
  failed: number;
  /** Not answered yet (queued, on the wire, or waiting for an earlier stage). */
  pending: number;
}

/**
 * An experiment's results: the protocol's metrics (a pure function of its stored results) and
 * its tables, the very model the export writes as CSV/XLSX/LaTeX, so screen and files agree.
 * `protocol` says which protocol's metrics these are (see `isResultsOf`).
 */
export interface ExperimentResults<M = unknown, P extends string = string> {
  protocol: P;
  metrics: M;
  tables: Table[];
  /** Items an audit flagged (the sensitivity switch drops them); empty where a protocol has no audit. */
  flagged: FlaggedItem[];
  /**
   * Items the protocol's verification did not pass (the verified-only switch drops them), counted
   * on the items the flagged switch keeps; absent when the experiment verifies nothing.
   */
  unverified?: FlaggedItem[];
  counts: ResultCounts;
  /** Answered by the built-in simulated provider: every page and export says so. */
  simulated: boolean;
  /** With a preregistration in force: the rows its confirmatory comparisons read (tables carry the marks). */
  confirmatory?: ConfirmatoryMarks;
}

/** Narrows results to one protocol's. */
export function isResultsOf<M, P extends string>(
  r: ExperimentResults,
  protocol: P,
): r is ExperimentResults<M, P> {
  return r.protocol === protocol;
}

export interface ExportResult {
  dir: string;
  files: string[];
  /** Figures that could not be drawn (the rest was written); also in manifest.json `figures_failed`. */
  figureFailures: { id: string; format: 'svg' | 'png'; error: string }[];
}

export interface RenderedPromptView {
  /** The protocol's stage that sends this prompt (e.g. a transform before the judging). */
  stage: string;
  /** The card's title in English (exports, logs); the wizard shows `labelKey` in its language. */
  label: string;
  /** The protocol's i18n key of the title (under `wizard.<section>.previewLabels`), with its values. */
  labelKey?: string;
  labelParams?: Record<string, string>;
  system: string;
  user: string;
}

/** The prompts a draft config would send for one item, in the order its stages send them. */
export interface PromptPreview {
  itemId: number;
  sourceId: string;
  prompts: RenderedPromptView[];
}

/**
 * A recorded provider's file as the experiment used it (manifest `recorded`): its hash, the
 * plan's slots it did not answer (missing) and its rows no slot asked for (unmatched), counted
 * with the first ones listed; `note` when the file cannot be compared now (changed or gone).
 */
export interface RecordedSummary {
  provider: string;
  file: string;
  sha256: string | null;
  rows?: number;
  missing?: { count: number; first: string[] };
  unmatched?: { count: number; first: { line: number; slot: string }[] };
  /** Rows answering a slot that was planned for another model (`model` the row's, `planned` the plan's). */
  otherModel?: { count: number; first: { line: number; slot: string; model: string; planned: string }[] };
  note?: string;
}

/** `experiments.batchExport`: the open requests as an OpenAI Batch input file (for `vllm run-batch`). */
export interface BatchFileExport {
  /** JSONL, one request a line (`custom_id`, `method`, `url`, `body`); empty when nothing is open. */
  text: string;
  requests: number;
  /** The stages the file's requests belong to, in the protocol's order. */
  stages: string[];
  /** Requests written, per model (`vllm run-batch` serves one model a run: `--model`). */
  models: Record<string, number>;
  /** Open requests of other models left out (the export was asked for one model). */
  otherModels: number;
  /** Requests another run or a provider batch has in flight now: not written. */
  inFlight: number;
  /** Requests left out because their provider does not speak the chat-completions format. */
  skipped: { provider: string; requests: number; reason: string }[];
}

/** `experiments.batchImport`: what a `vllm run-batch` output file brought. */
export interface BatchFileImport {
  file: string;
  /** Non-empty lines read. */
  lines: number;
  /** Answers stored. */
  stored: number;
  /** Lines for requests already answered (kept as they were: never replaced, never paid twice). */
  kept: number;
  /** Unusable answers and expired entries: open again, the next export asks them again. */
  askAgain: number;
  /** Error entries (and answers unusable too often): failed; the next export asks the former again. */
  failed: { count: number; first: { line: number; customId: string; reason: string }[] };
  /** Lines that are not JSON (a file cut short): skipped, their requests still open. */
  malformed: { count: number; first: { line: number; problem: string }[] };
  /** Requests of the plan still open after the import (export again for them and for later stages). */
  open: number;
}
