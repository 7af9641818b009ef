// Issue 15 item 4: a judge whose first answers are mostly unusable is paused on its own while
// the other judges go on; its failed answers (raw text) and the partial results are there to
// look at, and "Resume this judge" sends the rest once the cause is fixed.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/store/db';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const BROKEN_MODEL = 'claude-haiku-4-5';

function config(env: LlmbarMock, extra: Record<string, unknown> = {}) {
  return {
    name: 'early warning',
    protocol: 'judge-ls',
    dataset: env.datasetId,
    limit: 8,
    maxParseRetries: 0,
    providers: { o: { kind: 'openai', baseURL: `${env.mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
    transform: { provider: 'o', model: 'gpt-4.1-mini' },
    judges: [
      { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' },
      { label: 'Broken', provider: 'o', model: BROKEN_MODEL, concurrency: 2 },
    ],
    ...extra,
  };
}

describe('early warning on unusable answers', () => {
  it('pauses only the judge whose first answers are mostly unusable, shows its raw answers, and resumes it', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock } = env;
    mock.setBehavior({ faultFor: (req) => (req.model === BROKEN_MODEL ? 'malformed' : undefined) });
    const { id } = await core.call('experiments.create', { config: config(env) });

    const stopped = await core.experiments.runToEnd(id);
    expect(stopped.status).toBe('paused');
    expect(stopped.pausedLanes).toEqual([
      expect.objectContaining({ model: BROKEN_MODEL, kind: 'early_warning', label: 'Broken' }),
    ]);
    expect(stopped.message).toMatch(/Broken: 11 of its first 11 answers could not be used/);
    // The page reads progress again after the run stopped: the paused judge is still there.
    const later = await core.call('experiments.progress', { experimentId: id });
    expect(later.pausedLanes).toEqual(stopped.pausedLanes);
    expect(later.message).toBe(stopped.message);
    // A dozen calls paid for the broken prompt, not the judge's whole share.
    const brokenCalls = mock.log.filter((e) => e.model === BROKEN_MODEL).length;
    expect(brokenCalls).toBeGreaterThanOrEqual(11);
    expect(brokenCalls).toBeLessThanOrEqual(13);
    // The other judge went on to the end, through the later rounds (ZH, LS verdicts).
    const gpt = stopped.judges.GPT;
    expect(gpt.done + gpt.failed).toBe(gpt.total);
    expect(gpt.total).toBeGreaterThan(16);
    expect(stopped.judges.Broken.pending).toBeGreaterThan(0);

    // What to look at before resuming: the raw answers of the failed verdicts, partial results.
    const { rows } = await core.call('experiments.failures', { experimentId: id });
    const broken = rows.filter((r) => r.judge === 'Broken');
    expect(broken.length).toBe(brokenCalls);
    expect(broken.every((r) => r.reason.startsWith('unparseable') && (r.rawText ?? '').length > 0)).toBe(
      true,
    );
    const results = await core.call('experiments.results', { experimentId: id });
    expect(results.counts.ok).toBeGreaterThanOrEqual(gpt.done);
    expect(results.counts.pending).toBeGreaterThan(0);

    // The cause is fixed: resuming this judge sends the rest, and it is not paused again.
    mock.setBehavior({ faultFor: undefined });
    expect((await core.call('experiments.resumeJudge', { experimentId: id, judge: 'Broken' })).status).toBe(
      'running',
    );
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    expect(end.pausedLanes).toEqual([]);
    expect(end.judges.Broken.pending).toBe(0);
    expect(end.judges.Broken.done).toBe(end.judges.Broken.total - broken.length);
  });

  it('resumes a paused judge inside the live run while the others still go', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock } = env;
    mock.setBehavior({
      faultFor: (req) => (req.model === BROKEN_MODEL ? 'malformed' : undefined),
      latencyMs: [40, 60],
    });
    // Slow answers, one at a time, keep the run live (the other judge still going, ~3 s of its
    // calls left) when the warning comes, however loaded the machine is.
    const { id } = await core.call('experiments.create', {
      config: config(env, {
        judges: [
          { label: 'GPT', provider: 'o', model: 'gpt-4.1-mini', concurrency: 1 },
          { label: 'Broken', provider: 'o', model: BROKEN_MODEL, concurrency: 2 },
        ],
      }),
    });
    await core.call('experiments.start', { experimentId: id });
    await expect
      .poll(async () => (await core.call('experiments.progress', { experimentId: id })).pausedLanes.length, {
        timeout: 20_000,
      })
      .toBe(1);
    const live = await core.call('experiments.progress', { experimentId: id });
    expect(live.status).toBe('running');
    mock.setBehavior({ faultFor: undefined });
    const resumed = await core.call('experiments.resumeJudge', { experimentId: id, judge: 'Broken' });
    expect(resumed.status).toBe('running');
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    expect(end.judges.Broken.pending).toBe(0);
  });

  it('can be turned off (earlyWarningAnswers: 0): every verdict of the broken judge is tried', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock } = env;
    mock.setBehavior({ faultFor: (req) => (req.model === BROKEN_MODEL ? 'malformed' : undefined) });
    const { id } = await core.call('experiments.create', { config: config(env, { earlyWarningAnswers: 0 }) });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    expect(end.pausedLanes).toEqual([]);
    expect(end.judges.Broken.failed).toBe(end.judges.Broken.total);
  });

  it('refuses to resume a judge the experiment does not have', async () => {
    env = await startLlmbarMock('cli');
    const { id } = await env.core.call('experiments.create', { config: config(env) });
    await expect(
      env.core.call('experiments.resumeJudge', { experimentId: id, judge: 'Nobody' }),
    ).rejects.toThrow(/No judge "Nobody"/);
  });

  it('counts a judge\'s stored answers first: "Retry failed" of a few unusable answers is no false alarm', async () => {
    // Issue 20 item 7: after retrying 7 unparseable answers the judge was paused ("11 of its
    // first 11 answers") although it had given dozens of good ones before.
    env = await startLlmbarMock('cli');
    const { core, mock, dataDir } = env;
    const { id } = await core.call('experiments.create', { config: config(env, { maxParseRetries: 2 }) });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');

    // The state an earlier run leaves when 7 of the judge's answers could not be used (their
    // rows failed "unparseable", no result stored); the model still answers those 7 so.
    const db = openDatabase(join(dataDir, 'judge-lab.sqlite'));
    const rows = db
      .prepare(
        `SELECT r.id, r.request_json FROM requests r JOIN experiment_tasks t ON t.request_id = r.id
         WHERE t.experiment_id = ? AND r.model = ? AND r.status = 'done' ORDER BY r.id`,
      )
      .all(id, BROKEN_MODEL) as { id: number; request_json: string }[];
    const good = rows.length - 7;
    expect(good).toBeGreaterThan(20);
    const bad = rows.slice(0, 7);
    const badUser = new Set(
      bad.map((r) => {
        const msgs = (JSON.parse(r.request_json) as { messages: { role: string; content: string }[] })
          .messages;
        return msgs.filter((m) => m.role === 'user').at(-1)!.content;
      }),
    );
    for (const r of bad) {
      db.prepare(
        `UPDATE requests SET status = 'failed', failure_reason = 'unparseable: not JSON (asked 3 times)',
           response_json = NULL WHERE id = ?`,
      ).run(r.id);
      db.prepare('DELETE FROM task_results WHERE experiment_id = ? AND request_id = ?').run(id, r.id);
    }
    db.close();
    mock.setBehavior({
      faultFor: (req) => (req.model === BROKEN_MODEL && badUser.has(req.lastUser) ? 'malformed' : undefined),
    });
    const sentBefore = mock.log.length;

    await core.call('experiments.retryFailed', { experimentId: id });
    const end = await core.experiments.runToEnd(id);
    expect(end.message ?? '').not.toMatch(/could not be used/);
    expect(end.pausedLanes).toEqual([]);
    expect(end.status).toBe('finished');
    // Each of the 7 was asked again, with its re-asks (maxParseRetries 2), and failed on its own.
    expect(mock.log.length - sentBefore).toBe(7 * 3);
    expect(end.judges.Broken.failed).toBe(7);
    expect(end.judges.Broken.done).toBe(good);
  });
});
