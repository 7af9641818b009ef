import { AnthropicChatAdapter } from './anthropic';
import type { ProviderConfig } from './config';
import { OpenAIChatAdapter } from './openai';
import type { ChatAdapter } from './types';

export function createAdapter(cfg: ProviderConfig, apiKey: string): ChatAdapter {
  return cfg.kind === 'anthropic'
    ? new AnthropicChatAdapter(cfg, apiKey)
    : new OpenAIChatAdapter(cfg, apiKey);
}
