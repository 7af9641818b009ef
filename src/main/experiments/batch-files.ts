// Offline batch files for GPU clusters (vLLM / SGLang `run-batch`): the experiment's open
// requests written in the OpenAI Batch input format, and the cluster's output file read back
// into the ledger. The app never talks to the cluster: the files travel by hand.
//
// Why no record of the export in the store: each line's custom id carries the experiment and
// the ledger request it asks, sealed by a digest of both with the request's own hash, so an
// answer can only land on the very request it was made for, a file of another experiment (or
// of a request changed since) is refused, and an export that never came back leaves nothing
// behind (a kill between export and import changes nothing; the next export writes it again).
import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../base/errors';
import type { BatchFileExport, BatchFileImport } from '../../shared/experiments';
import { batchOutputEntry, type OutputLine } from '../providers/batch-openai';
import { buildOpenAIRequest } from '../providers/openai';
import type { ChatRequestSpec } from '../providers/types';
import type { StagePlugin } from '../protocols/plugin';
import type { ProtocolTask } from '../protocols/types';
import { storeOutcomes, type OutcomeWrite } from '../queue/outcome-store';
import { DEFAULT_RETRY_POLICY } from '../queue/retry-policy';
import type { Database } from '../store/db';
import { pruneTasksToItems, tasksOf } from '../store/experiments';
import {
  claimForImport,
  getRequests,
  recoverInFlight,
  specFromStored,
  type LedgerRow,
} from '../store/ledger';
import { writeArrivedResults } from '../store/results';
import { assertRunnable, endpointIds, type LoadedExperiment } from './load';
import { recordPlan, storeAnswers } from './stages';

/** `jl-e<experiment>-r<request>-<seal>`: within OpenAI's and vLLM's custom id rules. */
const CUSTOM_ID = /^jl-e(\d+)-r(\d+)-([0-9a-f]{16})$/;
/** The only endpoint `vllm run-batch` serves for chat (and the one the body is built for). */
const URL = '/v1/chat/completions';
/** Lines listed in a refusal or a report before "and N more". */
const LISTED = 20;

function seal(exp: LoadedExperiment, row: Pick<LedgerRow, 'id' | 'hash'>): string {
  return createHash('sha256')
    .update(`${exp.row.id}\n${exp.row.createdAt}\n${row.id}\n${row.hash}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * Plans every stage from what is stored (as a run's round starts: the protocol's hooks first,
 * so answers imported last time unlock their follow-up tasks), records the plan, and returns
 * the experiment's tasks with each one's stage.
 */
function planNow(db: Database, exp: LoadedExperiment): void {
  pruneTasksToItems(
    db,
    exp.row.id,
    exp.items.map((i) => i.id),
  );
  storeAnswers(db, exp, new Set(exp.protocol.stages.map((s) => s.name)));
  const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
  const tasks: ProtocolTask[] = [];
  for (const s of exp.protocol.stages) for (const t of s.plan(exp.view, db)) tasks.push(t);
  recordPlan(db, exp, tasks, (t) => stages.get(t.stage)!.group(t));
}

/** Calls left in flight by a run that is gone go back to pending (a live run's are left alone). */
function recoverOpen(db: Database, exp: LoadedExperiment): void {
  const ids = [...new Set(tasksOf(db, exp.row.id).map((t) => t.requestId))];
  const stuck = [...getRequests(db, ids).values()].filter((r) => r.status === 'in_flight').map((r) => r.id);
  if (stuck.length) recoverInFlight(db, stuck);
}

/** A provider entry's name by the endpoint the ledger records. */
function providerOfEndpoint(exp: LoadedExperiment): Map<string, string> {
  return new Map([...endpointIds(exp.providers)].map(([name, endpoint]) => [endpoint, name]));
}

/**
 * How often an unusable answer of this call was read (from its failure reason): an import has
 * no run to remember it in, and asking a cluster again is an export later.
 */
const ASKED = /^unparseable: .* \(asked (\d+) times?(; asked again by the next export)?\)$/s;

function askedBefore(row: Pick<LedgerRow, 'status' | 'failureReason'>): number {
  const m = row.status === 'failed' && row.failureReason ? ASKED.exec(row.failureReason) : null;
  return m ? Number(m[1]) : 0;
}

/**
 * Calls an export asks (again): pending, failed for a reason another try can fix, or unusable
 * fewer times than the experiment's re-asks allow; an answer unusable that often failed like
 * any answer and is not asked again.
 */
function retried(row: LedgerRow): boolean {
  if (row.status === 'pending') return true;
  if (row.status !== 'failed') return false;
  if (!row.failureReason?.startsWith('unparseable')) return true;
  return ASKED.exec(row.failureReason)?.[2] !== undefined;
}

/**
 * Every request of the plan not answered yet (pending, or failed for a reason another try can
 * fix), one line each in the OpenAI Batch input format. Requests of providers that do not speak
 * the chat-completions format (anthropic), of the keyless demo and of recorded files are left
 * out and counted.
 */
export function exportBatchFile(
  db: Database,
  exp: LoadedExperiment,
  opts: { model?: string } = {},
): BatchFileExport {
  assertRunnable(exp);
  planNow(db, exp);
  // Dead runs' calls (a run killed with calls on the wire) are open again, so they are written.
  recoverOpen(db, exp);
  const tasks = tasksOf(db, exp.row.id);
  const rows = getRequests(
    db,
    tasks.map((t) => t.requestId),
  );
  const providerOf = providerOfEndpoint(exp);
  const lines: string[] = [];
  const stages = new Set<string>();
  const seen = new Set<number>();
  const skipped = new Map<string, number>();
  const models = new Map<string, number>();
  let otherModels = 0;
  let inFlight = 0;
  for (const t of tasks) {
    const row = rows.get(t.requestId);
    if (!row || seen.has(row.id)) continue;
    seen.add(row.id);
    if (row.status === 'in_flight') inFlight++;
    if (!retried(row)) continue;
    const name = providerOf.get(row.endpoint);
    const cfg = name === undefined ? undefined : exp.providers[name];
    if (!name || !cfg || cfg.kind !== 'openai') {
      const key = name ?? row.endpoint;
      skipped.set(key, (skipped.get(key) ?? 0) + 1);
      continue;
    }
    if (opts.model !== undefined && row.model !== opts.model) {
      otherModels++;
      continue;
    }
    stages.add(t.stage);
    models.set(row.model, (models.get(row.model) ?? 0) + 1);
    lines.push(
      JSON.stringify({
        custom_id: `jl-e${exp.row.id}-r${row.id}-${seal(exp, row)}`,
        method: 'POST',
        url: URL,
        // A service tier is OpenAI's, not a cluster's: the file asks the plain request.
        body: buildOpenAIRequest(specFromStored(row.requestJson, name), { ...cfg, serviceTier: undefined }),
      }),
    );
  }
  return {
    text: lines.length ? lines.join('\n') + '\n' : '',
    requests: lines.length,
    stages: exp.protocol.stages.map((s) => s.name).filter((s) => stages.has(s)),
    models: Object.fromEntries(models),
    otherModels,
    inFlight,
    skipped: [...skipped].map(([provider, requests]) => ({
      provider,
      requests,
      reason: 'not an openai-kind provider (the batch file speaks the chat-completions format)',
    })),
  };
}

function refuse(file: string, line: number, field: string, message: string): never {
  throw new AppError('invalid_input', `${file}:${line}: field "${field}": ${message}`, [
    { file, field, message: `line ${line}: ${message}` },
  ]);
}

interface Entry {
  line: number;
  customId: string;
  requestId: number;
  parsed: OutputLine;
}

/**
 * Reads every line and checks each against the experiment before anything is written: a line
 * made for another experiment, for a request not in this plan, or for a request that changed
 * since the export refuses the whole file (naming file, line and field). A line that is not
 * JSON (a file cut short while it was written) is listed and skipped: its request stays open.
 */
function readOutput(
  exp: LoadedExperiment,
  file: string,
  text: string,
  rows: Map<number, LedgerRow>,
): { entries: Entry[]; malformed: { line: number; problem: string }[] } {
  const entries: Entry[] = [];
  const malformed: { line: number; problem: string }[] = [];
  const seen = new Map<number, number>();
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      malformed.push({ line, problem: 'not a JSON line (the file may have been cut short)' });
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      malformed.push({ line, problem: 'not a JSON object' });
      return;
    }
    const customId = (parsed as { custom_id?: unknown }).custom_id;
    if (typeof customId !== 'string')
      refuse(file, line, 'custom_id', 'missing: not an output line of a batch file Judge Lab exported');
    const m = CUSTOM_ID.exec(customId);
    if (!m) refuse(file, line, 'custom_id', `"${customId.slice(0, 80)}" is not a request Judge Lab exported`);
    const [expId, requestId] = [Number(m[1]), Number(m[2])];
    if (expId !== exp.row.id)
      refuse(
        file,
        line,
        'custom_id',
        `made for experiment ${expId}, not "${exp.row.name}" (${exp.row.id}); import it into the experiment it was exported from`,
      );
    const row = rows.get(requestId);
    if (!row || seal(exp, row) !== m[3])
      refuse(
        file,
        line,
        'custom_id',
        `request ${requestId} is not a request of "${exp.row.name}" as planned now (made for other requests, or the request changed since the export): export again`,
      );
    const first = seen.get(requestId);
    if (first !== undefined)
      refuse(file, line, 'custom_id', `request ${requestId} is answered twice (lines ${first} and ${line})`);
    seen.set(requestId, line);
    entries.push({ line, customId, requestId, parsed: parsed as OutputLine });
  });
  return { entries, malformed };
}

/**
 * Reads a `vllm run-batch` output file into the ledger: each answer read by its stage's parser
 * as it would be live, stored with its result; an answer already stored is kept (never paid or
 * replaced twice); an unusable answer goes back to be asked again by the next export until the
 * experiment's `maxParseRetries`, then fails like any answer; an error entry fails the call
 * (listed, and asked again by the next export). Then the protocol hears of the new results, so
 * the next export holds the stages they unlock.
 */
export function importBatchFile(
  db: Database,
  exp: LoadedExperiment,
  file: string,
  text: string,
): BatchFileImport {
  assertRunnable(exp);
  recoverOpen(db, exp);
  const tasks = tasksOf(db, exp.row.id);
  const rows = getRequests(db, [...new Set(tasks.map((t) => t.requestId))]);
  const { entries, malformed } = readOutput(exp, file, text, rows);
  const stages = new Map<string, StagePlugin>(exp.protocol.stages.map((s) => [s.name, s]));
  const taskOf = new Map(tasks.map((t) => [t.requestId, t]));
  const slotsOf = new Map<number, typeof tasks>();
  for (const t of tasks) slotsOf.set(t.requestId, [...(slotsOf.get(t.requestId) ?? []), t]);
  const providerOf = providerOfEndpoint(exp);
  const maxParseRetries = exp.config.maxParseRetries ?? DEFAULT_RETRY_POLICY.maxParseRetries;
  const report: BatchFileImport = {
    file,
    lines: entries.length + malformed.length,
    stored: 0,
    kept: 0,
    askAgain: 0,
    failed: { count: 0, first: [] },
    malformed: { count: malformed.length, first: malformed.slice(0, LISTED) },
    open: 0,
  };
  const owner = `file:${randomBytes(6).toString('hex')}`;
  const zero = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  db.transaction(() => {
    const taken = new Set(
      claimForImport(
        db,
        entries.map((e) => e.requestId),
        owner,
      ),
    );
    const writes: OutcomeWrite[] = [];
    const results: Parameters<typeof writeArrivedResults>[2][number][] = [];
    const fail = (e: Entry, reason: string, text: string | null, usage = zero) => {
      report.failed.count++;
      if (report.failed.first.length < LISTED)
        report.failed.first.push({ line: e.line, customId: e.customId, reason });
      writes.push({
        c: { id: e.requestId, status: 'failed', reason, text, usage, costUsd: 0, extraAttempts: 0 },
      });
    };
    for (const e of entries) {
      if (!taken.has(e.requestId)) {
        report.kept++;
        continue;
      }
      const row = rows.get(e.requestId)!;
      const task = taskOf.get(e.requestId)!;
      const stage = stages.get(task.stage);
      const spec: ChatRequestSpec = specFromStored(row.requestJson, providerOf.get(row.endpoint) ?? '');
      const r = batchOutputEntry(e.parsed, () => spec);
      const unusable = (reason: string, raw: string | null, usage = zero) => {
        const asked = askedBefore(row) + 1;
        if (asked > maxParseRetries) {
          fail(e, `unparseable: ${reason} (asked ${asked} time${asked === 1 ? '' : 's'})`, raw, usage);
          return;
        }
        // Failed until asked again (the results show it so meanwhile), the count kept in its
        // reason: the next export writes it again.
        report.askAgain++;
        writes.push({
          c: {
            id: e.requestId,
            status: 'failed',
            reason: `unparseable: ${reason} (asked ${asked} time${asked === 1 ? '' : 's'}; asked again by the next export)`,
            text: raw,
            usage,
            costUsd: 0,
            extraAttempts: 0,
          },
        });
      };
      if (r.type === 'succeeded') {
        const parsed = stage
          ? stage.parse(r.result.json ?? r.result.text, task)
          : { ok: true as const, value: undefined };
        if (!parsed.ok) {
          unusable(parsed.error, r.result.text, r.result.usage);
          continue;
        }
        report.stored++;
        writes.push({
          c: {
            id: e.requestId,
            status: 'done',
            text: r.result.text,
            json: r.result.json,
            usage: r.result.usage,
            costUsd: 0,
            extraAttempts: 0,
          },
          value: parsed.value,
        });
      } else if (r.type === 'unparseable')
        unusable(r.error.message, r.error.rawText ?? null, r.error.usage ?? zero);
      else if (r.type === 'errored') fail(e, `${r.kind}: ${r.message}`, null);
      else {
        // Expired or cancelled on the cluster: nothing was answered, the next export asks again.
        report.askAgain++;
        writes.push({ c: { id: e.requestId, status: 'pending', usage: zero, costUsd: 0, extraAttempts: 0 } });
      }
    }
    storeOutcomes(db, writes, owner, (outcomes) => {
      for (const o of outcomes) {
        // Every slot asking this request gets its result (two judges on one model share it).
        for (const t of slotsOf.get(o.requestId) ?? [])
          results.push({
            key: t.key,
            requestId: o.requestId,
            status: o.status === 'done' ? 'ok' : 'failed',
            value: o.value,
            reason: o.reason,
          });
      }
      writeArrivedResults(db, exp.row.id, results);
    });
  })();
  // The protocol's hooks on what arrived (a translation's variant and audit), so the next
  // export plans the verdicts it unlocks.
  storeAnswers(db, exp, new Set(exp.protocol.stages.map((s) => s.name)));
  const now = getRequests(db, [...new Set(tasksOf(db, exp.row.id).map((t) => t.requestId))]);
  report.open = [...now.values()].filter(retried).length;
  return report;
}
