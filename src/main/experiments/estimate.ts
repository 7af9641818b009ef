// Cost and time before anything is spent, for any protocol: its plan (with stand-ins for
// inputs not made yet), token estimates per call, the price table and the rate limits.
import type { CostEstimate, EstimateRow, TierEstimate } from '../../shared/experiments';
import type { ProtocolTask } from '../protocols/types';
import type { ChatRequestSpec, Usage } from '../providers/types';
import { BATCH_WINDOW_HOURS } from '../providers/batch-types';
import { isBatchMode, resolvedBaseURL, type ProviderConfig } from '../providers/config';
import { costOf } from '../providers/pricing';
import { estimateDone } from '../providers/sdk';
import { planTokenCounter, PROMPT_CACHE_MIN_TOKENS } from '../providers/tokens';
import { modelLimitKey } from '../queue/engine';
import { FAST_LATENCY, pipelineSeconds, SLOW_LATENCY, type LaneLoad } from '../queue/eta';
import { laneLimits } from '../queue/lane';
import type { Database } from '../store/db';
import { requestHash } from '../store/ledger';
import type { LoadedExperiment } from './load';
import { endpointIds, modelLimitsOf } from './load';

/** What a running experiment's estimate leaves out (the run's ETA, not the wizard's figure). */
export interface LeftOptions {
  /** Calls that failed are not sent again in this run: count only calls with no answer yet. */
  skipFailed?: boolean;
  /** Lanes (endpoint id, model) that send nothing until resumed, e.g. paused by the early warning. */
  skipLane?: (endpoint: string, model: string) => boolean;
  /**
   * Only `minutesAtRateLimits` is wanted (the run's ETA, taken every round): no prices, and a
   * lane's tokens counted only where its limits make them count (a TPM limit, or no RPM limit so
   * its answers' length decides). An RPM-bound lane's time is its calls alone, and counting every
   * prompt of a round again was a sixth of a small simulated study's CPU.
   */
  timeOnly?: boolean;
}

/** The estimate of an experiment's whole plan; `storedFrom` is an experiment whose stored inputs count. */
export function estimateExperiment(
  db: Database,
  exp: LoadedExperiment,
  storedFrom: number | null,
  left: LeftOptions = {},
): CostEstimate {
  const plan = exp.protocol.estimatePlan(exp.view, db, storedFrom, true);
  const estimate = estimateTasks(db, exp, plan.tasks, plan.note, plan.fresh, left, plan.calls);
  return plan.noteKey ? { ...estimate, noteKey: plan.noteKey } : estimate;
}

export function estimateTasks(
  db: Database,
  exp: Pick<LoadedExperiment, 'providers' | 'prices' | 'protocol' | 'config'>,
  tasks: readonly ProtocolTask[],
  note: string,
  fresh: (t: ProtocolTask) => boolean = () => false,
  left: LeftOptions = {},
  /** How many calls a task stands for (the protocol's `estimatePlan` with `forCost`). */
  callsOf: (t: ProtocolTask) => number = () => 1,
): CostEstimate {
  const stages = new Map(exp.protocol.stages.map((s) => [s.name, s]));
  const endpoints = endpointIds(exp.providers);
  const answered = left.skipFailed ? "status IN ('done', 'failed')" : "status = 'done'";
  const isDone = db.prepare(`SELECT 1 FROM requests WHERE hash = ? AND ${answered}`).pluck();
  // Whether a task's request is answered in the ledger: its canonical JSON and sha256, then a
  // lookup. A request's hash covers its endpoint and model, so a lane with no answered request has
  // none of its tasks done: an empty ledger (a new user's estimate) answers for every task at once,
  // and a lane with more tasks than a 16th of the ledger's rows asks once whether it has any
  // (a scan of the ledger, about what hashing that many tasks costs) and stops hashing if not.
  // The ledger is shared: a lane another experiment answered is looked up task by task, since
  // identical requests reuse its answers.
  const ledgerRows = (db.prepare('SELECT max(id) FROM requests').pluck().get() as number | null) ?? 0;
  const laneAnswered = db
    .prepare(`SELECT 1 FROM requests WHERE endpoint = ? AND model = ? AND ${answered} LIMIT 1`)
    .pluck();
  const laneLookups = new Map<string, { lookups: number; any?: boolean }>();
  const done = (endpoint: string, request: ChatRequestSpec) => {
    if (ledgerRows === 0) return false;
    const key = `${endpoint}\u0000${request.model}`;
    let lane = laneLookups.get(key);
    if (!lane) laneLookups.set(key, (lane = { lookups: 0 }));
    if (lane.any === undefined && ++lane.lookups > ledgerRows / 16)
      lane.any = laneAnswered.get(endpoint, request.model) !== undefined;
    if (lane.any === false) return false;
    return isDone.get(requestHash(endpoint, request)) !== undefined;
  };
  const rows = new Map<string, EstimateRow>();
  // Lanes are endpoint+model (what the engine and the provider limit), whatever stage calls them.
  const lanes = new Map<string, LaneLoad>();
  const modelLimits = modelLimitsOf(exp);
  let liveCost = 0;
  // The four ways to pay, per model user (label): what is left, each at its tier's price, and
  // every lane timed as if sent live (a batch-mode lane too: the standard tier's time).
  const tiers = new Map<string, TierEstimate & { lane: string }>();
  const tierLanes = new Map<string, LaneLoad>();
  const tierStages = new Map<string, Set<string>>();
  // Prompt caching: calls sharing a system prompt (and schema) long enough to be cached read it
  // from the cache after the first; Anthropic bills that first one as a cache write.
  const tokens = planTokenCounter();
  const limitsOf = (provider: string, model: string) => ({
    // The limits the engine gives the lane: its provider's, overridden by the model's own.
    ...laneLimits(exp.providers[provider]),
    ...modelLimits[modelLimitKey(provider, model)],
  });
  const tokensCount = (t: ProtocolTask): boolean => {
    if (!left.timeOnly) return true;
    // Only lane time is wanted: a batch's calls and a paused lane's take none.
    const { provider, model } = t.request;
    if (isBatchMode(exp.providers[provider] ?? {}) || left.skipLane?.(endpoints.get(provider)!, model))
      return false;
    const limits = limitsOf(provider, model);
    return limits.tpm !== undefined || !limits.rpm;
  };
  tokens.precount(tasks.filter(tokensCount).map((t) => t.request));
  // System prompts seen, by lane (the prompt itself is a shared string: no copy joined to a key).
  const prefixes = new Map<string, Set<string>>();
  const usageOf = (t: ProtocolTask, endpoint: string, inputTokens: number, outputTokens: number): Usage => {
    const system = t.request.system;
    if (!system) return { inputTokens, outputTokens, cachedInputTokens: 0 };
    const prefix = tokens.prefix(t.request);
    if (prefix < PROMPT_CACHE_MIN_TOKENS) return { inputTokens, outputTokens, cachedInputTokens: 0 };
    const lane = `${endpoint}\u0000${t.request.model}`;
    let seen = prefixes.get(lane);
    if (!seen) prefixes.set(lane, (seen = new Set()));
    if (seen.has(system)) return { inputTokens, outputTokens, cachedInputTokens: prefix };
    seen.add(system);
    return exp.providers[t.request.provider]?.kind === 'anthropic'
      ? { inputTokens, outputTokens, cachedInputTokens: 0, cacheWriteTokens: prefix }
      : { inputTokens, outputTokens, cachedInputTokens: 0 };
  };
  // A task standing for several calls: the first may write the prompt cache, the others read it.
  const eachCacheUse = (
    t: ProtocolTask,
    endpoint: string,
    input: number,
    output: number,
    calls: number,
    use: (usage: Usage, times: number) => void,
  ) => {
    for (let k = 0; k < Math.min(calls, 2); k++)
      use(usageOf(t, endpoint, input, output), k === 0 ? 1 : calls - 1);
  };
  // A task's calls on its lane's load, by stage.
  const addLoad = (
    into: Map<string, LaneLoad>,
    laneKey: string,
    t: ProtocolTask,
    input: number,
    output: number,
    calls: number,
  ) => {
    const lane = madeOnce(into, laneKey, () => ({
      limits: limitsOf(t.request.provider, t.request.model),
      stages: new Map(),
    }));
    const load = lane.stages.get(t.stage) ?? { calls: 0, tokens: 0, outputTokens: 0 };
    load.calls += calls;
    load.tokens += (input + output) * calls;
    load.outputTokens = (load.outputTokens ?? 0) + output * calls;
    lane.stages.set(t.stage, load);
  };
  const addTiers = (t: ProtocolTask, endpoint: string, input: number, output: number, calls: number) => {
    const cfg = exp.providers[t.request.provider];
    const { role, label } = stages.get(t.stage)!.describe(t);
    const laneKey = `${endpoint}\u0000${t.request.model}`;
    const tier = madeOnce(tiers, label, (): TierEstimate & { lane: string } => ({
      label,
      role,
      provider: t.request.provider,
      model: t.request.model,
      calls: 0,
      priced: true,
      standard: { usd: 0, minutes: 0 },
      ...(hasBatchApi(cfg) ? { batch: { usd: 0, windowHours: BATCH_WINDOW_HOURS, rounds: 0 } } : {}),
      ...(hasFlex(cfg) ? { flex: { usd: 0, minutes: 0 } } : {}),
      cluster: { usd: 0 },
      chosen: cfg && isBatchMode(cfg) ? 'batch' : cfg?.serviceTier === 'flex' ? 'flex' : 'standard',
      lane: laneKey,
    }));
    tier.calls += calls;
    // Prompt caching as the live figure counts it (its own lane key: the live rows' cache is apart).
    eachCacheUse(t, `tiers:${endpoint}`, input, output, calls, (usage, times) => {
      const standard = costOf(t.request.model, usage, exp.prices);
      tier.priced &&= standard.priced;
      tier.standard.usd += standard.usd * times;
      if (tier.batch)
        tier.batch.usd += costOf(t.request.model, usage, exp.prices, { batch: true }).usd * times;
      if (tier.flex) tier.flex.usd += costOf(t.request.model, usage, exp.prices, { flex: true }).usd * times;
    });
    madeOnce(tierStages, label, () => new Set<string>()).add(t.stage);
    addLoad(tierLanes, laneKey, t, input, output, calls);
  };
  for (const t of tasks) {
    const stage = stages.get(t.stage)!;
    const { role, label, kind } = stage.describe(t);
    const key = `${label}\u0000${kind}`;
    const batch = isBatchMode(exp.providers[t.request.provider] ?? {});
    const row = madeOnce(rows, key, () => ({
      role,
      label,
      provider: t.request.provider,
      model: t.request.model,
      kind,
      calls: 0,
      cachedCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      priced: true,
      ...(batch ? { batch: true } : {}),
    }));
    const calls = callsOf(t);
    row.calls += calls;
    const endpoint = endpoints.get(t.request.provider)!;
    if (!fresh(t) && done(endpoint, t.request)) {
      row.cachedCalls += calls;
      continue;
    }
    const counted = tokensCount(t);
    const input = counted ? tokens.input(t.request) : 0;
    const output = counted ? stage.outputTokens(t, tokens) : 0;
    if (!left.timeOnly) {
      eachCacheUse(t, endpoint, input, output, calls, (usage, times) => {
        const cost = costOf(t.request.model, usage, exp.prices, { batch });
        row.costUsd += cost.usd * times;
        row.priced &&= cost.priced;
        liveCost += (batch ? costOf(t.request.model, usage, exp.prices).usd : cost.usd) * times;
      });
      row.inputTokens += input * calls;
      row.outputTokens += output * calls;
      addTiers(t, endpoint, input, output, calls);
    }
    // A batch is not rate limited: its calls take the provider's window, not lane time.
    if (batch || left.skipLane?.(endpoint, t.request.model)) continue;
    addLoad(lanes, `${endpoint}\u0000${t.request.model}`, t, input, output, calls);
  }
  const list = [...rows.values()];
  const stageOrder = exp.protocol.stages.map((s) => s.name);
  // Lanes without an RPM limit take as long as their server answers: the figure is a typical
  // server's, and the range what a fast and a slow one would take. Rate-bound lanes have none.
  const timeRange = () => {
    const low = pipelineSeconds(lanes.values(), stageOrder, FAST_LATENCY) / 60;
    const high = pipelineSeconds(lanes.values(), stageOrder, SLOW_LATENCY) / 60;
    return high > low * 1.05 ? { minutesRange: [low, high] as [number, number] } : {};
  };
  const unpriced = [...new Set(list.filter((r) => !r.priced).map((r) => r.model))];
  const tierList = [...tiers.values()].map(({ lane: laneKey, ...tier }) => {
    const lane = tierLanes.get(laneKey)!;
    tier.standard.minutes = pipelineSeconds([lane], stageOrder) / 60;
    if (tier.flex) tier.flex.minutes = pipelineSeconds([lane], stageOrder, SLOW_LATENCY) / 60;
    // Stages that wait on each other's answers go as one batch round each.
    if (tier.batch) tier.batch.rounds = tierStages.get(tier.label)?.size ?? 1;
    return tier;
  });
  // Every text of the plan is counted: `judge-lab run` lets the tokenizer's tables go now.
  estimateDone();
  return {
    rows: list,
    tiers: tierList,
    calls: list.reduce((n, r) => n + r.calls, 0),
    cachedCalls: list.reduce((n, r) => n + r.cachedCalls, 0),
    inputTokens: list.reduce((n, r) => n + r.inputTokens, 0),
    outputTokens: list.reduce((n, r) => n + r.outputTokens, 0),
    costUsd: list.reduce((n, r) => n + r.costUsd, 0),
    unpricedModels: unpriced,
    // Stages are pipelined: the busiest lane or the chain of dependent stages decides (queue/eta.ts).
    // The run's first ETA is this figure, so the two agree at the start.
    minutesAtRateLimits: pipelineSeconds(lanes.values(), stageOrder) / 60,
    ...timeRange(),
    note,
    ...(list.some((r) => r.batch) ? { batchWindowHours: BATCH_WINDOW_HOURS, liveCostUsd: liveCost } : {}),
  };
}

/** The host a provider entry sends to. */
/** The map's entry for `key`, made by `make` and stored the first time it is asked for. */
function madeOnce<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

function hostOf(cfg: ProviderConfig): string {
  return new URL(resolvedBaseURL(cfg)).hostname;
}

/**
 * OpenAI's and Anthropic's own Batch APIs (compatible servers mostly have none: a vLLM server's
 * way to batch is the cluster export).
 */
function hasBatchApi(cfg: ProviderConfig | undefined): boolean {
  if (cfg?.kind === 'openai') return hostOf(cfg) === 'api.openai.com';
  return cfg?.kind === 'anthropic' && hostOf(cfg) === 'api.anthropic.com';
}

/** OpenAI's flex tier: OpenAI's own API only (compatible servers have no service tiers). */
function hasFlex(cfg: ProviderConfig | undefined): boolean {
  return cfg?.kind === 'openai' && hostOf(cfg) === 'api.openai.com';
}
