import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli';

/**
 * The team's shared test data (../shared/data beside the checkout, as CI lays it out).
 * LLMBar also ships in resources/samples byte for byte, which stands in when it is absent.
 */
export function llmbarPath(): string {
  const shared = join(ROOT, '..', 'shared', 'data', 'llmbar', 'llmbar.jsonl');
  return existsSync(shared) ? shared : join(ROOT, 'resources', 'samples', 'llmbar.jsonl');
}
