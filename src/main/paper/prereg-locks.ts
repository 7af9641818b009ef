// Reading preregistration locks with their hash checked (issue 40 item 5). A lock's SHA-256 is
// taken when it is locked; a row changed in the file afterwards (the table's trigger refuses an
// UPDATE through the app, not a hand-edited file) no longer matches it. Every read here
// recomputes the hash, marks such a lock `tampered`, and the doors say so: the preregistration
// document and command, the export and the bundle refuse, `doctor` lists it. Kept apart from
// preregistration.ts, which locks plans and finds deviations.
import { createHash } from 'node:crypto';
import type { PreregistrationLock, PreregistrationView } from '../../shared/paper/preregistration';
import { AppError } from '../base/errors';
import type { Database } from '../store/db';
import { canonicalJson } from '../store/ledger';
import { listPreregistrations } from '../store/preregistrations';

/** The SHA-256 a lock carries: over the experiment's name and everything the lock says. */
export function lockSha256(experimentName: string, lock: Omit<PreregistrationLock, 'sha256'>): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        experiment: experimentName,
        version: lock.version,
        plan: lock.plan,
        snapshot: lock.snapshot,
        reason: lock.reason,
        lockedAt: lock.lockedAt,
      }),
      'utf8',
    )
    .digest('hex');
}

/** Every lock of an experiment, oldest first, each whose content no longer hashes to its SHA-256 marked. */
export function readLocks(db: Database, experimentId: number, experimentName: string): PreregistrationLock[] {
  return listPreregistrations(db, experimentId).map((l) =>
    lockSha256(experimentName, l) === l.sha256 ? l : { ...l, tampered: true as const },
  );
}

/** What is wrong, in one sentence naming the versions, or null when every lock is intact. */
export function tamperedText(experimentName: string, locks: readonly PreregistrationLock[]): string | null {
  const bad = locks.filter((l) => l.tampered);
  if (!bad.length) return null;
  return (
    `TAMPERED: preregistration lock ${bad.map((l) => `version ${l.version}`).join(', ')} of experiment "${experimentName}" ` +
    `no longer matches ${bad.length === 1 ? 'its' : 'their'} stored SHA-256: the plan, snapshot, reason or time was changed after locking. ` +
    'It cannot be relied on as a preregistration; restore the store from a backup made before the change (judge-lab restore).'
  );
}

/** Refuses `what` (an export, a bundle) on an experiment with a tampered lock. */
export function refuseTampered(
  experimentName: string,
  locks: readonly PreregistrationLock[],
  what: string,
): void {
  const text = tamperedText(experimentName, locks);
  if (text)
    throw new AppError('conflict', `${what} refused. ${text}`, [
      {
        file: 'store',
        field: 'preregistrations',
        message: `tampered lock: version ${locks
          .filter((l) => l.tampered)
          .map((l) => l.version)
          .join(', ')}`,
      },
    ]);
}

/** The banner the preregistration document starts with when a lock is tampered (EN/中文). */
export function tamperedBanner(view: PreregistrationView, lang: 'en' | 'zh'): string {
  const bad = view.locks.filter((l) => l.tampered).map((l) => l.version);
  if (!bad.length) return '';
  return lang === 'en'
    ? `> **TAMPERED:** lock version ${bad.join(', ')} no longer matches its stored SHA-256; it was changed after locking and cannot be relied on as a preregistration.\n\n`
    : `> **已被篡改：** 第 ${bad.join('、')} 版锁定内容与其存储的 SHA-256 不符；锁定后曾被修改，不能作为预注册依据。\n\n`;
}

/** Every tampered lock of the store, one line each, for `judge-lab doctor`. */
export function tamperedLocksInStore(db: Database): string[] {
  const experiments = db
    .prepare(
      'SELECT DISTINCT e.id, e.name FROM experiments e JOIN preregistrations p ON p.experiment_id = e.id',
    )
    .all() as { id: number; name: string }[];
  return experiments.flatMap((e) => {
    const text = tamperedText(e.name, readLocks(db, e.id, e.name));
    return text ? [text] : [];
  });
}
