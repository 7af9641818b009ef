// Runs one experiment: transform, audit, judge; resumable because every step is planned
// idempotently against the ledger and every answer is stored before it is used.
import type { ExperimentProgress, ExperimentStatus, Phase } from '../../shared/experiments';
import { judgeLsProtocol } from '../protocols/judge-ls';
import type { KeyStore } from '../providers/config';
import type { ChatRequestSpec, ChatResult } from '../providers/types';
import { modelLimitKey, RequestEngine, type RequestEngineOptions } from '../queue/engine';
import type { LaneLimits } from '../queue/lane';
import type { RunProgress, RunSummary } from '../queue/progress';
import type { Database } from '../store/db';
import { setExperimentStatus } from '../store/experiments';
import { loadExperiment, type LoadedExperiment } from './load';
import { currentVariants, materializeJudgments, recordPlan, storeVariants } from './stages';

export interface RunnerDeps {
  db: Database;
  keys: KeyStore;
  onProgress: (p: ExperimentProgress) => void;
  /** Engine tuning (tests: faster progress; benchmarks). */
  engine?: Partial<Pick<RequestEngineOptions, 'retry' | 'progressIntervalMs' | 'logger'>>;
}

const TRANSFORM_GROUP = 'transform';

/** Decides whether an answer is usable, so the engine re-asks unusable ones. */
function validateAnswer(spec: ChatRequestSpec, result: ChatResult): string | null {
  const json = result.json ?? result.text;
  if (spec.response.name === 'language_variant') {
    const r = judgeLsProtocol.stages.transform.parse(json, { meta: {} } as never);
    return r.ok ? null : r.error;
  }
  const r = judgeLsProtocol.stages.judge.parse(json, { meta: {} } as never);
  return r.ok ? null : r.error;
}

export function idleProgress(
  experimentId: number,
  status: ExperimentStatus,
  message: string | null = null,
): ExperimentProgress {
  return {
    experimentId,
    status,
    phase: null,
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
  private status: ExperimentStatus = 'running';
  private progress: ExperimentProgress;
  /** Spend and tokens of the phases already finished in this run. */
  private carried = { input: 0, output: 0, cached: 0, cost: 0, failures: {} as Record<string, number> };
  private cancelled = false;
  private stopWaiting: () => void = () => {};
  readonly done: Promise<ExperimentProgress>;
  private resolveDone!: (p: ExperimentProgress) => void;

  constructor(
    private readonly deps: RunnerDeps,
    readonly experimentId: number,
  ) {
    this.progress = idleProgress(experimentId, 'running');
    this.done = new Promise((r) => (this.resolveDone = r));
  }

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
      .catch((err: unknown) => this.finish('failed', err instanceof Error ? err.message : String(err)));
  }

  pause(): void {
    if (this.status !== 'running') return;
    this.engine?.pause();
    this.setStatus('paused');
  }

  resume(): void {
    if (this.status !== 'paused') return;
    this.setStatus('running');
    this.engine?.resume();
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    this.stopWaiting();
    await this.engine?.cancel();
  }

  private setStatus(status: ExperimentStatus): void {
    this.status = status;
    setExperimentStatus(this.deps.db, this.experimentId, status);
    this.publish({ status });
  }

  private finish(status: ExperimentStatus, message: string | null): void {
    this.status = status;
    setExperimentStatus(this.deps.db, this.experimentId, status);
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
    this.engine = new RequestEngine({
      db,
      providers: exp.providers,
      keys: this.deps.keys,
      prices: exp.prices,
      modelLimits: modelLimitsOf(exp),
      ...this.deps.engine,
    });
    this.engine.on('progress', (p) => this.onEngineProgress(p));
    // Paused while it waited for another run: stay paused until resumed.
    if (this.status === 'paused') this.engine.pause();
    this.publish({ message: null });

    const transform = await this.phase('transform', exp, () =>
      judgeLsProtocol.stages.transform.plan({
        items: exp.items,
        options: exp.options,
        transformer: exp.transformer,
      }),
    );
    storeVariants(db, exp);
    if (transform.outcome !== 'finished') return this.stopStatus(transform);

    const judge = await this.phase('judge', exp, () =>
      judgeLsProtocol.stages.judge.plan({
        items: exp.items,
        variants: currentVariants(db, exp.row.id),
        judges: exp.judges,
        options: exp.options,
      }),
    );
    materializeJudgments(db, exp.row.id);
    if (judge.outcome !== 'finished') return this.stopStatus(judge);
    return 'finished';
  }

  private stopStatus(summary: RunSummary): ExperimentStatus {
    if (this.cancelled || summary.outcome === 'cancelled') return 'cancelled';
    // Blocked: only paused endpoints are left (bad key, quota). The person fixes and resumes.
    this.publish({
      message: summary.pausedLanes.map((l) => l.reason).join(' ') || 'Stopped: no endpoint can send.',
    });
    return 'paused';
  }

  private async phase(
    phase: Phase,
    exp: LoadedExperiment,
    plan: () => (
      | ReturnType<typeof judgeLsProtocol.stages.transform.plan>[number]
      | ReturnType<typeof judgeLsProtocol.stages.judge.plan>[number]
    )[],
  ): Promise<RunSummary> {
    const tasks = plan();
    const { jobs } = recordPlan(this.deps.db, exp, tasks, (t) =>
      t.stage === 'transform' ? TRANSFORM_GROUP : (t.meta as { judge: string }).judge,
    );
    this.publish({ phase });
    const summary = await this.engine!.run(jobs, { validate: validateAnswer });
    this.onEngineProgress(summary);
    this.carried = {
      input: this.carried.input + summary.tokens.input,
      output: this.carried.output + summary.tokens.output,
      cached: this.carried.cached + summary.tokens.cached,
      cost: this.carried.cost + summary.costUsd,
      failures: mergeCounts(this.carried.failures, summary.failuresByReason),
    };
    return summary;
  }

  private onEngineProgress(p: RunProgress): void {
    const phase = this.progress.phase;
    if (!phase) return;
    const judges = phase === 'judge' ? { ...p.groups } : this.progress.judges;
    this.publish({
      phases: { ...this.progress.phases, [phase]: { ...p.overall } },
      judges,
      callsPerMinute: p.callsPerMinute,
      etaSeconds: p.etaSeconds,
      tokens: {
        input: this.carried.input + p.tokens.input,
        output: this.carried.output + p.tokens.output,
        cached: this.carried.cached + p.tokens.cached,
      },
      costUsd: this.carried.cost + p.costUsd,
      failuresByReason: mergeCounts(this.carried.failures, p.failuresByReason),
      pausedLanes: p.pausedLanes,
    });
  }
}

/** The transformer's and judges' own rpm/tpm/concurrency, which override their provider's for that model. */
export function modelLimitsOf(exp: LoadedExperiment): Record<string, Partial<LaneLimits>> {
  const out: Record<string, Partial<LaneLimits>> = {};
  for (const e of [exp.config.transform, ...exp.config.judges]) {
    const limits = Object.fromEntries(
      Object.entries({ rpm: e.rpm, tpm: e.tpm, concurrency: e.concurrency }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    if (Object.keys(limits).length) {
      const key = modelLimitKey(e.provider, e.model);
      out[key] = { ...out[key], ...limits };
    }
  }
  return out;
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
}
