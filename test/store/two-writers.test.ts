// Two processes on one store (the app, `judge-lab serve`, a CLI run): a transaction that reads
// and then writes must not fail because the other committed in between. SQLite cannot upgrade a
// stale read snapshot to a write ("database is locked" at once, whatever the busy timeout), so
// the store's transactions take the write lock first.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/main/store/db';
import { tempDir } from '../helpers/tmp';

let open: Database[] = [];
let cleanup: (() => void) | undefined;
afterEach(() => {
  open.forEach((d) => d.close());
  open = [];
  cleanup?.();
});

describe('store transactions with a second writer', () => {
  it('a read-then-write transaction completes although another connection wants to write in between', () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'store.sqlite');
    const a = openDatabase(file);
    const b = openDatabase(file);
    open = [a, b];
    a.exec('CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL)');
    a.prepare("INSERT INTO counters VALUES ('runs', 0)").run();
    b.pragma('busy_timeout = 0'); // the other writer does not wait: what it meets shows at once

    const bump = a.transaction(() => {
      const n = a.prepare("SELECT n FROM counters WHERE name = 'runs'").pluck().get() as number;
      // The other process tries to write between our read and our write.
      expect(() => b.prepare("UPDATE counters SET n = n + 100 WHERE name = 'runs'").run()).toThrow(
        /database is locked/,
      );
      a.prepare("UPDATE counters SET n = ? WHERE name = 'runs'").run(n + 1);
    });
    expect(() => bump()).not.toThrow();
    expect(a.prepare("SELECT n FROM counters WHERE name = 'runs'").pluck().get()).toBe(1);
    // Once our transaction committed, the other writer goes through.
    b.prepare("UPDATE counters SET n = n + 100 WHERE name = 'runs'").run();
    expect(a.prepare("SELECT n FROM counters WHERE name = 'runs'").pluck().get()).toBe(101);
  });
});
