// The study bundle (issue 24; docs/DESIGN.md "Paper kit"): one zip, `*.judgelab`, that a reviewer
// opens to recompute every metric without a key or the network. Its layout and what `verify`
// reports, shared by the core and the doors.

import type { Table } from '../report/table';
import type { PreregistrationLock, PreregistrationView } from './preregistration';

/** Layout version of bundle.json; a reader refuses any other. */
export const BUNDLE_LAYOUT = 1;
export const BUNDLE_EXTENSION = '.judgelab';

/** The entries every bundle has (besides bundle.json and export/…). */
export const BUNDLE_ENTRIES = {
  config: 'config.json',
  dataset: 'dataset.json',
  prompts: 'prompts.json',
  /** The answers in the recorded-answers format (raw text and usage): what `verify` replays. */
  answers: 'answers.jsonl',
  /** Every request and raw response of the experiment's plan, with status, usage and times. */
  ledger: 'ledger.jsonl',
  /** Human labels of the experiment's rating sets (only when there are any). */
  labels: 'labels.jsonl',
  /** Texts edited by hand, as the protocol lists them; the replay applies them before it runs (only when there are any). */
  edits: 'edits.json',
  /** Every locked analysis plan, oldest first, each with its SHA-256 (only when one was locked). */
  preregistration: 'preregistration.json',
  /** The export folder as `judge-lab export` writes it: metrics.json, manifest.json, tables, figures, methods. */
  exportDir: 'export/',
} as const;

export interface BundleJson {
  layout: number;
  format: 'judge-lab study bundle';
  app_version: string;
  created_at: string;
  experiment: { name: string; protocol: string; status: string };
  /** Answered by the built-in simulated provider: its tables and figures carry the mark. */
  simulated: boolean;
  /** SHA-256 (hex) of every other entry, by path. */
  entries: Record<string, string>;
}

/** Differences `verify` lists per file before it stops: enough to see what moved. */
export const DIFFERENCES_LISTED = 20;

/** One file `verify` recomputed and compared with the stored one. */
export interface BundleCheck {
  /** The entry compared, e.g. export/metrics.json. */
  file: string;
  equal: boolean;
  /** Where they first differ (JSON path or line), when they do. */
  differences: { where: string; stored: string; recomputed: string }[];
}

/** Why a file of the bundle's export folder was not recompared (never counted as equal). */
export const NOT_RECOMPARED = {
  manifest:
    'records the original run (its times, app version, counts as exported); only its preregistration hash is checked',
  methods: "written from the original run's dates and times of answers, which a replay cannot reproduce",
  protocolFile: "a protocol's own export file: verify does not recompute it",
  unreadable: 'could not be read or drawn again here',
} as const;
export type NotRecomparedReason = keyof typeof NOT_RECOMPARED;

export interface BundleVerifyReport {
  file: string;
  experiment: BundleJson['experiment'];
  /** Every entry matched its SHA-256 in bundle.json (a bundle that does not is refused outright). */
  entries: number;
  /** Answers replayed from answers.jsonl; no provider was called. */
  replayed: number;
  checks: BundleCheck[];
  /** True when every check is equal (byte for byte; the workbook by cell values, PNGs by pixels). */
  identical: boolean;
  /**
   * Every file of the export folder that was not recompared, and why (`reason`: the English of
   * NOT_RECOMPARED; `detail`: e.g. the error that kept a PNG from being drawn again).
   */
  notRecompared: { file: string; reason: NotRecomparedReason; detail?: string }[];
  /** Answered by the simulated provider (as bundle.json says): what the app marks as simulated. */
  simulated: boolean;
  /**
   * The tables recomputed from the replayed answers, as the export writes them: what the app
   * shows when it opens a bundle (read-only, no store of the user's touched).
   */
  tables: Table[];
  /** The bundle's locked analysis plans (null when none was locked): what the opened bundle shows. */
  preregistration: BundlePlan | null;
}

/**
 * A bundle's preregistration as the bundle holds it: every lock (oldest first, each hash checked
 * before the replay; a changed one refuses the bundle), and what its export's manifest.json said:
 * the lock it names (equal to the newest, or `manifestMatches` is false) and the deviations found
 * when it was exported (in English, as exported: the store they were measured on is not here).
 */
export interface BundlePlan {
  locks: PreregistrationLock[];
  manifestMatches: boolean;
  manifestSha256: string | null;
  deviations: { kind: string; text: string }[];
  /** The comparisons a plan may name, with the keys of their labels in the protocol's words. */
  comparisons: PreregistrationView['comparisons'];
}

/**
 * The bundle opened in the app (`bundles.open`): the verify report and the session its replayed
 * store stays open under, read by `bundles.read` until `bundles.close` or the next bundle opened.
 */
export interface OpenedBundleReport extends BundleVerifyReport {
  session: string;
}

/**
 * The reads an opened bundle answers (each with its own method's parameters, the experiment and
 * items being the replay's): the results page's and the protocols' pages' reads, nothing that
 * writes, runs or exports.
 */
export const BUNDLE_READS = [
  'experiments.results',
  'experiments.protocolView',
  'experiments.flagged',
  'experiments.get',
  'experiments.verdicts',
  'experiments.verdictLinks',
  'items.get',
  'items.list',
] as const;
export type BundleRead = (typeof BUNDLE_READS)[number];
