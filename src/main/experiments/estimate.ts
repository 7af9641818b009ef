// The cost and time estimate shown before anything is spent.
import type { CostEstimate, EstimateRow } from '../../shared/experiments';
import { judgeLsProtocol } from '../protocols/judge-ls';
import type { JudgeTask, TransformTask, Variant } from '../protocols/judge-ls/model';
import { DEFAULT_CONCURRENCY, type ProviderConfig } from '../providers/config';
import { costOf } from '../providers/pricing';
import { estimateInputTokens } from '../providers/tokens';
import type { Database } from '../store/db';
import { requestHash } from '../store/ledger';
import type { LoadedExperiment } from './load';
import { endpointIds } from './load';

/** Rough answer lengths: a transform returns the three texts again; a verdict is short. */
const VERDICT_OUTPUT_TOKENS = 120;
const TRANSLATION_EXPANSION = 1.3;
/** Without an RPM limit, assume each of `concurrency` slots finishes a call every 5 s. */
const ASSUMED_SECONDS_PER_CALL = 5;

type Task = TransformTask | JudgeTask;

/**
 * Variants to plan judge calls with: the stored ones, and for each missing one the English
 * texts standing in (the translation does not exist yet, so its cost is estimated from them).
 */
export function withStandIns(
  exp: Pick<LoadedExperiment, 'items' | 'options'>,
  stored: readonly Variant[] = [],
): { variants: Variant[]; standIns: Set<string> } {
  const have = new Set(stored.map((v) => `${v.itemId}:${v.language}`));
  const standIns = new Set<string>();
  const variants = [...stored];
  for (const item of exp.items) {
    for (const language of exp.options.languages) {
      const key = `${item.id}:${language}`;
      if (have.has(key)) continue;
      standIns.add(key);
      variants.push({
        itemId: item.id,
        language,
        instruction: item.instruction,
        output1: item.output1,
        output2: item.output2,
        manual: false,
      });
    }
  }
  return { variants, standIns };
}

/** A judge call planned from a stand-in variant is new whatever the ledger holds. */
export function usesStandIn(t: Task, standIns: ReadonlySet<string>): boolean {
  if (t.stage !== 'judge') return false;
  const m = t.meta as JudgeTask['meta'];
  const lang = m.language === 'EN-ZH' ? 'ZH' : m.language;
  return lang !== 'EN' && standIns.has(`${m.itemId}:${lang}`);
}

export function planAll(
  exp: Pick<LoadedExperiment, 'items' | 'options' | 'transformer' | 'judges'>,
  variants: readonly Variant[],
): Task[] {
  const transforms = judgeLsProtocol.stages.transform.plan({
    items: exp.items,
    options: exp.options,
    transformer: exp.transformer,
  });
  const judgments = judgeLsProtocol.stages.judge.plan({
    items: exp.items,
    variants,
    judges: exp.judges,
    options: exp.options,
  });
  return [...transforms, ...judgments];
}

export function estimateTasks(
  db: Database,
  exp: Pick<LoadedExperiment, 'providers' | 'prices' | 'transformer' | 'judges'>,
  tasks: readonly Task[],
  note: string,
  standIns: ReadonlySet<string> = new Set(),
): CostEstimate {
  const endpoints = endpointIds(exp.providers);
  const isDone = db.prepare("SELECT 1 FROM requests WHERE hash = ? AND status = 'done'").pluck();
  const rows = new Map<string, EstimateRow>();
  const lanes = new Map<string, { cfg: ProviderConfig; calls: number; tokens: number; transform: boolean }>();
  for (const t of tasks) {
    const judge = t.stage === 'judge' ? exp.judges.find((j) => j.label === t.meta.judge)! : undefined;
    const kind = t.stage === 'transform' ? 'transform' : (t.meta as JudgeTask['meta']).kind;
    const label = judge?.label ?? 'transformer';
    const key = `${label}\u0000${kind}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        role: judge ? 'judge' : 'transformer',
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
      };
      rows.set(key, row);
    }
    row.calls++;
    const endpoint = endpoints.get(t.request.provider)!;
    if (!usesStandIn(t, standIns) && isDone.get(requestHash(endpoint, t.request))) {
      row.cachedCalls++;
      continue;
    }
    const input = estimateInputTokens(t.request);
    const output =
      t.stage === 'transform'
        ? Math.round(
            TRANSLATION_EXPANSION *
              estimateInputTokens({ ...t.request, system: undefined, response: { name: 'x', schema: {} } }) *
              0.9,
          )
        : VERDICT_OUTPUT_TOKENS;
    const cost = costOf(
      t.request.model,
      { inputTokens: input, outputTokens: output, cachedInputTokens: 0 },
      exp.prices,
    );
    row.inputTokens += input;
    row.outputTokens += output;
    row.costUsd += cost.usd;
    row.priced &&= cost.priced;
    const laneKey = `${endpoint}\u0000${t.request.model}\u0000${t.stage}`;
    const lane = lanes.get(laneKey) ?? {
      cfg: exp.providers[t.request.provider],
      calls: 0,
      tokens: 0,
      transform: t.stage === 'transform',
    };
    lane.calls++;
    lane.tokens += input + output;
    lanes.set(laneKey, lane);
  }
  const minutesOf = (l: { cfg: ProviderConfig; calls: number; tokens: number }) => {
    const byRpm = l.cfg.rpm ? l.calls / l.cfg.rpm : 0;
    const byTpm = l.cfg.tpm ? l.tokens / l.cfg.tpm : 0;
    const byConcurrency = l.cfg.rpm
      ? 0
      : (l.calls * ASSUMED_SECONDS_PER_CALL) / 60 / (l.cfg.concurrency ?? DEFAULT_CONCURRENCY);
    return Math.max(byRpm, byTpm, byConcurrency);
  };
  // Transforms run before judging; within a phase the lanes run side by side.
  const all = [...lanes.values()];
  const phaseMinutes = (transform: boolean) =>
    Math.max(0, ...all.filter((l) => l.transform === transform).map(minutesOf));
  const list = [...rows.values()];
  const unpriced = [...new Set(list.filter((r) => !r.priced).map((r) => r.model))];
  return {
    rows: list,
    calls: list.reduce((n, r) => n + r.calls, 0),
    cachedCalls: list.reduce((n, r) => n + r.cachedCalls, 0),
    inputTokens: list.reduce((n, r) => n + r.inputTokens, 0),
    outputTokens: list.reduce((n, r) => n + r.outputTokens, 0),
    costUsd: list.reduce((n, r) => n + r.costUsd, 0),
    unpricedModels: unpriced,
    minutesAtRateLimits: phaseMinutes(true) + phaseMinutes(false),
    note,
  };
}
