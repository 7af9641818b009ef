// Turns a stored experiment into what its protocol works with: config, options, items.
import { AppError } from '../base/errors';
import { getProtocol } from '../protocols/registry';
import type { AnyProtocol, ExperimentView, ModelUse } from '../protocols/plugin';
import { endpointId, type ProviderConfig } from '../providers/config';
import { DEFAULT_PRICES, mergePrices, type PriceTable } from '../providers/pricing';
import { modelLimitKey } from '../queue/engine';
import type { LaneLimits } from '../queue/lane';
import { allItems } from '../store/datasets';
import { firstItems, selectDatasetItems } from './item-selection';
import type { Database } from '../store/db';
import { getExperiment, type ExperimentRow } from '../store/experiments';
import type { InputIssue } from '../../shared/domain';
import { parseStoredConfig, type ExperimentConfig } from './config';

export interface LoadedExperiment {
  row: ExperimentRow;
  config: ExperimentConfig;
  protocol: AnyProtocol;
  /** What the protocol's plug-in sees. */
  view: ExperimentView;
  items: ExperimentView['items'];
  providers: Record<string, ProviderConfig>;
  prices: PriceTable;
  /**
   * Fields of a stored config that a rule added since refuses (parseStoredConfig): the
   * experiment opens, but may not run until they are fixed.
   */
  configProblems: InputIssue[];
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
        cacheWrite: p.cacheWrite,
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
  return new Map(Object.entries(providers).map(([name, cfg]) => [name, endpointId(cfg, name)]));
}

/** An experiment (stored, or a draft with id 0) from its row and validated config. */
export function loadFrom(
  db: Database,
  row: ExperimentRow,
  config: ExperimentConfig,
  configProblems: InputIssue[] = [],
): LoadedExperiment {
  const protocol = getProtocol(config.protocol);
  const options = protocol.resolveOptions(config);
  // Subsets, a random sample and the first-N `limit` are chosen here, for every protocol; between
  // the sample and the limit the protocol checks and filters its items (item-selection.ts).
  const pool = selectDatasetItems(allItems(db, row.datasetId), config);
  const items = firstItems(protocol.selectItems?.(pool, options) ?? pool, config);
  const view: ExperimentView = {
    id: row.id,
    name: row.name,
    config,
    options,
    items,
    providers: config.providers,
    prices: pricesOf(config),
  };
  return {
    row,
    config,
    protocol,
    view,
    items,
    providers: view.providers,
    prices: view.prices,
    configProblems,
  };
}

export function loadExperiment(db: Database, experimentId: number): LoadedExperiment {
  const row = getExperiment(db, experimentId);
  if (!row) throw new AppError('not_found', `No experiment with id ${experimentId}`);
  const { config, problems } = parseStoredConfig(JSON.parse(row.configJson), `experiment "${row.name}"`);
  return loadFrom(db, row, config, problems);
}

/** What the experiment page and `judge-lab list` show of a stored config the run would refuse. */
export function configProblemText(problems: InputIssue[]): string | undefined {
  if (!problems.length) return undefined;
  const first = problems[0];
  return (
    `${first.field}: ${first.message}` +
    (problems.length > 1 ? ` (and ${problems.length - 1} more)` : '') +
    '. Stored by an older release: results and exports work, but it cannot run until this is fixed ' +
    '(save the config for the CLI, correct the field, and run it with judge-lab run: the same name continues this experiment).'
  );
}

/** Sending needs a config the current rules accept: a stored one they refuse must be fixed first. */
export function assertRunnable(exp: LoadedExperiment): void {
  if (!exp.configProblems.length) return;
  throw new AppError(
    'invalid_input',
    `Experiment "${exp.row.name}" cannot run: ${configProblemText(exp.configProblems)}`,
    exp.configProblems,
  );
}

/** Every model the experiment calls (the protocol says which, in which role). */
export function modelsOf(exp: Pick<LoadedExperiment, 'protocol' | 'config'>): ModelUse[] {
  return exp.protocol.models(exp.config);
}

/** The models' own rpm/tpm/concurrency, which override their provider's for that model. */
export function modelLimitsOf(
  exp: Pick<LoadedExperiment, 'protocol' | 'config'>,
): Record<string, Partial<LaneLimits>> {
  const out: Record<string, Partial<LaneLimits>> = {};
  for (const e of modelsOf(exp)) {
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
