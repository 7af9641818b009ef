// Submission records whose batch may or may not exist at the provider, left by a process that
// died between recording the batch and learning its id: the next run looks for the batch, and
// only when the provider lists none (or the record predates nonces) sends its rows again.
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointId } from '../../src/main/providers/config';
import { BatchExecutor } from '../../src/main/queue/batch/executor';
import { createLocalBatch, getBatch } from '../../src/main/store/batches';
import { ensureRequests, getRequest } from '../../src/main/store/ledger';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { fixedKeys, openaiMock, tempDb, verdictSpec, type TempDb } from './helpers';

const KEY = 'sk-test-lost';
let mock: MockProvider;
let t: TempDb;
beforeAll(async () => {
  mock = await startMockProvider({
    apiKey: KEY,
    respond: () => ({ winner: 'A', confidence: 0.8, reason: 'r' }),
  });
});
afterAll(() => mock.close());
beforeEach(() => {
  t = tempDb();
  mock.setBehavior({ batchTurnaroundMs: 30 });
});
afterEach(() => t.cleanup());

/** A pid that no process has now (a child that has exited). */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

/** Three requests claimed by a batch whose submitting process died before it stored an id. */
function leftBehind(cfg: ReturnType<typeof openaiMock>, opts: { nonce: boolean }) {
  const ids = ensureRequests(
    t.db,
    [1, 2, 3].map((i) => ({ endpointId: endpointId(cfg), spec: verdictSpec(i) })),
  );
  const { batch } = createLocalBatch(t.db, {
    provider: 'mock',
    endpoint: endpointId(cfg),
    model: 'mock-model',
    requestIds: ids,
  });
  t.db
    .prepare('UPDATE provider_batches SET owner_pid = ?, nonce = CASE WHEN ? THEN nonce END WHERE id = ?')
    .run(deadPid(), opts.nonce ? 1 : 0, batch!.id);
  return { ids, local: batch!.id };
}

async function runAll(cfg: ReturnType<typeof openaiMock>, ids: number[]) {
  const executor = new BatchExecutor({
    db: t.db,
    providers: { mock: cfg },
    keys: fixedKeys(KEY),
    lostReplyGraceMs: 0,
  });
  return executor.run(ids.map((requestId) => ({ requestId, group: 'g', provider: 'mock' })));
}

describe('a batch left "submitting" by a dead process', () => {
  it('is looked for at the provider; when none is listed its rows are sent in a new batch', async () => {
    const cfg = openaiMock(mock.url, { mode: 'batch', batchPollSeconds: 0.02 });
    const { ids, local } = leftBehind(cfg, { nonce: true });
    const before = mock.batches.created().length;
    const lists = mock.batches.log.filter((e) => e.op === 'list').length;
    const end = await runAll(cfg, ids);
    expect(end.outcome).toBe('finished');
    expect(mock.batches.log.filter((e) => e.op === 'list').length).toBeGreaterThan(lists);
    expect(getBatch(t.db, local)).toMatchObject({
      status: 'failed',
      error: 'not submitted: the provider lists no such batch',
    });
    expect(mock.batches.created().length).toBe(before + 1);
    for (const id of ids) expect(getRequest(t.db, id)!.status).toBe('done');
  });

  it('recorded before batches had a nonce (migration 10): cannot be looked for, counts as not sent', async () => {
    const cfg = openaiMock(mock.url, { mode: 'batch', batchPollSeconds: 0.02 });
    const { ids, local } = leftBehind(cfg, { nonce: false });
    const lists = mock.batches.log.filter((e) => e.op === 'list').length;
    const end = await runAll(cfg, ids);
    expect(end.outcome).toBe('finished');
    expect(mock.batches.log.filter((e) => e.op === 'list').length).toBe(lists);
    expect(getBatch(t.db, local)).toMatchObject({
      status: 'failed',
      error: 'not submitted: the app stopped first',
    });
    for (const id of ids) expect(getRequest(t.db, id)!.status).toBe('done');
  });
});
