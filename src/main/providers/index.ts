import { AnthropicChatAdapter } from './anthropic';
import type { ProviderConfig } from './config';
import { OpenAIChatAdapter } from './openai';
import { SimulatedChatAdapter } from './simulated/adapter';
import type { ChatAdapter } from './types';

export function createAdapter(cfg: ProviderConfig, apiKey: string): ChatAdapter {
  if (cfg.kind === 'simulated') return new SimulatedChatAdapter(cfg);
  return cfg.kind === 'anthropic'
    ? new AnthropicChatAdapter(cfg, apiKey)
    : new OpenAIChatAdapter(cfg, apiKey);
}
