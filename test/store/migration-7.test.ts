// Migration 7 (provider batches) on a real file holding ledger rows from version 5, and the
// batch claim it supports: rows in a batch are held by the batch, not by a process.
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  abandonedSubmit,
  createLocalBatch,
  heldRequests,
  openBatches,
  releaseHeld,
  setRemoteId,
} from '../../src/main/store/batches';
import { leaseHeld } from '../../src/main/store/leases';
import { getRequests, recoverInFlight } from '../../src/main/store/ledger';
import { migrate } from '../../src/main/store/migrations';
import { storeAtVersion } from '../helpers/store-at-version';

let cleanup: () => void = () => {};
afterEach(() => cleanup());

function storeAtVersion5(): BetterSqlite3.Database {
  const store = storeAtVersion(5);
  cleanup = store.cleanup;
  const db = store.db;
  const ins = db.prepare(
    `INSERT INTO requests (id, hash, endpoint, model, request_json, status, cached_tokens) VALUES (?, ?, 'openai:x', 'm', '{}', ?, ?)`,
  );
  ins.run(1, 'h1', 'done', 5);
  ins.run(2, 'h2', 'pending', null);
  ins.run(3, 'h3', 'pending', null);
  ins.run(4, 'h4', 'in_flight', null);
  return db;
}

describe('migration 7: provider batches', () => {
  it('keeps every ledger row as it was and adds the batch and cache-write columns empty', () => {
    const db = storeAtVersion5();
    expect(migrate(db)).toContain(7);
    const rows = db
      .prepare(
        'SELECT id, status, cached_tokens, batch_id, batch_custom_id, cache_write_tokens FROM requests ORDER BY id',
      )
      .all();
    expect(rows).toEqual([
      {
        id: 1,
        status: 'done',
        cached_tokens: 5,
        batch_id: null,
        batch_custom_id: null,
        cache_write_tokens: null,
      },
      {
        id: 2,
        status: 'pending',
        cached_tokens: null,
        batch_id: null,
        batch_custom_id: null,
        cache_write_tokens: null,
      },
      {
        id: 3,
        status: 'pending',
        cached_tokens: null,
        batch_id: null,
        batch_custom_id: null,
        cache_write_tokens: null,
      },
      {
        id: 4,
        status: 'in_flight',
        cached_tokens: null,
        batch_id: null,
        batch_custom_id: null,
        cache_write_tokens: null,
      },
    ]);
    expect(() =>
      db
        .prepare(
          `INSERT INTO provider_batches (provider, endpoint, model, request_count, status) VALUES ('o','e','m',1,'lost')`,
        )
        .run(),
    ).toThrow(/CHECK/);
  });

  it('a batch claims only pending rows, records their custom ids, and holds them past any process', () => {
    const db = storeAtVersion5();
    migrate(db);
    const { batch, claimed } = createLocalBatch(db, {
      provider: 'o',
      endpoint: 'openai:x',
      model: 'm',
      requestIds: [1, 2, 3, 4],
    });
    expect(claimed).toEqual([2, 3]);
    expect(batch?.status).toBe('submitting');
    // Each custom id carries the batch's random nonce (migration 10).
    expect(batch!.nonce).toMatch(/^[0-9a-f]{12}$/);
    expect(heldRequests(db, batch!.id).map((r) => [r.id, r.customId])).toEqual([
      [2, `r2_${batch!.nonce}`],
      [3, `r3_${batch!.nonce}`],
    ]);
    const rows = getRequests(db, [2, 3]);
    for (const r of rows.values()) {
      expect(r.status).toBe('in_flight');
      expect(r.attempts).toBe(1);
      expect(leaseHeld(r.lease, Date.now())).toBe(true);
    }
    // Recovery of crashed runs leaves batch rows alone: the provider still holds them.
    expect(recoverInFlight(db)).toEqual([4]);
    expect(getRequests(db, [2]).get(2)?.status).toBe('in_flight');
    // Submitted by this (live) process: not abandoned; open until its results are read.
    expect(abandonedSubmit(batch!)).toBe(false);
    setRemoteId(db, batch!.id, 'batch_abc');
    expect(openBatches(db).map((b) => [b.remoteId, b.status])).toEqual([['batch_abc', 'open']]);
    expect(releaseHeld(db, batch!.id, [3])).toEqual([3]);
    expect(getRequests(db, [3]).get(3)?.status).toBe('pending');
    expect(heldRequests(db, batch!.id).map((r) => r.id)).toEqual([2]);
  });

  it('a batch left "submitting" by a dead process counts as never sent', () => {
    const db = storeAtVersion5();
    migrate(db);
    const { batch } = createLocalBatch(db, {
      provider: 'o',
      endpoint: 'openai:x',
      model: 'm',
      requestIds: [2],
    });
    // A pid that is not running (pids are below 2^22 on Linux).
    db.prepare('UPDATE provider_batches SET owner_pid = 4194000 WHERE id = ?').run(batch!.id);
    const [left] = openBatches(db);
    expect(abandonedSubmit(left)).toBe(true);
  });
});
