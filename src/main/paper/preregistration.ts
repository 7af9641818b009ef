// Preregistration (issue 24 part 2): the analysis plan locked before a run — its content, what the
// experiment was at that moment (sample, judges, config, the confirmatory comparisons' power), the
// time and a SHA-256 over all of it — and the deviations found since, computed from the store.
// A lock is never edited: a new version supersedes it and says why. Protocol-neutral: comparisons
// are the power plan's ids, judges and items come from the experiment's own description.
import { createHash } from 'node:crypto';
import {
  answersStoredAtLock,
  lockedAfterData,
  type PaperInputs,
  type PreregDeviation,
  type PreregistrationLock,
  type PreregistrationPlan,
  type PreregistrationView,
  type PreregSnapshot,
} from '../../shared/paper/preregistration';
import { DEFAULT_POWER } from '../../shared/stats/power';
import { AppError } from '../base/errors';
import type { z } from 'zod';
import type { InputIssue } from '../../shared/domain';
import type { Refusal } from '../../shared/refusals';
import type { ExperimentConfig } from '../experiments/config';
import { modelsOf, type LoadedExperiment } from '../experiments/load';
import { resultCounts } from '../experiments/results';
import type { Database } from '../store/db';
import { canonicalJson } from '../store/ledger';
import { storedAnswerCount } from '../store/experiments';
import { insertPreregistration, listPreregistrations } from '../store/preregistrations';
import { powerPlan } from './power-plan';
import { lockSha256, readLocks } from './prereg-locks';
import {
  completePlan,
  preregistrationConfigSchema,
  preregistrationPlanSchema,
} from './preregistration-schema';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The config a lock keeps: without the name (a copy may rename it) and the plan itself. */
function plannedConfig(config: ExperimentConfig): Record<string, unknown> {
  const { name: _name, preregistration: _plan, ...rest } = config;
  return rest;
}

export { lockSha256 } from './prereg-locks';

function judgesOf(exp: LoadedExperiment): string[] {
  return modelsOf(exp)
    .filter((m) => m.role === 'judge')
    .map((m) => `${exp.providers[m.provider]?.kind ?? m.provider} / ${m.model}`)
    .filter((j, i, all) => all.indexOf(j) === i)
    .sort();
}

/**
 * Texts a person edited by hand, all or since a time, as the protocol lists them for a study
 * bundle (a protocol without hand edits has none); the protocol's own tables stay its own.
 */
function editedTexts(db: Database, exp: LoadedExperiment, since?: string): number {
  return exp.protocol.bundleEdits?.list(db, exp.view, since).length ?? 0;
}

/** What the experiment is now, measured as a lock measures it. */
function snapshotOf(
  db: Database,
  exp: LoadedExperiment,
  plan: Pick<PreregistrationPlan, 'alpha' | 'confirmatory'>,
): PreregSnapshot {
  const power = powerPlan(db, exp, {}, { alpha: plan.alpha, power: DEFAULT_POWER });
  const byId = new Map((power?.comparisons ?? []).map((c) => [c.id, c]));
  return {
    protocol: exp.protocol.id,
    config: plannedConfig(exp.config),
    items: exp.items.length,
    itemsSha256: sha256(exp.items.map((i) => i.sourceId).join('\n')),
    judges: judgesOf(exp),
    answersAtLock: resultCounts(db, exp.row.id).ok,
    answersStored: storedAnswerCount(db, exp.row.id),
    editedAtLock: editedTexts(db, exp),
    comparisons: plan.confirmatory.flatMap((id) => {
      const c = byId.get(id);
      if (!c) return [];
      return [
        {
          id,
          label: c.label,
          n: c.n,
          unit: c.unit,
          mde: c.mde,
          ...(c.mdeUndefined ? { mdeUndefined: c.mdeUndefined } : {}),
        },
      ];
    }),
  };
}

/** The comparison ids a plan may name: the experiment's power plan's (none: any name is taken). */
function knownComparisons(db: Database, exp: LoadedExperiment): PreregistrationView['comparisons'] {
  return (powerPlan(db, exp)?.comparisons ?? []).map((c) => ({
    id: c.id,
    label: c.label,
    ...(c.labelKey ? { labelKey: c.labelKey } : {}),
    ...(c.labelParams ? { labelParams: c.labelParams } : {}),
  }));
}

/** Where a plan came from, for the errors: the lock form's `plan`, or a config's `preregistration`. */
interface PlanSource {
  file: string;
  field: string;
}

function parsePlan(raw: unknown, { file, field }: PlanSource): PreregistrationPlan {
  const r = preregistrationPlanSchema.safeParse(raw);
  if (r.success) return completePlan(r.data);
  const issues = r.error.issues.map((i): InputIssue => {
    const where = [field, ...i.path.map(String)].join('.');
    const message = i.code === 'unrecognized_keys' ? `unknown key ${i.keys.join(', ')}` : i.message;
    return { file, field: where, message, refusal: planRefusal(i, where, message) };
  });
  throw new AppError('invalid_input', `${issues[0].field}: ${issues[0].message}`, issues).because(
    'prereg.planInvalid',
    { field: issues[0].field!, detail: issues[0].message },
  );
}

/** A plan check's stable key (src/shared/refusals.ts); the rest say what zod said, by field. */
function planRefusal(i: z.core.$ZodIssue, field: string, message: string): Refusal {
  const last = i.path.at(-1);
  if (i.code === 'unrecognized_keys')
    return { key: 'prereg.unknownKey', params: { keys: i.keys.join(', ') } };
  if (i.code === 'custom' && i.path[0] === 'confirmatory')
    return { key: 'prereg.duplicate', params: { id: String(i.params?.id ?? '') } };
  if (i.code === 'custom' && last === 'primary') return { key: 'prereg.primaryNotConfirmatory' };
  if (i.code === 'too_small' && last === 'exclusions') return { key: 'prereg.exclusionsMissing' };
  if (i.code === 'too_small' && last === 'stopping') return { key: 'prereg.stoppingMissing' };
  return { key: 'prereg.planInvalid', params: { field, detail: message } };
}

/**
 * Locks a plan: version 1, or (with a reason) a new version superseding the newest. The plan's
 * comparisons must be the experiment's power plan's, when it has one. Call inside a transaction
 * when the lock goes with other writes.
 */
export function lockPreregistration(
  db: Database,
  exp: LoadedExperiment,
  raw: unknown,
  reason: string | null,
  now: Date = new Date(),
  source: PlanSource = { file: 'plan', field: 'plan' },
): PreregistrationLock {
  const { file, field } = source;
  const plan = parsePlan(raw, source);
  const locks = listPreregistrations(db, exp.row.id);
  const newest = locks.at(-1);
  const why = reason?.trim() || null;
  if (newest && !why)
    throw new AppError(
      'conflict',
      `"${exp.row.name}" has a locked preregistration (version ${newest.version}, ${newest.lockedAt}, SHA-256 ${newest.sha256}): a lock is never edited; state why a new version supersedes it.`,
      [
        {
          file,
          field: 'reason',
          message: 'required to supersede a locked preregistration',
          refusal: { key: 'prereg.reasonRequired' },
        },
      ],
    ).because('prereg.supersedeNeedsReason', {
      experiment: exp.row.name,
      version: newest.version,
      lockedAt: newest.lockedAt,
      sha256: newest.sha256,
    });
  const known = knownComparisons(db, exp);
  if (known.length) {
    const ids = new Set(known.map((c) => c.id));
    plan.confirmatory.forEach((id, i) => {
      if (!ids.has(id))
        throw new AppError(
          'invalid_input',
          `${field}.confirmatory[${i}]: "${id}" is not a comparison of this experiment's power plan (have: ${[...ids].join(', ')})`,
          [
            {
              file,
              field: `${field}.confirmatory[${i}]`,
              message: 'not a comparison of the power plan',
              refusal: { key: 'prereg.notInPowerPlan' },
            },
          ],
        ).because('prereg.unknownComparison', {
          field: `${field}.confirmatory[${i}]`,
          id,
          have: [...ids].join(', '),
        });
    });
  }
  const body = {
    version: (newest?.version ?? 0) + 1,
    plan,
    snapshot: snapshotOf(db, exp, plan),
    reason: newest ? why : null,
    lockedAt: now.toISOString(),
  };
  const lock: PreregistrationLock = { ...body, sha256: lockSha256(exp.row.name, body) };
  insertPreregistration(db, exp.row.id, lock);
  return lock;
}

const FROM_CONFIG: PlanSource = { file: 'config', field: 'preregistration' };

/**
 * The config's `preregistration` at create or update: locked when there is none yet; a changed
 * plan supersedes the newest lock only with `amendment` saying why. `previous`: the
 * `preregistration` of the config stored before this update (what the user changed from).
 */
export function lockFromConfig(db: Database, exp: LoadedExperiment, previous?: unknown): void {
  const raw = exp.config.preregistration;
  if (raw === undefined) return;
  const parsed = preregistrationConfigSchema.parse(raw);
  const { amendment, ...planInput } = parsed;
  const plan = completePlan(planInput);
  const locks = listPreregistrations(db, exp.row.id);
  if (locks.length === 0) {
    lockPreregistration(db, exp, planInput, null, new Date(), FROM_CONFIG);
    return;
  }
  const previousPlan =
    previous === undefined ? null : completePlan(preregistrationConfigSchema.parse(previous));
  const unchanged =
    canonicalJson(plan) === canonicalJson(previousPlan ?? locks.at(-1)!.plan) ||
    canonicalJson(plan) === canonicalJson(locks.at(-1)!.plan);
  if (unchanged) return;
  if (!amendment)
    throw new AppError(
      'conflict',
      `preregistration: "${exp.row.name}" has a locked plan (version ${locks.at(-1)!.version}); a changed plan supersedes it only with "amendment" saying why. Nothing was written.`,
      [
        {
          file: 'config',
          field: 'preregistration.amendment',
          message: 'required to change a locked plan',
          refusal: { key: 'prereg.amendmentRequiredField' },
        },
      ],
    ).because('prereg.amendmentRequired', { experiment: exp.row.name, version: locks.at(-1)!.version });
  lockPreregistration(db, exp, planInput, amendment, new Date(), FROM_CONFIG);
}

const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : 'none');

/** Top-level config keys whose value differs between two configs. */
function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => canonicalJson(a[k] ?? null) !== canonicalJson(b[k] ?? null))
    .sort();
}

/** What changed since the plan was locked, from the stored experiment. */
export function preregDeviations(
  db: Database,
  exp: LoadedExperiment,
  locks: readonly PreregistrationLock[],
): PreregDeviation[] {
  const active = locks.at(-1);
  if (!active) return [];
  const out: PreregDeviation[] = [];
  const add = (kind: PreregDeviation['kind'], text: string, params: PreregDeviation['params']) =>
    out.push({ kind, text, params });
  const late = lockedAfterData(locks);
  if (late)
    add(
      'locked_after_data',
      `Registered after data collection: the plan was locked at ${late.lockedAt}, when ${late.answers} answers were already stored, so its comparisons are not confirmatory.`,
      { at: late.lockedAt, answers: late.answers },
    );
  for (const lock of locks.slice(1))
    add(
      'amended',
      `Version ${lock.version} superseded version ${lock.version - 1} at ${lock.lockedAt} (${answersStoredAtLock(lock)} answers collected by then): ${lock.reason ?? ''}`,
      {
        version: lock.version,
        at: lock.lockedAt,
        answers: answersStoredAtLock(lock),
        reason: lock.reason ?? '',
      },
    );
  const now = snapshotOf(db, exp, active.plan);
  const was = active.snapshot;
  if (now.items !== was.items)
    add('sample_size', `The plan registered ${was.items} items; the experiment uses ${now.items}.`, {
      registered: was.items,
      used: now.items,
    });
  else if (now.itemsSha256 !== was.itemsSha256)
    add('items_changed', `The experiment uses ${now.items} items as registered, but not the same ones.`, {
      items: now.items,
    });
  const added = now.judges.filter((j) => !was.judges.includes(j));
  const removed = was.judges.filter((j) => !now.judges.includes(j));
  if (added.length || removed.length)
    add(
      'judges',
      `The judges differ from the registered ones: added ${list(added)}; removed ${list(removed)}.`,
      { added: added.join(', '), removed: removed.join(', ') },
    );
  const keys = changedKeys(was.config, now.config);
  if (keys.length)
    add('config', `The config changed after the lock: ${keys.join(', ')}.`, { keys: keys.join(', ') });
  if (was.comparisons.length) {
    const known = new Set(knownComparisons(db, exp).map((c) => c.id));
    const missing = active.plan.confirmatory.filter((id) => !known.has(id));
    if (missing.length)
      add(
        'comparison_missing',
        `Registered confirmatory comparisons the experiment no longer makes: ${missing.join(', ')}${missing.includes(active.plan.primary ?? '') ? ' (the primary one among them)' : ''}.`,
        { ids: missing.join(', ') },
      );
  }
  const edited = editedTexts(db, exp, active.lockedAt);
  if (edited > 0)
    add('texts_edited', `${edited} texts were edited by hand after the lock.`, { count: edited });
  const counts = resultCounts(db, exp.row.id);
  if (counts.failed > 0)
    add(
      'answers_missing',
      `${counts.failed} of ${counts.planned} planned answers failed, so the analysed sample is smaller than the registered one.`,
      { failed: counts.failed, planned: counts.planned },
    );
  return out;
}

/** Every lock of an experiment, the one in force and the deviations from it. */
export function preregistrationView(db: Database, exp: LoadedExperiment): PreregistrationView {
  const locks = readLocks(db, exp.row.id, exp.row.name);
  return {
    experimentId: exp.row.id,
    locks,
    active: locks.at(-1) ?? null,
    deviations: preregDeviations(db, exp, locks),
    afterData: lockedAfterData(locks),
    answersStored: storedAnswerCount(db, exp.row.id),
    comparisons: knownComparisons(db, exp),
  };
}

/** What the Methods files and the manifest need beyond the results (see PaperInputs). */
export function paperInputs(db: Database, exp: LoadedExperiment): PaperInputs {
  return { preregistration: preregistrationView(db, exp), power: powerPlan(db, exp) };
}
