// The engine's lanes (one per endpoint + model) and what serves each: the configured provider,
// its client, and its limits with a judge's overrides. Pausing a lane is announced from here.
import {
  endpointId,
  isBatchMode,
  missingKeyMessage,
  type KeyStore,
  type ProviderConfig,
} from '../providers/config';
import type { ChatAdapter, ChatRequestSpec } from '../providers/types';
import { specFromStored, type PlanRow } from '../store/ledger';
import { modelLimitKey, type EngineLogger, type PausedEvent } from './engine-types';
import { Lane, laneKey, laneLimits, type LaneLimits } from './lane';
import type { Unit } from './run-state';

export interface LaneRegistryOptions {
  providers: Record<string, ProviderConfig>;
  keys: KeyStore;
  modelLimits: Record<string, Partial<LaneLimits>>;
  makeAdapter: (cfg: ProviderConfig, apiKey: string, providerName: string) => ChatAdapter;
  now: () => number;
  logger: EngineLogger;
  onPaused: (e: PausedEvent) => void;
}

function definedOnly(o: Partial<LaneLimits> | undefined): Partial<LaneLimits> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined));
}

export class LaneRegistry {
  private readonly byKey = new Map<string, Lane<Unit>>();
  /** Which configured provider (name, config, client) serves each lane. */
  private readonly laneProvider = new WeakMap<
    Lane<Unit>,
    { name: string; cfg: ProviderConfig; adapter?: ChatAdapter }
  >();
  private readonly endpointOf = new Map<string, string>();
  private readonly adapters = new Map<string, { key: string; adapter: ChatAdapter }>();
  private readonly responses = new Map<string, NonNullable<ChatRequestSpec['response']>>();

  constructor(private readonly o: LaneRegistryOptions) {
    for (const [name, cfg] of Object.entries(o.providers)) this.endpointOf.set(name, endpointId(cfg, name));
  }

  values(): IterableIterator<Lane<Unit>> {
    return this.byKey.values();
  }

  /** The lane of a ledger row, made on first use with its provider's limits. */
  laneFor(row: PlanRow): Lane<Unit> {
    const key = laneKey(row.endpoint, row.model);
    let lane = this.byKey.get(key);
    if (!lane) {
      const name = this.providerNameFor(row.endpoint);
      const cfg = name === undefined ? undefined : this.o.providers[name];
      const override = name === undefined ? undefined : this.o.modelLimits[modelLimitKey(name, row.model)];
      const limits = cfg ? { ...laneLimits(cfg), ...definedOnly(override) } : { concurrency: 1 };
      lane = new Lane<Unit>(row.endpoint, row.model, limits, this.o.now());
      this.byKey.set(key, lane);
      if (name !== undefined && cfg) this.laneProvider.set(lane, { name, cfg });
    }
    return lane;
  }

  /** Pauses a lane that cannot send at all: no provider for its endpoint, or no key. */
  checkProvider(lane: Lane<Unit>): void {
    const p = this.laneProvider.get(lane);
    if (!p) {
      this.pause(
        lane,
        'config',
        `No provider in the config serves ${lane.endpoint}; add one with that kind and base URL.`,
      );
      return;
    }
    p.adapter = this.adapterFor(p.name, p.cfg);
    if (!p.adapter) this.pause(lane, 'auth', missingKeyMessage(p.name, p.cfg, this.o.keys));
  }

  /** The client that sends the lane's calls (none: no key). */
  adapterOf(lane: Lane<Unit>): ChatAdapter | undefined {
    return this.laneProvider.get(lane)?.adapter;
  }

  /** The configured provider of a lane, if one serves it. */
  configOf(lane: Lane<Unit>): ProviderConfig | undefined {
    return this.laneProvider.get(lane)?.cfg;
  }

  /** A stored request as the lane's provider is asked it. */
  specFor(requestJson: string, lane: Lane<Unit>): ChatRequestSpec {
    const spec = specFromStored(requestJson, this.laneProvider.get(lane)?.name ?? lane.endpoint);
    // Share one schema object per distinct schema, so compiled validators are reused.
    if (spec.response) {
      const schemaKey = JSON.stringify(spec.response);
      const shared = this.responses.get(schemaKey);
      if (shared) spec.response = shared;
      else this.responses.set(schemaKey, spec.response);
    }
    return spec;
  }

  pause(lane: Lane<Unit>, kind: string, reason: string, label?: string): void {
    if (lane.paused) return;
    lane.paused = label === undefined ? { kind, reason } : { kind, reason, label };
    this.o.logger.info(`paused ${lane.model} at ${lane.endpoint}: ${reason}`);
    this.o.onPaused({ endpoint: lane.endpoint, model: lane.model, kind, reason });
  }

  /**
   * The provider whose settings a lane of this endpoint takes: the first one sending live, since
   * a batch-mode twin listed first would otherwise hand the lane its limits and drop a live
   * provider's flex tier; the config refuses live providers on one endpoint that differ in tier.
   */
  private providerNameFor(endpoint: string): string | undefined {
    let first: string | undefined;
    for (const [name, id] of this.endpointOf) {
      if (id !== endpoint) continue;
      if (!isBatchMode(this.o.providers[name])) return name;
      first ??= name;
    }
    return first;
  }

  /** One client per provider name, rebuilt if its key changed (e.g. set in the app meanwhile). */
  private adapterFor(name: string, cfg: ProviderConfig): ChatAdapter | undefined {
    const key = this.o.keys.get(name, cfg);
    if (!key) return undefined;
    const cached = this.adapters.get(name);
    if (cached && cached.key === key) return cached.adapter;
    const adapter = this.o.makeAdapter(cfg, key, name);
    this.adapters.set(name, { key, adapter });
    return adapter;
  }
}
