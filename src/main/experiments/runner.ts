// Runs one experiment of any protocol: plans every stage the protocol lists, sends what is
// missing, stores parsed answers as they arrive, and plans again until nothing new appears.
// Resumable because plans are idempotent against the ledger and every answer is stored
// before it is used.
import type { ExperimentProgress, ExperimentStatus } from '../../shared/experiments';
import type { KeyStore } from '../providers/config';
import type { StagePlugin } from '../protocols/plugin';
import type { ProtocolTask } from '../protocols/types';
import type { ChatResult } from '../providers/types';
import {
  EARLY_WARNING,
  RequestEngine,
  type Job,
  type ReadAnswer,
  type RequestEngineOptions,
  type RunOptions,
  type StoredOutcome,
} from '../queue/engine';
import { isStoreFault } from '../queue/pending-answers';
import { BatchExecutor, type BatchExecutorOptions, type BatchInfo } from '../queue/batch/executor';
import { combineProgress, splitByMode } from '../queue/batch/route';
import type { RunProgress, RunSummary } from '../queue/progress';
import type { Database } from '../store/db';
import { openTasksOf, pruneTasksToItems, setExperimentStatus } from '../store/experiments';
import { explainStoreFault } from '../store/open-errors';
import { batchesOfExperiment } from '../store/batches';
import { getPlanRows } from '../store/ledger';
import { writeArrivedResults } from '../store/results';
import { assertRunnable, loadExperiment, modelLimitsOf, type LoadedExperiment } from './load';
import { estimateExperiment } from './estimate';
import { computeResults } from './results';
import { openRecorded, recordedAdapters } from './recorded';
import { afterArrived, recordPlan, storeAnswers } from './stages';
import { failedRunMessage } from './run-outcome';
import { unsentCalls } from './unsent';

export interface RunnerDeps {
  db: Database;
  keys: KeyStore;
  onProgress: (p: ExperimentProgress) => void;
  /** Engine tuning (tests: faster progress; benchmarks). */
  engine?: Partial<Pick<RequestEngineOptions, 'retry' | 'progressIntervalMs' | 'logger' | 'storeRetry'>>;
  /** Batch tuning (tests: smaller batches). */
  batch?: Partial<Pick<BatchExecutorOptions, 'limits' | 'createBatchAdapter'>>;
  /** Judges the person chose to go on with after an early warning: not watched again. */
  trusted?: ReadonlySet<string>;
}

/** The early warning's default: a judge's first this many answers (DESIGN.md section 7). */
export const EARLY_WARNING_ANSWERS = 20;

/** Progress groups are `stage + SEP + group`, so progress can be told per stage and per judge. */
const SEP = '\u0001';
/**
 * A plan that keeps growing after this many rounds is a protocol bug, not work to do. Rounds
 * also bound the chains of tasks planned while a run goes (see Pipeline.depthOf).
 */
const MAX_ROUNDS = 20;
/**
 * While a run goes, answers just stored are planned from at most this often (coalesced): a
 * task whose inputs arrived joins the run within this time, and planning stays off the hot path.
 */
export const REPLAN_INTERVAL_MS = 150;
/**
 * A plan reads and hashes every task of the study, so on a big one it takes a while: plans are
 * spaced at least this many times their own duration (planning stays under ~10% of the time).
 * At 4 (~20%) the 419 × 3 translation study spent ~9 of its ~25 CPU-s planning again while
 * answers arrived (issue 39); the judges' lanes have a backlog of tasks already planned, so
 * tasks joining later by a few hundred ms cost no wall time.
 */
const REPLAN_SPACING = 10;
/** The estimate of the time left is taken again at most this often while lanes pause or resume. */
const ESTIMATE_INTERVAL_MS = 1000;

/** Plans again while a round goes (`again`), after answers to requests for which `after` is true. */
interface Replan {
  again: () => Planned;
  after: (requestId: number) => boolean;
}

/**
 * The tasks (jobs[i] planned by tasks[i]) and stored tasks outside the plan (the jobs after).
 * A task keeps only what the round needs (its stage and provider): its rendered request is in
 * the ledger, and the whole plan's requests held through a round were most of a big run's memory.
 */
interface Planned {
  tasks: PlannedTask[];
  jobs: Job[];
  /** How many of the tasks this plan recorded for the first time in the run. */
  added: number;
}
interface PlannedTask {
  stage: string;
  request: { provider: string };
}
/** A plan is rendered, hashed and recorded this many tasks at a time (see planAll). */
const PLAN_CHUNK = 2000;
/** The protocol hears of answers stored as they arrived at most this often while a run goes. */
const SYNC_INTERVAL_MS = 1000;

export function idleProgress(
  experimentId: number,
  status: ExperimentStatus,
  message: string | null = null,
): ExperimentProgress {
  return {
    experimentId,
    status,
    phase: null,
    stages: [],
    phases: {},
    judges: {},
    callsPerMinute: 0,
    etaSeconds: null,
    tokens: { input: 0, output: 0, cached: 0 },
    costUsd: 0,
    failuresByReason: {},
    pausedLanes: [],
    message,
    updatedAt: new Date().toISOString(),
  };
}

/** One run of one experiment. Create, call start(), and control it with pause/resume/cancel. */
export class ExperimentRun {
  private engine: RequestEngine | null = null;
  /** This round's batch sender (providers with "mode": "batch"), if any. */
  private batch: BatchExecutor | null = null;
  /** The latest progress of this round's live and batch sends, shown as one. */
  private lastLive: RunProgress | null = null;
  private lastBatch: RunProgress | null = null;
  /** This run's provider batches, as progress shows them. */
  private batches: BatchInfo[] | undefined;
  private status: ExperimentStatus = 'running';
  private progress: ExperimentProgress;
  /** Spend and tokens of the rounds already finished in this run. */
  private carried = { input: 0, output: 0, cached: 0, cost: 0, cutOffReads: 0 };
  private cancelled = false;
  private keepBatches = false;
  private exp: LoadedExperiment | null = null;
  private lastSync = 0;
  /** Stages whose results the engine stored as they arrived since the last storeAnswers. */
  private readonly arrived = new Set<string>();
  /** The progress message says the store cannot be written (cleared when it can again). */
  private storeMessage = false;
  private stopWaiting: () => void = () => {};
  /**
   * The estimate of everything left (the wizard's pipelined formula, estimate.ts), in seconds,
   * taken as each round starts and again when tasks join or lanes pause; when it was taken and
   * how long taking it took (big studies take it less often).
   */
  private leftEstimate = 0;
  private estimatedAt = 0;
  private estimateMs = 0;
  /** Lanes paused or resumed since the estimate was taken: the estimate is taken again. */
  private estimateStale = false;
  /** The lanes paused at the last progress (endpoint and model), as the estimate skipped them. */
  private pausedKey = '';
  /**
   * How many plans deep each request sent in this run is (the first plan: 0). A task planned
   * while the run goes counts one more than the shallowest answer stored since the last plan:
   * never more than its real chain of inputs, so the guard cannot stop a sound protocol, and a
   * plan that keeps growing goes one deeper each time once the sound work is done.
   */
  private depthOf = new Map<number, number>();
  /**
   * The tasks this run has recorded, by key: their job, stage and provider (null: stored outside
   * the run's plans, its provider unknown here). Plans leave them out (PlanContext).
   */
  private readonly recorded = new Map<string, { job: Job; stage: string; provider: string | null }>();
  /** Each stage's PlanContext.settled: as long-lived as `recorded`, whose keys it summarises. */
  private readonly settled = new Map<string, Set<string>>();
  /** A plan went deeper than MAX_ROUNDS: its tasks were not sent. */
  private outgrown = false;
  readonly done: Promise<ExperimentProgress>;
  private resolveDone!: (p: ExperimentProgress) => void;

  constructor(
    private readonly deps: RunnerDeps,
    readonly experimentId: number,
  ) {
    this.progress = idleProgress(experimentId, 'running');
    // Batches left open by an earlier run (the app was closed) show from the start.
    const open = batchesOfExperiment(deps.db, experimentId);
    if (open.length) this.progress.batches = this.batches = open;
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  /** Each progress group's role (the stage's `describe`): judges' groups are summed per judge. */
  private readonly groupRoles = new Map<string, string>();

  snapshot(): ExperimentProgress {
    return this.progress;
  }

  /**
   * Runs to the end in the background; `done` resolves with the final progress. With
   * `after`, the run first waits for it (another run on the same models and rate limits).
   */
  start(after?: { until: Promise<unknown>; message: string }): void {
    setExperimentStatus(this.deps.db, this.experimentId, 'running');
    this.publish({ status: 'running', message: after?.message ?? null });
    const cancelled = new Promise<void>((resolve) => (this.stopWaiting = resolve));
    Promise.race([after?.until ?? Promise.resolve(), cancelled])
      .then(() => (this.cancelled ? ('cancelled' as const) : this.run()))
      .then((status) => this.finish(status, null))
      .catch((err: unknown) => this.finish('failed', this.failureText(err)));
  }

  pause(): void {
    if (this.status !== 'running') return;
    this.engine?.pause();
    this.batch?.pause();
    this.setStatus('paused');
  }

  resume(): void {
    if (this.status !== 'paused') return;
    this.setStatus('running');
    this.engine?.resume();
    this.batch?.resume();
  }

  /** Lets a judge the early warning paused go on; false when it is not paused in this run. */
  resumeJudge(label: string): boolean {
    return this.engine?.resumeWatched(label) ?? false;
  }

  /**
   * Stops the run. `keepBatches` (the app or CLI is quitting): batches stay open at the
   * provider and the next run polls them; otherwise they are cancelled there too.
   */
  async cancel(opts: { keepBatches?: boolean } = {}): Promise<void> {
    this.cancelled = true;
    this.keepBatches = opts.keepBatches ?? false;
    this.stopWaiting();
    if (this.keepBatches) this.batch?.detach();
    else this.batch?.cancel();
    await this.engine?.cancel();
  }

  private setStatus(status: ExperimentStatus): void {
    this.status = status;
    setExperimentStatus(this.deps.db, this.experimentId, status);
    this.publish({ status });
  }

  /** Why the run failed; a store fault names the disk that is full (the data folder's). */
  private failureText(err: unknown): string {
    const text = err instanceof Error ? err.message : String(err);
    if (!isStoreFault(err)) return text;
    return explainStoreFault(err, this.deps.db.name)?.message ?? text;
  }

  private finish(status: ExperimentStatus, message: string | null): void {
    this.status = status;
    try {
      setExperimentStatus(this.deps.db, this.experimentId, status);
    } catch (err) {
      // A full disk: the status stays "running", which reads as paused once no process runs
      // it; the run's end (and its message) must still reach whoever waits for it.
      if (!isStoreFault(err)) throw err;
    }
    this.publish({ status, message: message ?? this.progress.message, etaSeconds: null });
    this.resolveDone(this.progress);
  }

  private publish(patch: Partial<ExperimentProgress>): void {
    this.progress = { ...this.progress, ...patch, updatedAt: new Date().toISOString() };
    this.deps.onProgress(this.progress);
  }

  private async run(): Promise<ExperimentStatus> {
    const { db } = this.deps;
    const exp = loadExperiment(db, this.experimentId);
    assertRunnable(exp);
    this.exp = exp;
    // The plan is the config's: slots of items it no longer uses (a lower limit set by an older
    // release, whose update kept them) neither run nor feed results. Their answers stay stored.
    pruneTasksToItems(
      db,
      exp.row.id,
      exp.items.map((i) => i.id),
    );
    // Recorded answers: every file read and checked whole before anything is sent.
    const recorded = openRecorded(db, exp);
    this.engine = new RequestEngine({
      db,
      providers: exp.providers,
      keys: this.deps.keys,
      prices: exp.prices,
      modelLimits: modelLimitsOf(exp),
      ...this.deps.engine,
      ...(recorded.size ? { createAdapter: recordedAdapters(db, exp, recorded) } : {}),
      // The config's re-asks win over the defaults (engine tuning of tests keeps its delays).
      retry: {
        ...this.deps.engine?.retry,
        ...(exp.config.maxParseRetries === undefined ? {} : { maxParseRetries: exp.config.maxParseRetries }),
      },
    });
    this.engine.on('progress', (p) => {
      this.lastLive = p;
      this.onEngineProgress(combineProgress(p, this.lastBatch));
    });
    // Paused while it waited for another run: stay paused until resumed.
    if (this.status === 'paused') this.engine.pause();
    this.publish({ message: null });

    // Which stage (and task) each request answers: its parser decides whether an answer is usable.
    const tasksOf = new Map<number, { stage: StagePlugin; meta: unknown; key: string }>();
    const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
    // The stage's parser runs once, as the answer arrives; its value is stored with the answer.
    const read = (result: ChatResult, requestId: number): ReadAnswer => {
      const t = tasksOf.get(requestId);
      if (!t) return { ok: true, value: undefined };
      const r = t.stage.parse(result.json ?? result.text, t);
      return r.ok ? { ok: true, value: r.value } : { ok: false, error: r.error };
    };
    const storeOutcomes = (outcomes: StoredOutcome[]): void => {
      const rows = outcomes.flatMap((o) => {
        const t = tasksOf.get(o.requestId);
        if (!t || (o.status === 'done' && o.value === undefined)) return [];
        this.arrived.add(t.stage.name);
        return [
          {
            key: t.key,
            requestId: o.requestId,
            status: o.status === 'done' ? ('ok' as const) : ('failed' as const),
            value: o.value,
            reason: o.reason,
          },
        ];
      });
      if (rows.length) writeArrivedResults(db, this.experimentId, rows);
    };
    // Judges are watched (the groups a stage names after a judge); other roles are not.
    const earlyWarning = {
      answers: exp.config.earlyWarningAnswers ?? EARLY_WARNING_ANSWERS,
      label: (group: string): string | null => {
        const [stage, name] = group.split(SEP);
        return name === stage || this.deps.trusted?.has(name) ? null : name;
      },
    };
    // A crash can fall between an answer stored as it arrived and the protocol's hook on it
    // (a translation stored, its variant not written yet): the hooks are idempotent, so every
    // stage's runs once on what is stored before the first plan, or its follow-up tasks are
    // never planned and the run "finishes" without them.
    for (const s of exp.protocol.stages) this.arrived.add(s.name);
    storeAnswers(db, exp, this.arrived);
    // A stage plans from what earlier stages stored, so an answer of the last stage unlocks no
    // task: it does not call for a plan while the round goes. (A stage that did plan from its
    // own answers would still get them planned: each round plans from everything stored.)
    const last = exp.protocol.stages.at(-1)?.name;
    const unlocks = (requestId: number) => tasksOf.get(requestId)?.stage.name !== last;
    let complete = false;
    for (let round = 0; round < MAX_ROUNDS && !this.outgrown; round++) {
      // Plan every stage from what is stored now: a task whose inputs exist goes out in this
      // round, whatever stage it belongs to. While the round goes, tasks whose inputs arrive
      // join it (runLive), so no stage waits for another stage as a whole.
      const { jobs, tasks, added } = this.planAll(exp, stages, tasksOf, true);
      for (const j of jobs) if (!this.depthOf.has(j.requestId)) this.depthOf.set(j.requestId, round);
      // Done when nothing is open and nothing new was planned: tasks planned now that are all
      // answered already (cache hits) still go through the engine, so progress counts them.
      const open = this.openCount(jobs);
      if (round > 0 && open === 0 && added === 0) {
        complete = true;
        break;
      }
      // Time left covers the rounds still to come: the estimate (the wizard's formula) of all
      // that is left, less this round's share, which the engine counts lane by lane.
      this.estimate(exp);
      this.publish({ phase: tasks.at(-1)?.stage ?? phaseOf(jobs), etaSeconds: this.leftEstimate });
      const summary = await this.runRound(
        exp,
        jobs,
        tasks,
        { read, storeOutcomes, earlyWarning, continuing: round > 0 },
        { again: () => this.planAll(exp, stages, tasksOf, false), after: unlocks },
      );
      this.onEngineProgress(summary);
      this.carried = {
        input: this.carried.input + summary.tokens.input,
        output: this.carried.output + summary.tokens.output,
        cached: this.carried.cached + summary.tokens.cached,
        cost: this.carried.cost + summary.costUsd,
        cutOffReads: this.carried.cutOffReads + summary.cutOffReads,
      };
      storeAnswers(db, exp, this.arrived);
      // Only judges the early warning paused are left: the others go on to the next round,
      // as long as the round sent something (else nothing new can be planned).
      const watchedOnly =
        summary.outcome === 'blocked' &&
        summary.calls > 0 &&
        summary.pausedLanes.every((l) => l.kind === EARLY_WARNING);
      if (summary.outcome !== 'finished' && !watchedOnly) return this.stopStatus(summary);
    }
    // Out of rounds: a fresh plan with tasks still open means the plan outgrew its rounds (its
    // tasks are recorded, so they count as unsent below).
    if (!complete && !this.outgrown)
      this.outgrown = this.openCount(this.planAll(exp, stages, tasksOf, true).jobs) > 0;
    // Out of rounds with calls still open: never report those as finished.
    const unsent = unsentCalls(db, this.experimentId);
    if (unsent > 0 && this.outgrown)
      this.publish({
        message: `Stopped: the plan kept growing after ${MAX_ROUNDS} rounds (a protocol bug); ${unsent} planned calls were not sent.`,
      });
    if (unsent > 0) return 'paused';
    // Finished, but with most calls failed: the status line says so, with the reasons.
    const failedRun = failedRunMessage(db, this.experimentId);
    if (failedRun) this.publish({ message: failedRun });
    // Kept in the store, so the first results call after the run (this process or another)
    // reads them instead of the whole plan (issue 39: 1.5 CPU-s at 92,000 answers).
    try {
      computeResults(db, this.experimentId, false, false, 'always');
    } catch {
      // The results call computes them again and reports what went wrong: the run did finish.
    }
    return 'finished';
  }

  /** How many of these jobs are neither answered nor failed. */
  private openCount(jobs: readonly Job[]): number {
    const rows = getPlanRows(
      this.deps.db,
      jobs.map((j) => j.requestId),
    );
    return jobs.filter((j) => {
      const s = rows.get(j.requestId)?.status;
      return s !== 'done' && s !== 'failed';
    }).length;
  }

  /**
   * Plans every stage from what is stored now and records the tasks this run has not recorded
   * yet (PlanContext: a recorded task's prompt changes only where it is recorded again). Within a
   * round (`whole` false) it returns only those; as a round starts (`whole`) it returns the
   * whole plan so far, with open tasks stored outside it (an edit, an earlier run) after them:
   * each round counts every task, done ones included, in its progress.
   */
  private planAll(
    exp: LoadedExperiment,
    stages: Map<string, StagePlugin>,
    tasksOf: Map<number, { stage: StagePlugin; meta: unknown; key: string }>,
    whole: boolean,
  ): Planned {
    const { db } = this.deps;
    const recorded = this.recorded;
    const planned = (key: string) => recorded.has(key);
    const groupOf = (stage: string, t: Pick<ProtocolTask, 'meta'>) =>
      `${stage}${SEP}${stages.get(stage)!.group(t)}`;
    const fresh: Planned = { tasks: [], jobs: [], added: 0 };
    let chunk: ProtocolTask[] = [];
    const flush = () => {
      const { jobs } = recordPlan(db, exp, chunk, (t) => groupOf(t.stage, t));
      chunk.forEach((t, i) => {
        const stage = stages.get(t.stage)!;
        const job = jobs[i];
        tasksOf.set(job.requestId, { stage, meta: t.meta, key: t.key });
        recorded.set(t.key, { job, stage: t.stage, provider: t.request.provider });
        this.groupRoles.set(job.group, stage.describe(t).role);
        fresh.jobs.push(job);
        fresh.tasks.push({ stage: t.stage, request: { provider: t.request.provider } });
      });
      chunk = [];
    };
    // Recorded a chunk at a time, so a big plan's rendered requests die young instead of all
    // living until the whole plan is hashed (at 92,000 tasks: ~300 MB that outlived the young
    // generation at every plan).
    for (const s of exp.protocol.stages) {
      let settled = this.settled.get(s.name);
      if (!settled) this.settled.set(s.name, (settled = new Set()));
      for (const t of s.plan(exp.view, db, { planned, settled })) {
        // A stage that ignores the context still renders its recorded tasks: they are left out
        // here, before they are hashed and looked up in the ledger.
        if (recorded.has(t.key)) continue;
        chunk.push(t);
        if (chunk.length >= PLAN_CHUNK) flush();
      }
    }
    if (chunk.length) flush();
    fresh.added = fresh.jobs.length;
    if (!whole) return fresh;
    // Open tasks stored outside the plan are looked for as a round starts, not at each plan
    // within it (reading the stored tasks cost as much as the plan): an edit made while a round
    // goes is sent in the next round of the same run.
    for (const t of openTasksOf(db, this.experimentId)) {
      const stage = stages.get(t.stage);
      if (!stage || recorded.get(t.key)?.job.requestId === t.requestId) continue;
      const group = groupOf(t.stage, t);
      recorded.set(t.key, { job: { requestId: t.requestId, group }, stage: t.stage, provider: null });
      this.groupRoles.set(group, stage.describe(t).role);
      tasksOf.set(t.requestId, { stage, meta: t.meta, key: t.key });
    }
    const all: Planned = { tasks: [], jobs: [], added: fresh.jobs.length };
    // One job per task, as the first plan gives them: tasks that share a request (two judges on
    // one model) each count in their own group.
    const outside: Job[] = [];
    for (const r of recorded.values()) {
      if (r.provider === null) outside.push(r.job);
      else {
        all.jobs.push(r.job);
        all.tasks.push({ stage: r.stage, request: { provider: r.provider } });
      }
    }
    all.jobs.push(...outside);
    return all;
  }

  /**
   * Takes the estimate of everything not answered yet, lane by lane (calls that failed are not
   * sent again in this run; lanes paused until resumed send nothing).
   */
  private estimate(exp: LoadedExperiment): void {
    const started = Date.now();
    const paused = new Set(this.pausedKey ? this.pausedKey.split('\n') : []);
    this.leftEstimate = Math.round(
      estimateExperiment(this.deps.db, exp, this.experimentId, {
        skipFailed: true,
        timeOnly: true,
        skipLane: (endpoint, model) => paused.has(`${endpoint}${SEP}${model}`),
      }).minutesAtRateLimits * 60,
    );
    this.estimateStale = false;
    this.estimatedAt = Date.now();
    this.estimateMs = this.estimatedAt - started;
  }

  /**
   * Runs live jobs through the engine and, as their answers are stored, plans again: tasks
   * whose inputs just arrived join the same run (live ones; those of providers in batch mode
   * wait for the next round, where they go as a new batch). Plans are coalesced: at most one
   * every REPLAN_INTERVAL_MS (or REPLAN_SPACING times the last one's duration), and the engine is held open while one is due, so the run ends
   * only when nothing is in flight and a fresh plan has nothing new.
   */
  private async runLive(
    exp: LoadedExperiment,
    jobs: Job[],
    runOpts: RunOptions,
    replan: Replan,
  ): Promise<RunSummary> {
    const engine = this.engine!;
    const sent = new Set(jobs.map((j) => j.requestId));
    let timer: NodeJS.Timeout | null = null;
    const noop = () => {};
    /** Keeps the engine's run open while a plan is due (engine.hold). */
    let release: () => void = noop;
    /** The shallowest depth among the answers stored since the last plan. */
    let windowDepth = Infinity;
    let failure: unknown = undefined;
    /** How long the last plan took (ms): the next one waits REPLAN_SPACING times that. */
    let planMs = 0;
    const planNow = () => {
      const started = Date.now();
      timer = null;
      const depth = windowDepth + 1;
      windowDepth = Infinity;
      try {
        if (this.cancelled) return;
        // The engine stored this round's answers as they arrived: the protocol hears of them, with
        // no scan of the plan for answers stored another way (cache hits, batches, a crash
        // between), which each round's end does (at 92,000 tasks the scan's check for stale
        // results read every stored result, ~0.15–0.3 s at each plan).
        afterArrived(this.deps.db, exp, this.arrived);
        const { jobs: all, tasks } = replan.again();
        const { live } = splitByMode(this.deps.db, exp.providers, all, tasks);
        const fresh = live.filter((j) => !sent.has(j.requestId));
        if (!fresh.length) return;
        if (depth >= MAX_ROUNDS) {
          this.outgrown = true;
          this.deps.engine?.logger?.warn(
            `the plan keeps growing (${depth} plans deep); ${fresh.length} tasks not sent`,
          );
          return;
        }
        for (const j of fresh) {
          sent.add(j.requestId);
          this.depthOf.set(j.requestId, depth);
        }
        // No new estimate for tasks that joined: the estimate taken as the round started had
        // them already (stand-ins for inputs not made yet), and taking it again re-rendered the
        // whole study each time (~10% of a 10,894-call study's CPU).
        if (engine.add(fresh) > 0) this.publish({ phase: tasks.at(-1)?.stage ?? this.progress.phase });
      } catch (err) {
        // The store cannot be written just now: the engine waits for it and retries, and the
        // next stored answers plan again. Any other failure stops the run with this error.
        if (isStoreFault(err)) this.deps.engine?.logger?.warn(`planning waits for the store: ${err.message}`);
        else {
          failure ??= err;
          void engine.cancel();
        }
      } finally {
        planMs = Date.now() - started;
        release();
        release = noop;
      }
    };
    const off = engine.on('committed', ({ ids }) => {
      let unlocking = false;
      for (const id of ids) {
        if (!replan.after(id)) continue;
        unlocking = true;
        windowDepth = Math.min(windowDepth, this.depthOf.get(id) ?? 0);
      }
      if (!unlocking || timer || this.cancelled) return;
      release = engine.hold();
      timer = setTimeout(planNow, Math.max(REPLAN_INTERVAL_MS, REPLAN_SPACING * planMs));
    });
    try {
      const summary = await engine.run(jobs, runOpts);
      if (failure !== undefined) throw failure;
      return summary;
    } finally {
      off();
      if (timer) clearTimeout(timer);
      release();
    }
  }

  /**
   * Sends a round's jobs: live ones through the engine, those of providers in batch mode
   * through their Batch API at the same time; batch entries handed back (`batchFallback:
   * "live"`) then go out live. Returns the two as one summary.
   */
  private async runRound(
    exp: LoadedExperiment,
    jobs: Job[],
    tasks: { request: { provider: string } }[],
    runOpts: RunOptions,
    replan: Replan,
  ): Promise<RunSummary> {
    const { read, storeOutcomes } = runOpts;
    const engine = this.engine!;
    const { live, batch } = splitByMode(this.deps.db, exp.providers, jobs, tasks);
    this.lastLive = null;
    this.lastBatch = null;
    if (!batch.length) return this.runLive(exp, live, runOpts, replan);
    const executor = new BatchExecutor({
      db: this.deps.db,
      providers: exp.providers,
      keys: this.deps.keys,
      prices: exp.prices,
      retry: this.deps.engine?.retry,
      logger: this.deps.engine?.logger,
      ...this.deps.batch,
      onProgress: (p) => {
        this.lastBatch = p;
        this.batches = p.batches;
        this.onEngineProgress(combineProgress(this.lastLive, p));
      },
    });
    this.batch = executor;
    if (this.status === 'paused') executor.pause();
    if (this.cancelled) {
      if (this.keepBatches) executor.detach();
      else executor.cancel();
    }
    try {
      const [liveSummary, batchSummary] = await Promise.all([
        live.length ? this.runLive(exp, live, runOpts, replan) : null,
        // Batch answers are read once, as their entries are, and stored with their values.
        executor.run(batch, { read, storeOutcomes }),
      ]);
      this.lastBatch = batchSummary;
      let summary = combineProgress(liveSummary, batchSummary);
      if (batchSummary.live.length && !this.cancelled) {
        const back = new Set(batchSummary.live);
        const fallback = await engine.run(
          batch.filter((j) => back.has(j.requestId)),
          { read, storeOutcomes, continuing: true },
        );
        summary = combineProgress(summary, fallback, { overlay: true });
      }
      return summary;
    } finally {
      this.batch = null;
    }
  }

  private stopStatus(summary: RunSummary): ExperimentStatus {
    if (this.cancelled || summary.outcome === 'cancelled') return 'cancelled';
    // Blocked: only paused endpoints are left (bad key, quota). The person fixes and resumes.
    this.publish({
      message: summary.pausedLanes.map((l) => l.reason).join(' ') || 'Stopped: no endpoint can send.',
    });
    return 'paused';
  }

  /**
   * Time left, lane by lane, the slowest lane deciding: the larger of the engine's figure (the
   * calls it holds, at each lane's observed rate, capped at its limit) and the estimate of
   * everything left counted down since it was taken (at the limits, with the calls not planned
   * yet and the chain of dependent stages). At the start the engine holds a part of the plan at
   * the same limits, so the first ETA is the wizard's estimate. The estimate is taken again when
   * lanes paused or resumed, at most every ESTIMATE_INTERVAL_MS (or 20× its own cost).
   */
  private eta(engineSeconds: number | null): number | null {
    if (engineSeconds === null) return null;
    const since = Date.now() - this.estimatedAt;
    if (this.estimateStale && this.exp && since >= Math.max(ESTIMATE_INTERVAL_MS, 20 * this.estimateMs))
      this.estimate(this.exp);
    const counted = this.leftEstimate - (Date.now() - this.estimatedAt) / 1000;
    return Math.max(engineSeconds, Math.max(0, Math.round(counted)));
  }

  private onEngineProgress(p: RunProgress): void {
    // An outage passes by itself (the engine keeps counting those lanes); a pause waits for a person.
    const pausedKey = p.pausedLanes
      .filter((l) => l.kind !== 'outage')
      .map((l) => `${l.endpoint}${SEP}${l.model}`)
      .join('\n');
    if (pausedKey !== this.pausedKey) {
      this.pausedKey = pausedKey;
      this.estimateStale = true;
    }
    const phases: ExperimentProgress['phases'] = {};
    const judges: ExperimentProgress['judges'] = {};
    for (const [group, g] of Object.entries(p.groups)) {
      const [stage, name] = group.split(SEP);
      const sum = (phases[stage] ??= emptyCounts());
      for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += g[k];
      // A judge's groups of every stage (reference sensitivity: calibration and judging) add up;
      // other roles (translator, generator, rewriter) are shown by their stage's row.
      if (this.groupRoles.get(group) === 'judge') {
        const j = (judges[name] ??= emptyCounts());
        for (const k of Object.keys(j) as (keyof typeof j)[]) j[k] += g[k];
      }
    }
    this.publish({
      stages: this.exp?.protocol.stages.map((s) => s.name) ?? this.progress.stages,
      phases: { ...this.progress.phases, ...phases },
      judges: { ...this.progress.judges, ...judges },
      callsPerMinute: p.callsPerMinute,
      etaSeconds: this.eta(p.etaSeconds),
      tokens: {
        input: this.carried.input + p.tokens.input,
        output: this.carried.output + p.tokens.output,
        cached: this.carried.cached + p.tokens.cached,
      },
      costUsd: this.carried.cost + p.costUsd,
      cutOffReads: this.carried.cutOffReads + p.cutOffReads,
      // Each round counts the whole plan so far, failed rows of earlier rounds included.
      failuresByReason: { ...p.failuresByReason },
      pausedLanes: p.pausedLanes,
      ...(this.batches ? { batches: this.batches } : {}),
      // "store write failed: <reason>; retrying" while the store cannot be written.
      ...(p.storeProblem ? { message: p.storeProblem } : this.storeMessage ? { message: null } : {}),
    });
    this.storeMessage = Boolean(p.storeProblem);
    // The protocol sees the answers stored as they arrived while the run goes, not only when a
    // round ends (the results API stores any others itself).
    const now = Date.now();
    if (this.exp && now - this.lastSync >= SYNC_INTERVAL_MS) {
      this.lastSync = now;
      try {
        afterArrived(this.deps.db, this.exp, this.arrived);
      } catch (err) {
        // A store that cannot be written: the engine retries; results catch up once it can.
        if (!isStoreFault(err)) throw err;
      }
    }
  }
}

/** The stage of a plan's last job (progress shows it as the phase). */
function phaseOf(jobs: readonly Job[]): string | null {
  return jobs.at(-1)?.group.split(SEP)[0] ?? null;
}

function emptyCounts() {
  return { total: 0, done: 0, failed: 0, cacheHits: 0, inFlight: 0, pending: 0 };
}
