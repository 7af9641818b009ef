// The LLMBar sample as the items a fresh store holds after importing it (ids and positions from
// 1, dataset 1): what the Judge-LS mock responder needs to know which output a prompt shows,
// for tests that run the CLI (their store lives in another process).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDatasetFile } from '../../src/main/import';
import type { Item } from '../../src/shared/domain';
import { ROOT } from './cli';

export const LLMBAR_SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar.jsonl');

export function llmbarSampleItems(): Item[] {
  return parseDatasetFile('llmbar.jsonl', readFileSync(LLMBAR_SAMPLE)).items.map((it, i) => ({
    ...it,
    id: i + 1,
    datasetId: 1,
    position: i + 1,
  }));
}
