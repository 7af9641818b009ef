// The model part of a request every study plans the same way from a config entry, so that two
// studies asking the same model the same question send (and hash, and reuse) the same request.
import type { ChatRequestSpec } from '../providers/types';

/** The fields of a config entry a request reads: who, how hot, how long. */
export interface ModelRequestEntry {
  provider: string;
  model: string;
  temperature?: number | null;
  maxOutputTokens?: number;
}

export type ModelRequest = Pick<ChatRequestSpec, 'provider' | 'model' | 'temperature' | 'maxOutputTokens'>;

/**
 * An entry's provider, model, temperature and output cap. Temperature left out of the config means
 * 0 (reproducible by default); `null` sends none, for models that refuse the parameter. The
 * study's cap for this kind of call applies unless the entry sets its own.
 */
export function modelRequest(m: ModelRequestEntry, maxTokens: number): ModelRequest {
  const temperature = m.temperature === undefined ? 0 : m.temperature;
  return {
    provider: m.provider,
    model: m.model,
    ...(temperature === null ? {} : { temperature }),
    maxOutputTokens: m.maxOutputTokens ?? maxTokens,
  };
}
