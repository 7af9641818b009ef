import { AnthropicBatchAdapter } from './batch-anthropic';
import { OpenAIBatchAdapter } from './batch-openai';
import type { BatchAdapter } from './batch-types';
import type { ProviderConfig } from './config';
import { SimulatedBatchAdapter } from './simulated/batch';

/** The batch client of a provider, or undefined for kinds without a Batch API (recorded). */
export function createBatchAdapter(cfg: ProviderConfig, apiKey: string): BatchAdapter | undefined {
  if (cfg.kind === 'anthropic') return new AnthropicBatchAdapter(cfg, apiKey);
  if (cfg.kind === 'openai') return new OpenAIBatchAdapter(cfg, apiKey);
  if (cfg.kind === 'simulated') return new SimulatedBatchAdapter(cfg);
  return undefined;
}
