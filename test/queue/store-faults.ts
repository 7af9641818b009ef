// A fault at the store's seam: the real better-sqlite3 Database, whose transactions throw
// SQLITE_FULL (as a full disk makes them) while `state.fail` > 0, or for good once `state.after`
// transactions went through. Everything else is the real connection.
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from '../../src/main/store/db';

export interface FaultState {
  /** The next this many transactions fail. */
  fail: number;
  /** After this many transactions went through, every later one fails (Infinity: never). */
  after: number;
  /** Every transaction fails once this says so (another process's signal, say). */
  failIf?: () => boolean;
  /** Transactions that went through, and that failed. */
  passed: number;
  failed: number;
}

export function faultState(init: Partial<FaultState> = {}): FaultState {
  return { fail: 0, after: Infinity, passed: 0, failed: 0, ...init };
}

export function faultyDatabase(db: Database, state: FaultState): Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction')
        return (fn: (...args: unknown[]) => unknown) => {
          const tx = target.transaction(fn);
          const guard =
            (run: (...args: unknown[]) => unknown) =>
            (...args: unknown[]) => {
              // Nested transactions (savepoints) are part of their outer one.
              if (
                !target.inTransaction &&
                (state.fail > 0 || state.passed >= state.after || state.failIf?.())
              ) {
                if (state.fail > 0) state.fail--;
                state.failed++;
                throw new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL');
              }
              const out = run(...args);
              if (!target.inTransaction) state.passed++;
              return out;
            };
          return Object.assign(guard(tx), {
            deferred: guard(tx.deferred),
            immediate: guard(tx.immediate),
            exclusive: guard(tx.exclusive),
          });
        };
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
