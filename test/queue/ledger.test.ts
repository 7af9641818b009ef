import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canonicalJson,
  claimPending,
  claimPendingRequests,
  completeRequests,
  countByStatus,
  ensureRequests,
  getPlanRows,
  getRequest,
  getRequestJson,
  IllegalTransitionError,
  markDone,
  markFailed,
  markInFlight,
  recoverInFlight,
  requestHash,
  resetFailed,
  specFromStored,
} from '../../src/main/store/ledger';
import { openDatabase } from '../../src/main/store/db';
import { tempDb, verdictSpec, type TempDb } from './helpers';

const EP = 'openai:http://127.0.0.1:9/v1';

describe('request ledger', () => {
  let t: TempDb;
  beforeEach(() => (t = tempDb()));
  afterEach(() => t.cleanup());

  it('hashes canonically: key order and the provider name do not matter, content does', () => {
    const a = verdictSpec(1, 'openai');
    const b = {
      ...verdictSpec(1, 'renamed'),
      response: { ...a.response!, schema: { ...a.response!.schema } },
    };
    const reordered = JSON.parse(canonicalJson(a)) as typeof a;
    expect(requestHash(EP, a)).toBe(requestHash(EP, b));
    expect(requestHash(EP, a)).toBe(requestHash(EP, reordered));
    expect(requestHash(EP, a)).not.toBe(requestHash('openai:https://api.openai.com/v1', a));
    expect(requestHash(EP, a)).not.toBe(requestHash(EP, { ...a, temperature: 0.5 }));
    expect(requestHash(EP, a)).not.toBe(requestHash(EP, verdictSpec(2)));
    expect(requestHash(EP, a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ensureRequests inserts once and returns ids in input order, reusing existing rows', () => {
    const ids = ensureRequests(
      t.db,
      [1, 2, 3].map((i) => ({ endpointId: EP, spec: verdictSpec(i) })),
    );
    expect(new Set(ids).size).toBe(3);
    const again = ensureRequests(
      t.db,
      [3, 1, 4].map((i) => ({ endpointId: EP, spec: verdictSpec(i) })),
    );
    expect(again[0]).toBe(ids[2]);
    expect(again[1]).toBe(ids[0]);
    expect(countByStatus(t.db).pending).toBe(4);
    const row = getRequest(t.db, ids[0])!;
    expect(row.endpoint).toBe(EP);
    expect(specFromStored(row.requestJson, 'x')).toEqual({ ...verdictSpec(1), provider: 'x' });
  });

  it('walks pending → in_flight → done and refuses illegal transitions', () => {
    const [id, id2] = ensureRequests(
      t.db,
      [1, 2].map((i) => ({ endpointId: EP, spec: verdictSpec(i) })),
    );
    expect(() => markDone(t.db, id, { text: '{}', json: {} })).toThrow(IllegalTransitionError);
    markInFlight(t.db, [id]);
    expect(() => markInFlight(t.db, [id])).toThrow(/in_flight → in_flight/);
    markDone(t.db, id, {
      text: '{"winner":"A"}',
      json: { winner: 'A' },
      usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2 },
      costUsd: 0.01,
    });
    const row = getRequest(t.db, id)!;
    expect(row).toMatchObject({
      status: 'done',
      attempts: 1,
      responseJson: { winner: 'A' },
      inputTokens: 10,
      cachedTokens: 2,
    });
    expect(() => markFailed(t.db, id, 'x')).toThrow(/done → failed/);
    expect(() => markInFlight(t.db, [id])).toThrow(/done → in_flight/);
    expect(claimPending(t.db, [id, id2])).toEqual([id2]);
    markFailed(t.db, id2, 'unparseable: not JSON', 'garbage');
    expect(getRequest(t.db, id2)).toMatchObject({
      status: 'failed',
      failureReason: 'unparseable: not JSON',
      responseText: 'garbage',
    });
    expect(resetFailed(t.db)).toBe(1);
    expect(getRequest(t.db, id2)).toMatchObject({ status: 'pending', failureReason: null });
  });

  it('claimPendingRequests claims only pending rows, under the lease, and returns their stored requests', () => {
    const [a, b, c] = ensureRequests(
      t.db,
      [1, 2, 3].map((i) => ({ endpointId: EP, spec: verdictSpec(i) })),
    );
    markInFlight(t.db, [b]);
    const lease = { owner: 'run-1', pid: process.pid, host: 'here' };
    const claimed = claimPendingRequests(t.db, [a, b, c, 999], lease, 1000);
    expect([...claimed.keys()]).toEqual([a, c]);
    expect(specFromStored(claimed.get(c)!, 'mock')).toEqual(verdictSpec(3));
    expect(claimed.get(a)).toBe(getRequestJson(t.db, a));
    expect(getRequest(t.db, a)).toMatchObject({
      status: 'in_flight',
      attempts: 1,
      lease: { lease_owner: 'run-1', lease_pid: process.pid, lease_host: 'here' },
    });
    expect(getRequest(t.db, b)).toMatchObject({ attempts: 1, lease: { lease_owner: null } });
    expect(claimPendingRequests(t.db, [a, c], lease).size).toBe(0);
  });

  it('getPlanRows reads status, lane and lease of rows without their texts', () => {
    const [a, b] = ensureRequests(
      t.db,
      [1, 2].map((i) => ({ endpointId: EP, spec: verdictSpec(i) })),
    );
    markInFlight(t.db, [a, b]);
    markDone(t.db, a, { text: '{"winner":"A"}', json: { winner: 'A' } });
    markFailed(t.db, b, 'unparseable: not JSON', 'garbage');
    const rows = getPlanRows(t.db, [b, a, a, 999]);
    expect([...rows.keys()]).toEqual([b, a]);
    expect(rows.get(a)).toEqual({
      id: a,
      endpoint: EP,
      model: 'mock-model',
      status: 'done',
      failureReason: null,
      lease: { lease_owner: null, lease_pid: null, lease_host: null, lease_expires_at: null },
    });
    expect(rows.get(b)).toMatchObject({ status: 'failed', failureReason: 'unparseable: not JSON' });
  });

  it('a failing batch writes nothing', () => {
    const [a, b] = ensureRequests(
      t.db,
      [1, 2].map((i) => ({ endpointId: EP, spec: verdictSpec(i) })),
    );
    markInFlight(t.db, [a]);
    const zero = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
    expect(() =>
      completeRequests(t.db, [
        { id: a, status: 'done', text: '{}', json: {}, usage: zero, costUsd: 0, extraAttempts: 0 },
        { id: b, status: 'done', text: '{}', json: {}, usage: zero, costUsd: 0, extraAttempts: 0 },
      ]),
    ).toThrow(IllegalTransitionError);
    expect(getRequest(t.db, a)!.status).toBe('in_flight');
  });

  it('recoverInFlight puts rows in flight at a crash back to pending, on a reopened file', () => {
    const ids = ensureRequests(
      t.db,
      [1, 2, 3].map((i) => ({ endpointId: EP, spec: verdictSpec(i) })),
    );
    markInFlight(t.db, ids);
    markDone(t.db, ids[0], { text: '{}', json: {} });
    t.db.close();
    const db = openDatabase(t.file);
    expect(recoverInFlight(db)).toHaveLength(2);
    expect(countByStatus(db)).toEqual({ pending: 2, in_flight: 0, done: 1, failed: 0 });
    db.close();
  });
});
