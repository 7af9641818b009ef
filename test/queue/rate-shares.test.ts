// The store side of one budget per model across processes: shares per lane, renewed, expiring,
// freed at once when their process is dead, lingering briefly when given back.
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenBucket } from '../../src/main/queue/token-bucket';
import {
  dropShares,
  holdShares,
  releaseShares,
  SHARE_GRACE_MS,
  SHARE_MS,
  shareCounts,
} from '../../src/main/store/rate-shares';
import { tempDb, type TempDb } from './helpers';

let t: TempDb;
beforeEach(() => (t = tempDb()));
afterEach(() => t.cleanup());

const me = (owner: string) => ({ owner, pid: process.pid, host: hostname() });

describe('rate shares in the store', () => {
  it('counts the live holders of each lane; a lane nobody holds counts one', () => {
    holdShares(t.db, me('a'), ['L1', 'L2'], 1000);
    holdShares(t.db, me('b'), ['L1'], 1000);
    expect(Object.fromEntries(shareCounts(t.db, ['L1', 'L2', 'L3'], 1500))).toEqual({ L1: 2, L2: 1, L3: 1 });
  });

  it('a share not renewed expires; a dead process on this host frees its share at once', () => {
    holdShares(t.db, me('a'), ['L'], 1000);
    holdShares(t.db, { owner: 'crashed', pid: 4194000, host: me('x').host }, ['L'], 1000);
    expect(shareCounts(t.db, ['L'], 1500).get('L')).toBe(1);
    holdShares(t.db, { owner: 'other-host', pid: 1, host: 'elsewhere' }, ['L'], 1000);
    expect(shareCounts(t.db, ['L'], 1500).get('L')).toBe(2);
    expect(shareCounts(t.db, ['L'], 1000 + SHARE_MS + 1).get('L')).toBe(1);
  });

  it('a share given back lingers for the grace period, then is gone', () => {
    const now = Date.now();
    holdShares(t.db, me('a'), ['L'], now);
    holdShares(t.db, me('b'), ['L', 'M'], now);
    releaseShares(t.db, me('a'), now);
    dropShares(t.db, me('b'), ['M'], now);
    expect(shareCounts(t.db, ['L', 'M'], now + SHARE_GRACE_MS - 1).get('L')).toBe(2);
    expect(Object.fromEntries(shareCounts(t.db, ['L', 'M'], now + SHARE_GRACE_MS + 1))).toEqual({
      L: 1,
      M: 1,
    });
  });

  it('a bucket at half share refills at half the rate and holds half the burst', () => {
    const b = new TokenBucket(600, 10, 0);
    b.setShare(0.5, 0);
    expect(b.tokens(0)).toBe(5);
    b.tryTake(5, 0);
    // 600/min = 10/s; half: 5/s.
    expect(b.waitMs(5, 0)).toBe(1000);
    b.setShare(1, 1000);
    expect(b.tokens(1000)).toBe(5);
    expect(b.tokens(1500)).toBe(10);
  });
});
