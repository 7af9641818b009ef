// Run control: start, pause, resume, cancel, retry failed, progress, and the orderly stop
// when the app or the CLI goes away. One live run per experiment in this process; runs
// that share an endpoint and model send at once and split its rate limit (store/rate-shares.ts).
import type { ExperimentProgress, ExperimentStatus } from '../../shared/experiments';
import { AppError } from '../base/errors';
import { RunLocks } from '../store/run-locks';
import type { Database } from '../store/db';
import { getExperiment, markInterruptedRuns, setExperimentStatus, tasksOf } from '../store/experiments';
import { getRequests, recoverInFlight, resetFailed } from '../store/ledger';
import { batchesOfExperiment, experimentsWithOpenBatches } from '../store/batches';
import { assertRunnable, loadExperiment, modelsOf } from './load';
import { EARLY_WARNING } from '../queue/engine';
import { ExperimentRun, idleProgress } from './runner';
import type { ServiceOptions } from './service-options';
import { cutOffReadsOf, failedRunMessage } from './run-outcome';
import { shownStatus, unsentMessage } from './unsent';

export class RunControl {
  private readonly runs = new Map<number, ExperimentRun>();
  private readonly locks: RunLocks;
  /** Experiments kept locked past their run (keepLocked). */
  private readonly kept: number[] = [];
  /** Judges the person resumed after an early warning, per experiment: not watched again. */
  private readonly trusted = new Map<number, Set<string>>();
  /** Judges a stopped run left paused by the early warning, shown until the next run starts. */
  private readonly held = new Map<
    number,
    { lanes: ExperimentProgress['pausedLanes']; message: string | null }
  >();

  constructor(private readonly opts: ServiceOptions) {
    this.locks = new RunLocks(opts.dataDir);
    // A crash or quit left calls "in flight": they were never answered (or the answer was
    // lost with the process), so they go back to pending and their runs show as paused.
    // Calls another live process is sending keep their lease (store/leases.ts).
    // A store open read-only (one a newer release made) is only read: its repair waits.
    if (opts.db.readonly) return;
    const busy = this.locks.heldElsewhere();
    recoverInFlight(opts.db);
    markInterruptedRuns(opts.db, busy);
  }

  private get db(): Database {
    return this.opts.db;
  }

  statusOf(id: number): ExperimentStatus | undefined {
    return this.runs.get(id)?.snapshot().status;
  }

  isRunning(id: number): boolean {
    return this.runs.has(id);
  }

  start(id: number): ExperimentProgress {
    const current = this.runs.get(id);
    if (current) return current.snapshot();
    // Loading checks the experiment exists and its config is sound before anything starts.
    assertRunnable(loadExperiment(this.db, id));
    this.locks.acquire(id);
    // Runs that share an endpoint and model go at once: each engine holds a share of the
    // model's budget in the store and takes 1/n of its limits, as runs in other processes do.
    let run: ExperimentRun;
    try {
      run = new ExperimentRun(
        {
          db: this.db,
          keys: this.opts.keys,
          engine: this.opts.engine,
          trusted: this.trustedOf(id),
          onProgress: (p) => this.opts.emit('run.progress', p),
        },
        id,
      );
    } catch (err) {
      this.locks.release(id);
      throw err;
    }
    this.runs.set(id, run);
    this.held.delete(id);
    void run.done.then((last) => {
      const lanes = last.pausedLanes.filter((l) => l.kind === EARLY_WARNING);
      if (last.status === 'paused' && lanes.length) this.held.set(id, { lanes, message: last.message });
      this.runs.delete(id);
      this.locks.release(id);
      this.opts.emit('experiments.changed', { experimentId: id });
    });
    run.start();
    return run.snapshot();
  }

  /**
   * Runs the experiment to its end (the CLI's `run`). `resumeJudges`: judges an early warning
   * paused in an earlier run go on, unwatched (a new process has no memory of "Resume this
   * judge", so without them the rerun pauses the judge again on its stored answers).
   */
  async runToEnd(id: number, resumeJudges: readonly string[] = []): Promise<ExperimentProgress> {
    for (const judge of resumeJudges) this.trust(id, judge);
    this.start(id);
    const run = this.runs.get(id);
    // A run started already ("Retry failed"): the judges go on in it too.
    for (const judge of resumeJudges) run?.resumeJudge(judge);
    return run?.done ?? this.progress(id);
  }

  /** The judge is no longer watched by the early warning in this experiment's runs here. */
  private trust(id: number, judge: string): void {
    const exp = loadExperiment(this.db, id);
    if (!modelsOf(exp).some((m) => m.role === 'judge' && m.label === judge))
      throw new AppError('not_found', `No judge "${judge}" in experiment ${id}.`);
    this.trustedOf(id).add(judge);
  }

  /** One set per experiment, made before its run: a run reads it while it goes. */
  private trustedOf(id: number): Set<string> {
    let trusted = this.trusted.get(id);
    if (!trusted) this.trusted.set(id, (trusted = new Set()));
    return trusted;
  }

  pause(id: number): ExperimentProgress {
    const run = this.runs.get(id);
    if (!run) return this.progress(id);
    run.pause();
    return run.snapshot();
  }

  resume(id: number): ExperimentProgress {
    const run = this.runs.get(id);
    if (run) {
      run.resume();
      return run.snapshot();
    }
    // After a restart there is no live run: resuming starts one, which only sends what is missing.
    return this.start(id);
  }

  /**
   * A judge the early warning paused goes on: in the live run at once; after the run stopped
   * (only paused judges were left), a new run sends what is missing.
   */
  resumeJudge(id: number, judge: string): ExperimentProgress {
    this.trust(id, judge);
    const run = this.runs.get(id);
    if (!run) return this.start(id);
    run.resumeJudge(judge);
    return run.snapshot();
  }

  async cancel(id: number): Promise<ExperimentProgress> {
    const run = this.runs.get(id);
    if (!run) return this.progress(id);
    await run.cancel();
    return run.done;
  }

  retryFailed(id: number): ExperimentProgress {
    if (this.runs.has(id))
      throw new AppError('conflict', 'The run is still going; retry failed calls when it ends.');
    // Refused before anything is reset: a config that cannot run leaves its failures as they are.
    assertRunnable(loadExperiment(this.db, id));
    // Take the experiment first: another process running it keeps its failed calls.
    this.locks.acquire(id);
    try {
      const ids = tasksOf(this.db, id).map((t) => t.requestId);
      resetFailed(this.db, ids);
      return this.start(id);
    } finally {
      this.locks.release(id); // the run holds its own
    }
  }

  /**
   * Keeps the experiment locked by this process until `releaseKept` (the CLI's `run`: through
   * the export after the run, until the store is closed), so a restore waits for all of it.
   */
  keepLocked(id: number): void {
    this.locks.acquire(id);
    this.kept.push(id);
  }

  releaseKept(): void {
    for (const id of this.kept.splice(0)) this.locks.release(id);
  }

  /**
   * Runs `work` (an export) with the experiment locked, so a restore does not move the store
   * from under it. When another process runs the experiment, its lock already holds it.
   */
  async whileLocked<T>(id: number, work: () => Promise<T>): Promise<T> {
    let held = false;
    try {
      this.locks.acquire(id);
      held = true;
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'conflict')) throw err;
    }
    try {
      return await work();
    } finally {
      if (held) this.locks.release(id);
    }
  }

  /** Live progress, or the state stored in the ledger when nothing runs. */
  progress(id: number): ExperimentProgress {
    const run = this.runs.get(id);
    if (run) return run.snapshot();
    const exp = loadExperiment(this.db, id);
    const p = idleProgress(id, exp.row.status);
    p.stages = exp.protocol.stages.map((s) => s.name);
    // Judges in config order, as the wizard and the dashboard list them.
    for (const m of modelsOf(exp)) if (m.role === 'judge') p.judges[m.label] = emptyCounts();
    const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
    const tasks = tasksOf(this.db, id);
    const rows = getRequests(
      this.db,
      tasks.map((t) => t.requestId),
    );
    const counted = new Set<number>();
    // Counts are of ledger requests, as the failures and the ledger count them: two tasks of one
    // stage that ask the very same request (a text equal to its variant) count once.
    const seen = new Set<string>();
    for (const t of tasks) {
      const row = rows.get(t.requestId);
      const status = row?.status ?? 'pending';
      const stage = stages.get(t.stage);
      const target: ReturnType<typeof emptyCounts>[] = [];
      if (!seen.has(`${t.stage}\u0000${t.requestId}`)) target.push((p.phases[t.stage] ??= emptyCounts()));
      seen.add(`${t.stage}\u0000${t.requestId}`);
      const who = stage?.describe(t);
      if (who?.role === 'judge' && !seen.has(`judge\u0000${who.label}\u0000${t.requestId}`)) {
        target.push((p.judges[who.label] ??= emptyCounts()));
        seen.add(`judge\u0000${who.label}\u0000${t.requestId}`);
      }
      for (const g of target) {
        g.total++;
        if (status === 'done') g.done++;
        else if (status === 'failed') g.failed++;
        else g.pending++;
      }
      // Spend and tokens as stored in the ledger, each request once.
      if (!row || counted.has(row.id)) continue;
      counted.add(row.id);
      p.tokens.input += row.inputTokens ?? 0;
      p.tokens.output += row.outputTokens ?? 0;
      p.tokens.cached += row.cachedTokens ?? 0;
      p.costUsd += row.costUsd ?? 0;
      if (status === 'failed') {
        const kind = (row.failureReason ?? 'failed').split(':')[0];
        p.failuresByReason[kind] = (p.failuresByReason[kind] ?? 0) + 1;
      }
    }
    p.cutOffReads = cutOffReadsOf(this.db, id);
    const batches = batchesOfExperiment(this.db, id);
    if (batches.length) p.batches = batches;
    p.phase = [...exp.protocol.stages].reverse().find((s) => p.phases[s.name])?.name ?? null;
    const unsent = Object.values(p.phases).reduce((n, g) => n + g.pending, 0);
    p.status = shownStatus(p.status, unsent);
    if (unsent > 0 && exp.row.status === 'finished') p.message = unsentMessage(unsent);
    else if (p.status === 'finished') p.message = failedRunMessage(this.db, id);
    const held = this.held.get(id);
    if (held && p.status === 'paused') {
      p.pausedLanes = held.lanes;
      p.message = held.message;
    }
    return p;
  }

  /**
   * Stops a run because the app or the CLI is going away (quit, Ctrl+C): calls on the wire
   * settle and are recorded, and the experiment shows as paused, to be resumed later.
   */
  async interrupt(id: number): Promise<ExperimentProgress> {
    const run = this.runs.get(id);
    if (!run) return this.progress(id);
    // Provider batches stay open: the next start polls them instead of paying again.
    await run.cancel({ keepBatches: true });
    await run.done;
    try {
      setExperimentStatus(this.db, id, 'paused');
    } catch (err) {
      // A full disk: the status stays "running", which reads as paused once no process runs it;
      // the run's own error (with where its answers are kept) is what the person is told.
      if (!(err instanceof Error && /^SQLITE_/.test(String((err as { code?: unknown }).code)))) throw err;
    }
    const p = { ...run.snapshot(), status: 'paused' as const, message: 'Interrupted; resume to continue.' };
    this.opts.emit('run.progress', p);
    return p;
  }

  /**
   * Starts the experiments whose provider batches were left open when the app last quit, so
   * their polling resumes (the desktop app and `judge-lab serve` call this as they open).
   * Experiments another process runs are left to it. Returns the ids started.
   */
  resumeOpenBatches(): number[] {
    const busy = new Set(this.locks.heldElsewhere());
    const started: number[] = [];
    for (const id of experimentsWithOpenBatches(this.db)) {
      if (busy.has(id) || this.runs.has(id)) continue;
      const status = getExperiment(this.db, id)?.status;
      if (status !== 'paused' && status !== 'running') continue;
      this.start(id);
      started.push(id);
    }
    return started;
  }

  /** Interrupts every live run (quitting). */
  async shutdown(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.interrupt(id)));
  }
}

function emptyCounts() {
  return { total: 0, done: 0, failed: 0, cacheHits: 0, inFlight: 0, pending: 0 };
}
