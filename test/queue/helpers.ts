import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderConfig } from '../../src/main/providers/config';
import type { ChatRequestSpec, ResponseSchema } from '../../src/main/providers/types';
import { openDatabase, type Database } from '../../src/main/store/db';

export const VERDICT: ResponseSchema = {
  name: 'pairwise_verdict',
  description: 'Which output is better',
  schema: {
    type: 'object',
    properties: {
      winner: { type: 'string', enum: ['A', 'B', 'tie'] },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      reason: { type: 'string' },
    },
    required: ['winner', 'confidence', 'reason'],
    additionalProperties: false,
  },
};

export function verdictSpec(i: number, provider = 'mock', model = 'mock-model'): ChatRequestSpec {
  return {
    provider,
    model,
    system: 'You are a careful judge.',
    messages: [{ role: 'user', content: `Compare the outputs of item ${i}.` }],
    temperature: 0,
    maxOutputTokens: 200,
    response: VERDICT,
  };
}

export interface TempDb {
  db: Database;
  file: string;
  dir: string;
  cleanup(): void;
}

export function tempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'judge-lab-queue-'));
  const file = join(dir, 'judge-lab.sqlite');
  const db = openDatabase(file);
  return {
    db,
    file,
    dir,
    cleanup() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function openaiMock(url: string, extra: Partial<ProviderConfig> = {}): ProviderConfig {
  return { kind: 'openai', baseURL: `${url}/v1`, timeoutMs: 2000, ...extra };
}

export function anthropicMock(url: string, extra: Partial<ProviderConfig> = {}): ProviderConfig {
  return { kind: 'anthropic', baseURL: url, timeoutMs: 2000, ...extra };
}

/** A key store handing out fixed keys, as the Electron door's safeStorage store would. */
export function fixedKeys(key: string) {
  return { get: () => key };
}

/** Fast retries for tests: the policy is the same, only the clock is shorter. */
export const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20, probeBaseMs: 20, probeMaxMs: 100 };
