import type { ApiClient, ApiEvents, EventName, MethodName } from '../../../shared/api';
import type { DatasetSummary, ImportResult, Item, ItemRow } from '../../../shared/domain';
import { ApiError } from '../api/errors';

type Handler = (params: unknown) => unknown;

/**
 * An in-memory ApiClient for page tests: it stands in for the transport (IPC/HTTP),
 * records every call, and answers from handlers the test provides.
 */
export class FakeApi implements ApiClient {
  readonly calls: { method: MethodName; params: unknown }[] = [];
  private readonly listeners = new Map<EventName, Set<(p: unknown) => void>>();

  constructor(private readonly handlers: Partial<Record<MethodName, Handler>>) {}

  async call<M extends MethodName>(method: M, ...params: unknown[]): Promise<never> {
    this.calls.push({ method, params: params[0] });
    const h = this.handlers[method];
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
