// Experiments answered from recorded files (the `recorded` provider): the file is sealed into
// the config by its hash when the experiment is created (read whole and checked first), opened
// again for each run (refused if it changed), and matched to the plan slot by slot. Also the
// two ways a file is made: the empty template of a config, and the answers of a stored run.
import type { RecordedSummary } from '../../shared/experiments';
import { AppError } from '../base/errors';
import { createAdapter } from '../providers/index';
import { endpointId, type ProviderConfig } from '../providers/config';
import { RecordedChatAdapter } from '../providers/recorded/adapter';
import {
  readRecordedFile,
  recordedText,
  fileSha256,
  type RecordedAnswers,
  type RecordedFormat,
  type RecordedOut,
} from '../providers/recorded/file';
import { slotColumns, slotFields, slotId, slotText, type SlotSource } from '../providers/recorded/slots';
import type { ChatAdapter } from '../providers/types';
import type { Database } from '../store/db';
import { taskEndpoints, tasksOf, tasksOfRequestHash } from '../store/experiments';
import { getRequests, requestHash } from '../store/ledger';
import type { ExperimentConfig } from './config';
import type { LoadedExperiment } from './load';

type Recorded = ProviderConfig & { kind: 'recorded'; file: string };

function recordedEntries(providers: Record<string, ProviderConfig>): [string, Recorded][] {
  return Object.entries(providers).filter((e): e is [string, Recorded] => e[1].kind === 'recorded');
}

/** Every slot the experiment plans, stages not run yet included (the protocol's estimate plan). */
function plannedSlots(db: Database, exp: LoadedExperiment): (SlotSource & { model: string })[] {
  return exp.protocol
    .estimatePlan(exp.view, db, null)
    .tasks.map((t) => ({ key: t.key, stage: t.stage, meta: t.meta, model: t.request.model }));
}

/** The slot columns a file of this experiment may have. */
function columnsOf(db: Database, exp: LoadedExperiment): Set<string> {
  return new Set(slotColumns(plannedSlots(db, exp)));
}

/**
 * Reads and checks each recorded file of a draft and returns the config with each file's
 * SHA-256 sealed in: a file that does not read, or differs from a hash given by hand, is
 * refused before anything is stored.
 */
export function sealRecorded(
  db: Database,
  draft: LoadedExperiment,
  config: ExperimentConfig,
): ExperimentConfig {
  const entries = recordedEntries(draft.providers);
  if (!entries.length) return config;
  const columns = columnsOf(db, draft);
  const providers = { ...config.providers };
  for (const [name, cfg] of entries) {
    const answers = readRecordedFile(cfg.file, columns);
    if (cfg.sha256 && cfg.sha256 !== answers.sha256)
      throw new AppError(
        'invalid_input',
        `providers.${name}.sha256: ${cfg.file} has SHA-256 ${answers.sha256}, the config names ${cfg.sha256}`,
        [
          {
            file: 'config',
            field: `providers.${name}.sha256`,
            message: `the file's SHA-256 is ${answers.sha256}`,
          },
        ],
      );
    providers[name] = { ...cfg, sha256: answers.sha256 };
  }
  return { ...config, providers };
}

/** Opens each recorded file for a run: read whole, and refused if it changed since it was sealed. */
export function openRecorded(db: Database, exp: LoadedExperiment): Map<string, RecordedAnswers> {
  const entries = recordedEntries(exp.providers);
  const out = new Map<string, RecordedAnswers>();
  if (!entries.length) return out;
  const columns = columnsOf(db, exp);
  for (const [name, cfg] of entries) {
    const answers = readRecordedFile(cfg.file, columns);
    if (answers.sha256 !== cfg.sha256)
      throw new AppError(
        'invalid_input',
        `${cfg.file} changed since experiment "${exp.row.name}" was created (SHA-256 ${cfg.sha256 ?? 'none'}, now ${answers.sha256}): run its config again with judge-lab run to take the new file, or put the old file back`,
        [
          {
            file: cfg.file,
            field: `providers.${name}.sha256`,
            message: 'the file changed since the experiment was created',
          },
        ],
      );
    out.set(name, answers);
  }
  return out;
}

/**
 * The engine's adapter factory for a recorded experiment: each recorded provider answers from
 * its file; the slot of a request is the experiment's task whose ledger request it is.
 */
export function recordedAdapters(
  db: Database,
  exp: LoadedExperiment,
  files: Map<string, RecordedAnswers>,
): (cfg: ProviderConfig, apiKey: string, providerName: string) => ChatAdapter {
  return (cfg, apiKey, providerName) => {
    const answers = cfg.kind === 'recorded' ? files.get(providerName) : undefined;
    if (!answers) return createAdapter(cfg, apiKey);
    const endpoint = endpointId(cfg, providerName);
    return new RecordedChatAdapter(answers, (spec) =>
      tasksOfRequestHash(db, exp.row.id, requestHash(endpoint, spec)).map(slotFields),
    );
  };
}

/** Slots listed in the manifest and the CLI before "and N more". */
const LISTED = 50;

/**
 * What a recorded experiment's files answered: slots of the plan with no answer (missing) and
 * rows that match no slot (unmatched), each counted and the first ones listed.
 */
export function recordedSummary(db: Database, exp: LoadedExperiment): RecordedSummary[] {
  const entries = recordedEntries(exp.providers);
  if (!entries.length) return [];
  const tasks = tasksOf(db, exp.row.id);
  const slots = new Map(tasks.map((t) => [slotId(slotFields(t)), t]));
  const endpoints = taskEndpoints(db, exp.row.id);
  const ledger = getRequests(
    db,
    tasks.map((t) => t.requestId),
  );
  return entries.map(([name, cfg]) => {
    // Each entry answers only its own slots (those whose requests go to it): with a file per
    // provider, another entry's slots are not this file's to answer, so never its missing ones.
    // Slots asking the same question share a request: missing only when none of them is answered.
    const own = endpointId(cfg, name);
    const byRequest = new Map<number, string[]>();
    for (const [id, t] of slots)
      if (endpoints.get(t.key) === own)
        byRequest.set(t.requestId, [...(byRequest.get(t.requestId) ?? []), id]);
    const base = { provider: name, file: cfg.file, sha256: cfg.sha256 ?? null };
    let answers: RecordedAnswers;
    try {
      if (fileSha256(cfg.file) !== cfg.sha256)
        return { ...base, note: 'the file changed since the run: missing and unmatched rows are not listed' };
      answers = readRecordedFile(cfg.file, columnsOf(db, exp));
    } catch (err) {
      return { ...base, note: `the file cannot be read now (${(err as Error).message})` };
    }
    const missing = [...byRequest.values()]
      .filter((ids) => !ids.some((id) => answers.byId.has(id)))
      .map((ids) => slotText(slotFields(slots.get(ids[0])!)));
    // An empty row (a template's slot the plan did not come to) answers nothing: not listed.
    const unmatched = answers.rows
      .filter((r) => r.answer !== '' && !slots.has(r.id))
      .map((r) => ({ line: r.line, slot: slotText(r.fields) }));
    // A row that answers a slot planned for another model was read as that slot's answer: the
    // judge named in the results would not be the one that answered, so each is listed.
    const otherModel = answers.rows.flatMap((r) => {
      const t = r.answer === '' ? undefined : slots.get(r.id);
      const planned = t && ledger.get(t.requestId)?.model;
      return planned && planned !== r.model
        ? [{ line: r.line, slot: slotText(r.fields), model: r.model, planned }]
        : [];
    });
    return {
      ...base,
      rows: answers.rows.length,
      missing: { count: missing.length, first: missing.slice(0, LISTED) },
      unmatched: { count: unmatched.length, first: unmatched.slice(0, LISTED) },
      otherModel: { count: otherModel.length, first: otherModel.slice(0, LISTED) },
    };
  });
}

/** The file's text with one row per slot the experiment plans, every answer empty. */
export function recordedTemplate(
  db: Database,
  draft: LoadedExperiment,
  format: RecordedFormat,
): { text: string; rows: number; columns: string[] } {
  const slots = plannedSlots(db, draft);
  const columns = slotColumns(slots);
  const rows: RecordedOut[] = slots.map((s) => ({
    fields: new Map(slotFields(s)),
    model: s.model,
    answer: '',
  }));
  return { text: recordedText(format, columns, rows), rows: rows.length, columns };
}

/**
 * A stored experiment's answers as a recorded file (the raw text as received, with its usage),
 * in plan order by stage; calls without an answer (failed before one came, not sent) are left
 * out and counted.
 */
export function exportAnswers(
  db: Database,
  exp: LoadedExperiment,
  format: RecordedFormat,
): { text: string; rows: number; skipped: number } {
  const order = new Map(exp.protocol.stages.map((s, i) => [s.name, i]));
  const tasks = tasksOf(db, exp.row.id).sort(
    (a, b) =>
      (order.get(a.stage) ?? 0) - (order.get(b.stage) ?? 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const ledger = getRequests(
    db,
    tasks.map((t) => t.requestId),
  );
  const rows: RecordedOut[] = [];
  for (const t of tasks) {
    const r = ledger.get(t.requestId);
    // An unusable answer is an answer too: read again, it fails the same way, as it did here.
    const answered = r?.status === 'done' || r?.failureReason?.startsWith('unparseable') === true;
    if (!r || !answered || r.responseText === null) continue;
    rows.push({
      fields: new Map(slotFields(t)),
      model: r.model,
      answer: r.responseText,
      usage: {
        inputTokens: r.inputTokens ?? 0,
        outputTokens: r.outputTokens ?? 0,
        cachedInputTokens: r.cachedTokens ?? 0,
      },
    });
  }
  return {
    text: recordedText(format, slotColumns(tasks), rows),
    rows: rows.length,
    skipped: tasks.length - rows.length,
  };
}
