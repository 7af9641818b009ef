import { createHash } from 'node:crypto';
import type { ChatRequestSpec, Usage } from '../providers/types';
import type { Database } from './db';
// Statements prepared once per connection: the engine claims and completes thousands of rows a second.
import { prepared } from './statements';
import { leaseHeld, leaseOf, LEASE_MS, type Lease, type LeaseColumns } from './leases';

// The request ledger (DESIGN.md section 3): one row per distinct paid request, written
// before it is sent. pending → in_flight → done | failed; in_flight → pending on recovery,
// pause or cancel; failed → pending on "retry failed"; pending → failed when a run gives up
// on a call it could not send (its endpoint stayed unreachable). Nothing else is legal.
// A row in flight is leased to the run that claimed it (leases.ts): only that run may
// complete or release it, and others recover it only once that run is gone.

export type RequestStatus = 'pending' | 'in_flight' | 'done' | 'failed';

/** The hashed, stored form of a request: everything that changes the answer, sorted. */
export interface CanonicalRequest {
  endpoint: string;
  model: string;
  system: string | null;
  messages: ChatRequestSpec['messages'];
  temperature: number | null;
  maxOutputTokens: number | null;
  /** Absent for plain-text requests (left out of the hash, so structured hashes are unchanged). */
  response?: ChatRequestSpec['response'];
  /** A repeat's index, present only when > 0: the first ask hashes as it always did. */
  sample?: number;
}

export class IllegalTransitionError extends Error {
  constructor(id: number, from: RequestStatus | 'missing', to: RequestStatus) {
    super(`Request ${id}: illegal ledger transition ${from} → ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** JSON with object keys sorted at every depth, so equal requests hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** The provider name is left out on purpose: the endpoint identity stands for it. */
export function canonicalRequest(endpointId: string, spec: ChatRequestSpec): CanonicalRequest {
  return {
    endpoint: endpointId,
    model: spec.model,
    system: spec.system ?? null,
    messages: spec.messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: spec.temperature ?? null,
    maxOutputTokens: spec.maxOutputTokens ?? null,
    response: spec.response,
    ...(spec.sample !== undefined && spec.sample > 0 ? { sample: spec.sample } : {}),
  };
}

export function requestHash(endpointId: string, spec: ChatRequestSpec): string {
  return sha256(canonicalRequestJson(endpointId, spec));
}

/** Sorted JSON of each response schema object, made once: every task of a stage shares one. */
const schemaJson = new WeakMap<object, { json: string; from: NonNullable<ChatRequestSpec['response']> }>();

function responseJson(response: NonNullable<ChatRequestSpec['response']>): string {
  const hit = schemaJson.get(response);
  // A schema object changed in place since (not done today) is sorted again.
  if (hit && hit.from.name === response.name && hit.from.schema === response.schema) return hit.json;
  const json = canonicalJson(response);
  schemaJson.set(response, { json, from: { ...response } });
  return json;
}

const str = (v: unknown) => JSON.stringify(v);

/**
 * `canonicalJson(canonicalRequest(endpointId, spec))`, byte for byte, written out key by key in
 * sorted order (the shape is fixed) instead of sorting a fresh copy: a plan of 10,000 tasks is
 * recorded again at every re-plan, and sorting dominated it. Anything unusual takes the
 * general path.
 */
export function canonicalRequestJson(endpointId: string, spec: ChatRequestSpec): string {
  if (!spec.messages.every((m) => typeof m.content === 'string' && typeof m.role === 'string'))
    return canonicalJson(canonicalRequest(endpointId, spec));
  let json = `{"endpoint":${str(endpointId)},"maxOutputTokens":${str(spec.maxOutputTokens ?? null)},"messages":[`;
  json += spec.messages.map((m) => `{"content":${str(m.content)},"role":${str(m.role)}}`).join(',');
  json += `],"model":${str(spec.model)}`;
  if (spec.response !== undefined) json += `,"response":${responseJson(spec.response)}`;
  if (spec.sample !== undefined && spec.sample > 0) json += `,"sample":${str(spec.sample)}`;
  return `${json},"system":${str(spec.system ?? null)},"temperature":${str(spec.temperature ?? null)}}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Rebuilds the spec for sending; `provider` is whichever configured name serves the endpoint. */
export function specFromStored(requestJson: string, provider: string): ChatRequestSpec {
  const c = JSON.parse(requestJson) as CanonicalRequest;
  const spec: ChatRequestSpec = { provider, model: c.model, messages: c.messages };
  if (c.response) spec.response = c.response;
  if (c.system !== null) spec.system = c.system;
  if (c.temperature !== null) spec.temperature = c.temperature;
  if (c.maxOutputTokens !== null) spec.maxOutputTokens = c.maxOutputTokens;
  if (c.sample !== undefined) spec.sample = c.sample;
  return spec;
}

/**
 * Inserts the requests not yet in the ledger as pending, in one transaction, and returns
 * every id in input order. Existing rows (done or not) are reused: that is the cache.
 */
export function ensureRequests(
  db: Database,
  items: { endpointId: string; spec: ChatRequestSpec }[],
): number[] {
  const insert = prepared(
    db,
    `INSERT INTO requests (hash, endpoint, model, request_json) VALUES (?, ?, ?, ?)
     ON CONFLICT(hash) DO NOTHING`,
  );
  const find = prepared(db, 'SELECT id FROM requests WHERE hash = ?').pluck();
  return db.transaction(() =>
    items.map(({ endpointId, spec }) => {
      const json = canonicalRequestJson(endpointId, spec);
      const hash = sha256(json);
      const info = insert.run(hash, endpointId, spec.model, json);
      return info.changes ? Number(info.lastInsertRowid) : (find.get(hash) as number);
    }),
  )();
}

export interface LedgerRow {
  id: number;
  hash: string;
  endpoint: string;
  model: string;
  requestJson: string;
  status: RequestStatus;
  attempts: number;
  responseText: string | null;
  responseJson: unknown;
  failureReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  /** Prompt-cache writes (migration 7; Anthropic bills them apart). */
  cacheWriteTokens: number | null;
  costUsd: number | null;
  /** Who has the row in flight (all null otherwise). */
  lease: LeaseColumns;
}

interface RawRow extends LeaseColumns {
  id: number;
  hash: string;
  endpoint: string;
  model: string;
  request_json: string;
  status: RequestStatus;
  attempts: number;
  response_text: string | null;
  response_json: string | null;
  failure_reason: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  cache_write_tokens: number | null;
  cost_usd: number | null;
}

function toRow(r: RawRow): LedgerRow {
  return {
    id: r.id,
    hash: r.hash,
    endpoint: r.endpoint,
    model: r.model,
    requestJson: r.request_json,
    status: r.status,
    attempts: r.attempts,
    responseText: r.response_text,
    responseJson: r.response_json === null ? null : JSON.parse(r.response_json),
    failureReason: r.failure_reason,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    cachedTokens: r.cached_tokens,
    cacheWriteTokens: r.cache_write_tokens,
    costUsd: r.cost_usd,
    lease: leaseOf(r),
  };
}

export function getRequest(db: Database, id: number): LedgerRow | undefined {
  const r = prepared(db, 'SELECT * FROM requests WHERE id = ?').get(id) as RawRow | undefined;
  return r && toRow(r);
}

/** Rows by id (missing ids are absent from the map); read in one transaction for a consistent view. */
export function getRequests(db: Database, ids: readonly number[]): Map<number, LedgerRow> {
  const stmt = prepared(db, 'SELECT * FROM requests WHERE id = ?');
  const out = new Map<number, LedgerRow>();
  db.transaction(() => {
    for (const id of ids) {
      if (out.has(id)) continue;
      const r = stmt.get(id) as RawRow | undefined;
      if (r) out.set(id, toRow(r));
    }
  })();
  return out;
}

/** What an export shows of an answer: its text and token counts. */
export type AnswerRow = Pick<LedgerRow, 'responseText' | 'inputTokens' | 'outputTokens'>;

/**
 * Answer rows by id (missing ids are absent), read in one transaction. Not `SELECT *`: an export
 * reads every answer of a study, and the rows' request text and parsed response JSON, which it
 * never uses, were most of its peak memory (~60 MB of heap at 10,894 calls, issue 27).
 */
export function getAnswerRows(db: Database, ids: readonly number[]): Map<number, AnswerRow> {
  const stmt = prepared(
    db,
    `SELECT response_text AS responseText, input_tokens AS inputTokens, output_tokens AS outputTokens
       FROM requests WHERE id = ?`,
  );
  const out = new Map<number, AnswerRow>();
  db.transaction(() => {
    for (const id of ids) {
      if (out.has(id)) continue;
      const r = stmt.get(id) as AnswerRow | undefined;
      if (r) out.set(id, r);
    }
  })();
  return out;
}

/**
 * What planning a run needs of a row: no request or response text, no JSON to parse. A run of
 * 20,000 calls (or a re-run of a finished study) reads every row at its start.
 */
export type PlanRow = Pick<LedgerRow, 'id' | 'endpoint' | 'model' | 'status' | 'failureReason' | 'lease'>;

/** Planning rows by id (missing ids are absent from the map), read in one transaction. */
export function getPlanRows(db: Database, ids: readonly number[]): Map<number, PlanRow> {
  const stmt = prepared(
    db,
    `SELECT id, endpoint, model, status, failure_reason, lease_owner, lease_pid, lease_host, lease_expires_at
       FROM requests WHERE id = ?`,
  );
  const out = new Map<number, PlanRow>();
  db.transaction(() => {
    for (const id of ids) {
      if (out.has(id)) continue;
      const r = stmt.get(id) as
        (LeaseColumns & Pick<RawRow, 'id' | 'endpoint' | 'model' | 'status' | 'failure_reason'>) | undefined;
      if (r)
        out.set(id, {
          id: r.id,
          endpoint: r.endpoint,
          model: r.model,
          status: r.status,
          failureReason: r.failure_reason,
          lease: leaseOf(r),
        });
    }
  })();
  return out;
}

/** The stored request of one row (canonical JSON), or undefined when there is no such row. */
export function getRequestJson(db: Database, id: number): string | undefined {
  return prepared(db, 'SELECT request_json FROM requests WHERE id = ?').pluck().get(id) as string | undefined;
}

/** What usage needs of a request: no texts, no JSON to parse (results read 90,000 of these). */
export interface RequestUsage {
  id: number;
  status: RequestStatus;
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  cacheWriteTokens: number | null;
  costUsd: number | null;
}

/** An answered (done or failed) task of an experiment's plan with its request's usage. */
export interface AnsweredTaskUsage extends RequestUsage {
  key: string;
  stage: string;
  meta: unknown;
}

/**
 * The plan's answered tasks with their requests' usage columns, in task-key order, in one query
 * (one lookup a task by id cost ~1 s per 100,000 tasks on the results page).
 */
export function answeredTaskUsage(db: Database, experimentId: number): AnsweredTaskUsage[] {
  const rows = prepared(
    db,
    `SELECT t.task_key AS key, t.stage, t.meta_json, r.id, r.status, r.model, r.input_tokens AS inputTokens,
            r.output_tokens AS outputTokens, r.cached_tokens AS cachedTokens,
            r.cache_write_tokens AS cacheWriteTokens, r.cost_usd AS costUsd
       FROM experiment_tasks t JOIN requests r INDEXED BY requests_answer ON r.id = t.request_id
      WHERE t.experiment_id = ? AND r.status IN ('done', 'failed')
      ORDER BY t.task_key`,
  ).all(experimentId) as (Omit<AnsweredTaskUsage, 'meta'> & { meta_json: string })[];
  return rows.map(({ meta_json, ...r }) => ({ ...r, meta: JSON.parse(meta_json) as unknown }));
}

function statusOf(db: Database, id: number): RequestStatus | 'missing' {
  const s = prepared(db, 'SELECT status FROM requests WHERE id = ?').pluck().get(id) as
    RequestStatus | undefined;
  return s ?? 'missing';
}

/**
 * pending → in_flight for the ids still pending, in one transaction; returns those claimed.
 * The engine uses this just before sending, so a row another process finished or took
 * meanwhile is skipped instead of paid for again. With a lease, the rows are the lease
 * owner's until it completes or releases them, or dies.
 */
export function claimPending(
  db: Database,
  ids: readonly number[],
  lease?: Lease,
  now: number = Date.now(),
): number[] {
  const stmt = prepared(
    db,
    `UPDATE requests SET status = 'in_flight', attempts = attempts + 1,
       lease_owner = ?, lease_pid = ?, lease_host = ?, lease_expires_at = ?,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ? AND status = 'pending'`,
  );
  const cols = lease ? [lease.owner, lease.pid, lease.host, now + LEASE_MS] : [null, null, null, null];
  return db.transaction(() => ids.filter((id) => stmt.run(...cols, id).changes === 1))();
}

/**
 * claimPending that also returns each claimed row's stored request (canonical JSON, for
 * specFromStored), read by the same statement: the engine loads a request when it sends it, so
 * it holds in memory only the requests on the wire, not the whole study's.
 */
export function claimPendingRequests(
  db: Database,
  ids: readonly number[],
  lease: Lease,
  now: number = Date.now(),
): Map<number, string> {
  const stmt = prepared(
    db,
    `UPDATE requests SET status = 'in_flight', attempts = attempts + 1,
       lease_owner = ?, lease_pid = ?, lease_host = ?, lease_expires_at = ?,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ? AND status = 'pending'
     RETURNING request_json`,
  ).pluck();
  const out = new Map<number, string>();
  db.transaction(() => {
    for (const id of ids) {
      const json = stmt.get(lease.owner, lease.pid, lease.host, now + LEASE_MS, id) as string | undefined;
      if (json !== undefined) out.set(id, json);
    }
  })();
  return out;
}

/** pending → in_flight for every id, in one transaction; counts one attempt each. Throws on any other state. */
export function markInFlight(db: Database, ids: readonly number[]): void {
  const stmt = prepared(
    db,
    `UPDATE requests SET status = 'in_flight', attempts = attempts + 1,
       lease_owner = NULL, lease_pid = NULL, lease_host = NULL, lease_expires_at = NULL,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ? AND status = 'pending'`,
  );
  db.transaction(() => {
    for (const id of ids) {
      if (stmt.run(id).changes !== 1) throw new IllegalTransitionError(id, statusOf(db, id), 'in_flight');
    }
  })();
}

/**
 * How a request in flight ends (or goes back to waiting, or stays in flight with the usage of
 * an answer it had to ask again). Usage and cost add to the row's.
 */
export type Completion =
  | {
      id: number;
      status: 'done';
      text: string;
      json: unknown;
      usage: Usage;
      costUsd: number;
      /** Sends not counted yet (the claim counted one; retries and re-asks add theirs). */
      extraAttempts: number;
    }
  | {
      id: number;
      status: 'failed';
      reason: string;
      text: string | null;
      usage: Usage;
      costUsd: number;
      extraAttempts: number;
    }
  | { id: number; status: 'pending' | 'in_flight'; usage: Usage; costUsd: number; extraAttempts: number };

// Every completion adds what the call used (an unusable paid answer still cost money) and
// only touches a row in flight under the writer's lease (NULL: a caller without one).
/** Adds a completion's usage and attempts to its row: its parameters are `usageArgs`'. */
export const ADD_USAGE = `input_tokens = COALESCE(input_tokens, 0) + ?, output_tokens = COALESCE(output_tokens, 0) + ?,
       cached_tokens = COALESCE(cached_tokens, 0) + ?, cache_write_tokens = COALESCE(cache_write_tokens, 0) + ?, cost_usd = COALESCE(cost_usd, 0) + ?,
       attempts = attempts + ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')`;
const WHERE_OURS_IN_FLIGHT = `WHERE id = ? AND status = 'in_flight' AND lease_owner IS ?`;
export const NO_LEASE = 'lease_owner = NULL, lease_pid = NULL, lease_host = NULL, lease_expires_at = NULL';

/** `ADD_USAGE`'s parameters for a completion, in its order. */
export function usageArgs(c: Completion): number[] {
  const u = c.usage;
  return [
    u.inputTokens,
    u.outputTokens,
    u.cachedInputTokens,
    u.cacheWriteTokens ?? 0,
    c.costUsd,
    c.extraAttempts,
  ];
}

export interface CompletionResult {
  applied: Completion[];
  /** Completions for rows that were not in flight under this lease, with the state found. */
  skipped: { completion: Completion; found: RequestStatus | 'missing' }[];
}

/**
 * Writes completions in one transaction, skipping (not throwing on) rows that are no longer
 * in flight under `owner`'s lease: a run whose row was taken over must not overwrite it.
 */
export function applyCompletions(
  db: Database,
  completions: readonly Completion[],
  owner: string | null = null,
): CompletionResult {
  const result: CompletionResult = { applied: [], skipped: [] };
  if (!completions.length) return result;
  const done = prepared(
    db,
    `UPDATE requests SET status = 'done', response_text = ?, response_json = ?, failure_reason = NULL,
       ${NO_LEASE}, ${ADD_USAGE} ${WHERE_OURS_IN_FLIGHT}`,
  );
  const failed = prepared(
    db,
    `UPDATE requests SET status = 'failed', failure_reason = ?, response_text = ?, response_json = NULL,
       ${NO_LEASE}, ${ADD_USAGE} ${WHERE_OURS_IN_FLIGHT}`,
  );
  const pending = prepared(
    db,
    `UPDATE requests SET status = 'pending', ${NO_LEASE}, ${ADD_USAGE} ${WHERE_OURS_IN_FLIGHT}`,
  );
  const stay = prepared(db, `UPDATE requests SET ${ADD_USAGE} ${WHERE_OURS_IN_FLIGHT}`);
  db.transaction(() => {
    for (const c of completions) {
      const usage = [...usageArgs(c), c.id, owner];
      let changes: number;
      if (c.status === 'done') changes = done.run(c.text, JSON.stringify(c.json), ...usage).changes;
      else if (c.status === 'failed') changes = failed.run(c.reason, c.text, ...usage).changes;
      else if (c.status === 'pending') changes = pending.run(...usage).changes;
      else changes = stay.run(...usage).changes;
      if (changes === 1) result.applied.push(c);
      else result.skipped.push({ completion: c, found: statusOf(db, c.id) });
    }
  })();
  return result;
}

/** Writes a batch of completions in one transaction; any illegal one throws and writes nothing. */
export function completeRequests(
  db: Database,
  completions: readonly Completion[],
  owner: string | null = null,
): void {
  db.transaction(() => {
    const { skipped } = applyCompletions(db, completions, owner);
    if (skipped.length) {
      const { completion, found } = skipped[0];
      throw new IllegalTransitionError(
        completion.id,
        found,
        completion.status === 'in_flight' ? 'in_flight' : completion.status,
      );
    }
  })();
}

/**
 * Gives up on calls a run could not send or finish: pending rows, and rows in flight under
 * `owner`'s lease, become failed with `reason`. Returns the ids written.
 */
export function failUnsent(
  db: Database,
  ids: readonly number[],
  reason: string,
  owner: string | null,
): number[] {
  const stmt = prepared(
    db,
    `UPDATE requests SET status = 'failed', failure_reason = ?, response_json = NULL, ${NO_LEASE},
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')
     WHERE id = ? AND (status = 'pending' OR (status = 'in_flight' AND lease_owner IS ?))`,
  );
  return db.transaction(() => ids.filter((id) => stmt.run(reason, id, owner).changes === 1))();
}

const ZERO: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

export function markDone(
  db: Database,
  id: number,
  r: { text: string; json: unknown; usage?: Usage; costUsd?: number },
): void {
  completeRequests(db, [
    {
      id,
      status: 'done',
      text: r.text,
      json: r.json,
      usage: r.usage ?? ZERO,
      costUsd: r.costUsd ?? 0,
      extraAttempts: 0,
    },
  ]);
}

export function markFailed(db: Database, id: number, reason: string, rawText: string | null = null): void {
  completeRequests(db, [
    { id, status: 'failed', reason, text: rawText, usage: ZERO, costUsd: 0, extraAttempts: 0 },
  ]);
}

/**
 * Rows in flight whose run is gone (dead process, expired lease, or no lease at all) go back
 * to pending; rows another live run is sending are left alone. All rows, or only `ids`.
 * Returns the ids recovered.
 */
export function recoverInFlight(db: Database, ids?: readonly number[], now: number = Date.now()): number[] {
  const cols = 'id, lease_owner, lease_pid, lease_host, lease_expires_at';
  const all = prepared(db, `SELECT ${cols} FROM requests WHERE status = 'in_flight'`);
  const one = prepared(db, `SELECT ${cols} FROM requests WHERE id = ? AND status = 'in_flight'`);
  const reset = prepared(
    db,
    `UPDATE requests SET status = 'pending', ${NO_LEASE}, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now')
     WHERE id = ? AND status = 'in_flight' AND lease_owner IS ?`,
  );
  // Immediate: nobody may claim or complete a row between our look and our reset.
  return db
    .transaction(() => {
      const rows = (
        ids ? ids.map((id) => one.get(id)).filter((r) => r !== undefined) : all.all()
      ) as (LeaseColumns & { id: number })[];
      return rows
        .filter((r) => !leaseHeld(r, now) && reset.run(r.id, r.lease_owner).changes === 1)
        .map((r) => r.id);
    })
    .immediate();
}

/** "Retry failed": failed → pending, for the given ids or every failed row. Returns how many. */
export function resetFailed(db: Database, ids?: readonly number[]): number {
  const sql = `UPDATE requests SET status = 'pending', failure_reason = NULL,
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE status = 'failed'`;
  if (!ids) return prepared(db, sql).run().changes;
  const stmt = prepared(db, `${sql} AND id = ?`);
  return db.transaction(() => ids.reduce((n, id) => n + stmt.run(id).changes, 0))();
}

export function countByStatus(db: Database): Record<RequestStatus, number> {
  const out: Record<RequestStatus, number> = { pending: 0, in_flight: 0, done: 0, failed: 0 };
  for (const r of prepared(db, 'SELECT status, COUNT(*) AS n FROM requests GROUP BY status').all() as {
    status: RequestStatus;
    n: number;
  }[])
    out[r.status] = r.n;
  return out;
}

/**
 * Rows answered outside the app (a batch file run on a cluster) taken for their answers:
 * pending or failed → in flight under `owner`, one attempt each, so the answers are written
 * by applyCompletions like any other. A row done or in flight elsewhere is not taken: an
 * answer already stored is never replaced. Returns the ids taken.
 */
export function claimForImport(db: Database, ids: readonly number[], owner: string): number[] {
  const stmt = prepared(
    db,
    `UPDATE requests SET status = 'in_flight', attempts = attempts + 1,
       lease_owner = ?, lease_pid = NULL, lease_host = NULL, lease_expires_at = NULL,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ? AND status IN ('pending', 'failed')`,
  );
  return db.transaction(() => ids.filter((id) => stmt.run(owner, id).changes === 1))();
}
