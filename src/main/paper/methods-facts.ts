// What the Methods text states, gathered from the stored experiment (issue 24): the dataset and
// its license, the sampling, each model's provider, model id, temperature and the dates of its
// first and last answer (from the ledger), the prompts' hashes, calls, failures and re-asks, the
// audit's flags and the cost. Protocol-neutral: counts come from the plan, the results store and
// the ledger, the same rows metrics.json's `usage` and the tables are computed from.
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { MethodsPrompt } from '../../shared/paper/methods';
import { compareNames } from '../../shared/text/collate';
import { SAMPLES } from '../datasets/samples';
import type { LoadedExperiment } from '../experiments/load';
import { modelsOf } from '../experiments/load';
import type { MetricsContext } from '../protocols/plugin';
import { anyRecorded, anySimulated } from '../providers/config';
import { DEFAULT_RETRY_POLICY } from '../queue/retry-policy';
import type { Database } from '../store/db';
import { getDataset } from '../store/datasets';
import { tasksOf } from '../store/experiments';

export interface MethodsModel {
  role: string;
  label: string;
  providerKind: string;
  model: string;
  /** Distinct temperatures its requests carried (null: the provider's default). */
  temperatures: (number | null)[];
  /** The first and the last answer's time (ISO), null before any answer. */
  firstAnswer: string | null;
  lastAnswer: string | null;
  calls: number;
  cacheHits: number;
  costUsd: number;
  /**
   * Whether its calls went to a provider that is paid: a recorded file's answers and the simulated
   * provider's are read or made locally, so no call was made or paid for them.
   */
  paid: boolean;
}

/** Provider kinds whose answers cost no call: read from a recorded file, or made by the simulator. */
const UNPAID_KINDS = new Set(['recorded', 'simulated']);

export interface MethodsFacts {
  experiment: { id: number; name: string; protocol: string; title: string };
  simulated: boolean;
  recorded: boolean;
  dataset: {
    name: string;
    sourceFile: string;
    format: string;
    sha256: string;
    /** Items in the dataset and items the experiment used. */
    total: number;
    used: number;
    /** The bundled sample's license; null for a user's own file. */
    license: string | null;
  };
  sampling: {
    limit: number | null;
    sample: 'first' | 'random';
    seed: number | null;
    subsets: string[] | null;
  };
  models: MethodsModel[];
  prompts: MethodsPrompt[];
  /** Planned slots, answered usably, failed and still open. */
  tasks: { planned: number; ok: number; failed: number; pending: number };
  /** Answers the experiment got from its models and answers reused from the ledger (as metrics.json `usage`). */
  calls: number;
  cacheHits: number;
  /** Of `calls`, those sent to a paid provider (not read from a recorded file nor simulated). */
  paidCalls: number;
  /** Failed answers by kind (the reason's head, e.g. "unparseable"), most frequent first. */
  failures: { kind: string; count: number }[];
  /** Answers that needed more than one ask, and the asks beyond the first. */
  reasked: { answers: number; extraAsks: number };
  maxParseRetries: number;
  /** Items the protocol's audit flagged; the sensitivity analysis leaves them out. */
  flagged: number;
  costUsd: number;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The failure reason's kind: what precedes the first colon ("unparseable: …" → "unparseable"). */
export function failureKind(reason: string | null): string {
  const head = (reason ?? 'failed').split(':')[0].trim();
  return head === '' ? 'failed' : head;
}

export function methodsFacts(db: Database, exp: LoadedExperiment, ctx: MetricsContext): MethodsFacts {
  const ds = getDataset(db, exp.row.datasetId);
  const sample = ds ? SAMPLES.find((s) => basename(s.file) === ds.sourceFile) : undefined;
  const cfg = exp.config;

  // Per model (role + label): temperatures and answer dates from the ledger rows of its tasks.
  const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
  // The temperature read in SQL: a study's requests hold whole prompts, not worth parsing here.
  // One pass over the plan's ledger rows, not a query per task (10,894 in the 419 × 3 study).
  const ledger = new Map<number, { status: string; temperature: number | null; updated_at: string }>();
  const ledgerRows = db
    .prepare(
      `SELECT r.id, r.status, json_extract(r.request_json, '$.temperature') AS temperature, r.updated_at
         FROM requests r
        WHERE r.id IN (SELECT request_id FROM experiment_tasks WHERE experiment_id = ?)`,
    )
    .iterate(exp.row.id) as IterableIterator<{
    id: number;
    status: string;
    temperature: number | null;
    updated_at: string;
  }>;
  for (const { id, ...row } of ledgerRows) ledger.set(id, row);
  const byModel = new Map<string, { temps: Set<number | null>; first: string | null; last: string | null }>();
  const keyOf = (role: string, label: string) => `${role}\u0000${label}`;
  const tasks = tasksOf(db, exp.row.id);
  for (const t of tasks) {
    const stage = stages.get(t.stage);
    if (!stage) continue;
    const who = stage.describe(t);
    const row = ledger.get(t.requestId);
    if (!row) continue;
    const k = keyOf(who.role, who.label);
    let m = byModel.get(k);
    if (!m) byModel.set(k, (m = { temps: new Set(), first: null, last: null }));
    m.temps.add(row.temperature ?? null);
    if (row.status !== 'done') continue;
    if (m.first === null || row.updated_at < m.first) m.first = row.updated_at;
    if (m.last === null || row.updated_at > m.last) m.last = row.updated_at;
  }
  const models = modelsOf(exp).map((u): MethodsModel => {
    const seen = byModel.get(keyOf(u.role, u.label));
    const usage = ctx.usage.filter((r) => r.role === u.role && r.judge === u.label);
    return {
      role: u.role,
      label: u.label,
      providerKind: exp.providers[u.provider]?.kind ?? u.provider,
      model: u.model,
      temperatures: [...(seen?.temps ?? [])].sort((a, b) => (a ?? -1) - (b ?? -1)),
      firstAnswer: seen?.first ?? null,
      lastAnswer: seen?.last ?? null,
      calls: usage.reduce((s, r) => s + r.calls, 0),
      cacheHits: usage.reduce((s, r) => s + r.cache_hits, 0),
      costUsd: usage.reduce((s, r) => s + r.cost_usd, 0),
      paid: !UNPAID_KINDS.has(exp.providers[u.provider]?.kind ?? ''),
    };
  });

  const failures = new Map<string, number>();
  let reasked = 0;
  let extraAsks = 0;
  for (const r of ctx.results) {
    if (r.status === 'failed')
      failures.set(failureKind(r.reason), (failures.get(failureKind(r.reason)) ?? 0) + 1);
    if (r.attempts > 1) {
      reasked++;
      extraAsks += r.attempts - 1;
    }
  }
  const ok = ctx.results.filter((r) => r.status === 'ok').length;
  const failed = ctx.results.length - ok;
  const planned = tasks.length;
  const templates = exp.protocol.promptTemplates(exp.view) as Record<string, string>;

  return {
    experiment: { id: exp.row.id, name: exp.row.name, protocol: exp.protocol.id, title: exp.protocol.title },
    simulated: anySimulated(exp.providers),
    recorded: anyRecorded(exp.providers),
    dataset: {
      name: ds?.name ?? String(cfg.dataset),
      sourceFile: ds?.sourceFile ?? '',
      format: ds?.format ?? '',
      sha256: ds?.contentHash ?? '',
      total: ds?.itemCount ?? exp.items.length,
      used: exp.items.length,
      license: sample?.license ?? null,
    },
    sampling: {
      limit: cfg.limit ?? null,
      sample: cfg.sample ?? 'first',
      seed: cfg.seed ?? null,
      subsets: cfg.subsets ?? null,
    },
    models,
    prompts: Object.entries(templates)
      .sort(([a], [b]) => compareNames(a, b))
      .map(([name, text]) => ({ name, sha256: sha256(text), text })),
    tasks: { planned, ok, failed, pending: planned - ok - failed },
    calls: models.reduce((s, m) => s + m.calls, 0),
    cacheHits: models.reduce((s, m) => s + m.cacheHits, 0),
    paidCalls: models.reduce((s, m) => s + (m.paid ? m.calls : 0), 0),
    failures: [...failures]
      .map(([kind, count]) => ({ kind, count }))
      .sort((a, b) => b.count - a.count || compareNames(a.kind, b.kind)),
    reasked: { answers: reasked, extraAsks },
    maxParseRetries: cfg.maxParseRetries ?? DEFAULT_RETRY_POLICY.maxParseRetries,
    flagged: new Set(ctx.flagged.map((f) => f.item_id)).size,
    costUsd: models.reduce((s, m) => s + m.costUsd, 0),
  };
}
