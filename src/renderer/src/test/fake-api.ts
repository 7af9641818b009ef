import type { ApiClient, ApiEvents, EventName, MethodName, ParamsOf } from '../../../shared/api';
import type { DatasetSummary, ImportResult, Item, ItemRow } from '../../../shared/domain';
import type {
  CostEstimate,
  EstimateRow,
  ExperimentDetail,
  ExperimentProgress,
  ExperimentSummary,
  FailedCallView,
  PhaseProgress,
} from '../../../shared/experiments';
import { ApiError } from '../api/errors';
import { listRendererProtocols } from '../protocols/registry';

/** A handler sees its method's typed params; it may answer with a partial result. */
type Handlers = { [M in MethodName]?: (params: ParamsOf<M>) => unknown };

/**
 * An in-memory ApiClient for page tests: it stands in for the transport (IPC/HTTP),
 * records every call, and answers from handlers the test provides.
 */
export class FakeApi implements ApiClient {
  readonly calls: { method: MethodName; params: unknown }[] = [];
  private readonly listeners = new Map<EventName, Set<(p: unknown) => void>>();

  constructor(private readonly handlers: Handlers) {}

  async call<M extends MethodName>(method: M, ...params: unknown[]): Promise<never> {
    this.calls.push({ method, params: params[0] });
    const h = this.handlers[method] as ((p: unknown) => unknown) | undefined;
    if (!h) throw new ApiError('internal', `FakeApi: no handler for ${method}`);
    return (await h(params[0])) as never;
  }

  on<E extends EventName>(event: E, listener: (payload: ApiEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (p: unknown) => void);
    return () => set.delete(listener as (p: unknown) => void);
  }

  emit<E extends EventName>(event: E, payload: ApiEvents[E]): void {
    this.listeners.get(event)?.forEach((l) => l(payload));
  }
}

/**
 * A handler of `experiments.protocolView` that answers each view the test names (its query as
 * the argument); a view it does not name fails as the core does.
 */
export function protocolViews(
  views: Record<string, (query: Record<string, unknown>) => unknown>,
): (p: ParamsOf<'experiments.protocolView'>) => unknown {
  return ({ view, query }) => {
    const answer = views[view];
    if (!answer) throw new ApiError('invalid_params', `FakeApi: no "${view}" view`);
    return answer(query ?? {});
  };
}

export function summary(over: Partial<DatasetSummary> = {}): DatasetSummary {
  return {
    id: 1,
    name: 'LLMBar (sample)',
    sourceFile: 'llmbar.jsonl',
    format: 'llmbar-jsonl',
    contentHash: 'h',
    itemCount: 3,
    subsets: [
      { subset: 'Natural', count: 2 },
      { subset: 'Adversarial', count: 1 },
    ],
    createdAt: '2025-01-02T03:04:05.000Z',
    ...over,
  };
}

export const ITEMS: Item[] = [1, 2, 3].map((n) => ({
  id: n,
  datasetId: 1,
  sourceId: `X-00${n}`,
  position: n,
  subset: n === 3 ? 'Adversarial' : 'Natural',
  instruction: `Instruction ${n}`,
  output1: `First ${n}`,
  output2: `Second ${n}`,
  label: n === 2 ? 2 : 1,
}));

export function rowsOf(items: Item[]): ItemRow[] {
  return items.map((i) => ({
    id: i.id,
    sourceId: i.sourceId,
    subset: i.subset,
    label: i.label,
    instructionPreview: i.instruction,
  }));
}

export function imported(dataset: DatasetSummary, duplicate = false): ImportResult {
  return { dataset, duplicate };
}

const NO_PHASE: PhaseProgress = { total: 0, done: 0, failed: 0, cacheHits: 0, inFlight: 0, pending: 0 };

export function phase(over: Partial<PhaseProgress> = {}): PhaseProgress {
  return { ...NO_PHASE, ...over };
}

export function progress(over: Partial<ExperimentProgress> = {}): ExperimentProgress {
  return {
    experimentId: 7,
    status: 'running',
    phase: 'transform',
    stages: ['transform', 'judge'],
    phases: { transform: phase({ total: 6, pending: 6 }), judge: phase({ total: 48, pending: 48 }) },
    judges: { 'gpt-4.1-mini': phase({ total: 48, pending: 48 }) },
    callsPerMinute: 0,
    etaSeconds: null,
    tokens: { input: 0, output: 0, cached: 0 },
    costUsd: 0,
    failuresByReason: {},
    pausedLanes: [],
    message: null,
    updatedAt: '2025-01-02T03:04:05.000Z',
    ...over,
  };
}

export function experimentSummary(over: Partial<ExperimentSummary> = {}): ExperimentSummary {
  return {
    id: 7,
    name: 'LLMBar (sample) 2025-01-02',
    // The protocol the wizard would preselect (the first registered), so this generic fixture
    // names none; a test about another protocol says so with `protocol`.
    protocol: listRendererProtocols()[0]?.id ?? 'none-registered',
    datasetId: 1,
    datasetName: 'LLMBar (sample)',
    status: 'running',
    judges: ['gpt-4.1-mini'],
    itemCount: 3,
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    counts: { planned: 54, done: 0, failed: 0 },
    simulated: false,
    ...over,
  };
}

export function experimentDetail(over: Partial<ExperimentDetail> = {}): ExperimentDetail {
  return { ...experimentSummary(), config: {}, keys: { openai: 'set' }, ...over };
}

export function estimateOf(rows: EstimateRow[], over: Partial<CostEstimate> = {}): CostEstimate {
  const sum = (k: 'calls' | 'cachedCalls' | 'inputTokens' | 'outputTokens' | 'costUsd') =>
    rows.reduce((a, r) => a + r[k], 0);
  return {
    rows,
    calls: sum('calls'),
    cachedCalls: sum('cachedCalls'),
    inputTokens: sum('inputTokens'),
    outputTokens: sum('outputTokens'),
    costUsd: sum('costUsd'),
    unpricedModels: [...new Set(rows.filter((r) => !r.priced).map((r) => r.model))],
    minutesAtRateLimits: 3,
    note: 'Judge calls are estimated from the English texts.',
    ...over,
  };
}

/** A failed call as `experiments.failures` lists it (default: an unparseable verdict). */
export function failedCall(over: Partial<FailedCallView> = {}): FailedCallView {
  return {
    stage: 'judge',
    judge: 'gpt-4.1-mini',
    sourceId: 'X-001',
    itemId: 1,
    language: 'EN',
    order: 'orig',
    kind: 'quality',
    reason: 'unparseable answer',
    rawText: null,
    attempts: 3,
    ...over,
  };
}
