import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { RequestEngine } from '../../src/main/queue/engine';
import { countByStatus, ensureRequests, getRequest } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { fixedKeys, openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

// The engine keeps a study's requests in the ledger, not in memory: a request is read with its
// claim and let go once its answer is stored. A run of 20,000 judge prompts of a few KB each
// would otherwise hold them all (and the V8 heap it grows from them) until its end.

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const KEY = 'sk-test-memory';
const CALLS = 600;
const PROMPT_CHARS = 50_000;
const MB = 1024 * 1024;

let mock: MockProvider;
let t: TempDb;
beforeEach(async () => {
  t = tempDb();
  mock = await startMockProvider({ apiKey: KEY, logBodies: false });
});
afterEach(() => {
  mock.close();
  t.cleanup();
});

describe('engine memory', () => {
  it('holds only the requests on the wire: 30 MB of stored prompts do not stay in memory during a run', async () => {
    const providers = { mock: openaiMock(mock.url, { concurrency: 8 }) };
    const ep = endpointId(providers.mock);
    const pad = 'x'.repeat(PROMPT_CHARS);
    const ids = ensureRequests(
      t.db,
      Array.from({ length: CALLS }, (_, i) => {
        const spec = verdictSpec(i);
        // The long part is an earlier turn: the in-process mock logs each request's last user turn.
        spec.messages = [
          { role: 'user', content: `Context of item ${i}: ${pad}` },
          { role: 'assistant', content: 'Noted.' },
          ...spec.messages,
        ];
        return { endpointId: ep, spec };
      }),
    );
    const engine = new RequestEngine({ db: t.db, providers, keys: fixedKeys(KEY), progressIntervalMs: 1000 });
    const before = heapAfterGc();
    let committed = 0;
    let during = 0;
    // Measured once most answers are stored and the last calls are still to go.
    engine.on('committed', ({ ids: done }) => {
      committed += done.length;
      if (!during && committed >= CALLS - 50) during = heapAfterGc();
    });
    const summary = await engine.run(ids.map((requestId) => ({ requestId, group: 'g' })));
    expect(summary.outcome).toBe('finished');
    expect(countByStatus(t.db).done).toBe(CALLS);
    expect(during).toBeGreaterThan(0);
    // The prompts sum to CALLS × PROMPT_CHARS = 30 MB; the calls on the wire hold 8 of them.
    expect((during - before) / MB).toBeLessThan(8);
    // Every call was sent in full, read back from the ledger with its claim.
    expect(mock.log.filter((e) => e.status === 200)).toHaveLength(CALLS);
    expect(getRequest(t.db, ids[CALLS - 1])?.status).toBe('done');
  });
});
