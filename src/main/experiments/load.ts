// Turns a stored experiment into what the protocol needs: options, items, judges.
import type { Item } from '../../shared/domain';
import { AppError } from '../core/errors';
import { judgeLsOptionsSchema, type JudgeLsOptions } from '../protocols/judge-ls/config';
import type { JudgeSpec, TransformerSpec } from '../protocols/judge-ls/model';
import { selectItems } from '../protocols/judge-ls/plan';
import { endpointId, type ProviderConfig } from '../providers/config';
import { DEFAULT_PRICES, mergePrices, type PriceTable } from '../providers/pricing';
import { allItems } from '../store/datasets';
import type { Database } from '../store/db';
import { getExperiment, type ExperimentRow } from '../store/experiments';
import { parseExperimentConfig, protocolOptionsOf, type ExperimentConfig } from './config';

export interface LoadedExperiment {
  row: ExperimentRow;
  config: ExperimentConfig;
  options: JudgeLsOptions;
  items: Item[];
  transformer: TransformerSpec;
  judges: JudgeSpec[];
  providers: Record<string, ProviderConfig>;
  prices: PriceTable;
}

export function resolveOptions(config: ExperimentConfig): JudgeLsOptions {
  return judgeLsOptionsSchema.parse(protocolOptionsOf(config));
}

export function specsOf(config: ExperimentConfig): { transformer: TransformerSpec; judges: JudgeSpec[] } {
  const t = config.transform;
  return {
    transformer: {
      provider: t.provider,
      model: t.model,
      ...(t.temperature !== undefined ? { temperature: t.temperature } : {}),
      ...(t.maxOutputTokens !== undefined ? { maxOutputTokens: t.maxOutputTokens } : {}),
    },
    judges: config.judges.map((j) => ({
      label: j.label,
      provider: j.provider,
      model: j.model,
      ...(j.temperature !== undefined ? { temperature: j.temperature } : {}),
      ...(j.maxOutputTokens !== undefined ? { maxOutputTokens: j.maxOutputTokens } : {}),
    })),
  };
}

/**
 * The shipped table with the config's prices. An edited model's entry is replaced whole, so
 * shipped batch or cached prices of the old entry never mix with the user's new ones.
 */
export function pricesOf(config: ExperimentConfig): PriceTable {
  if (!config.prices) return DEFAULT_PRICES;
  const replaced = Object.fromEntries(
    Object.entries(config.prices).map(([model, p]) => [
      model,
      {
        input: p.input,
        output: p.output,
        cachedInput: p.cachedInput ?? p.input,
        batchInput: p.batchInput,
        batchOutput: p.batchOutput,
      },
    ]),
  );
  const base = Object.fromEntries(
    Object.entries(DEFAULT_PRICES).filter(([m]) => !Object.hasOwn(replaced, m)),
  );
  return mergePrices(base, replaced);
}

/** Endpoint identity of each provider name (what the ledger hashes on). */
export function endpointIds(providers: Record<string, ProviderConfig>): Map<string, string> {
  return new Map(Object.entries(providers).map(([name, cfg]) => [name, endpointId(cfg)]));
}

export function loadExperiment(db: Database, experimentId: number): LoadedExperiment {
  const row = getExperiment(db, experimentId);
  if (!row) throw new AppError('not_found', `No experiment with id ${experimentId}`);
  const config = parseExperimentConfig(JSON.parse(row.configJson), `experiment "${row.name}"`);
  const options = resolveOptions(config);
  const items = selectItems(allItems(db, row.datasetId), options);
  return {
    row,
    config,
    options,
    items,
    ...specsOf(config),
    providers: config.providers,
    prices: pricesOf(config),
  };
}
