// Anthropic prompt-cache writes through a whole Judge-LS run: recorded per call in the ledger,
// summed per role in the usage table beside the cache reads, priced at the cache-write price,
// and exported as their own column.
import { afterEach, describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES } from '../../src/main/providers/pricing';
import { tableToCsv } from '../../src/main/report/csv';
import { buildTables } from '../../src/shared/protocols/judge-ls/report/tables';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('prompt-cache writes in the usage table', () => {
  it('are summed per role from the ledger, priced at the cache-write price and exported beside cached reads', async () => {
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId } = env;
    // The mock caches any system prompt (the judge's short rubric here): written once, then read.
    mock.setBehavior({ promptCacheMinTokens: 1 });
    const { id } = await core.call('experiments.create', {
      config: {
        name: 'cache-writes',
        protocol: 'judge-ls',
        dataset: datasetId,
        limit: 3,
        providers: {
          o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' },
          a: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_API_KEY' },
        },
        transform: { provider: 'o', model: 'gpt-4.1-mini' },
        judges: [{ label: 'Claude', provider: 'a', model: 'claude-haiku-4-5' }],
      },
    });
    const end = await core.experiments.runToEnd(id);
    expect(end.status).toBe('finished');
    const ledger = core.db
      .prepare(
        `SELECT r.input_tokens AS input, r.output_tokens AS output, r.cached_tokens AS cached,
                r.cache_write_tokens AS writes, r.cost_usd AS cost
         FROM requests r WHERE r.model = 'claude-haiku-4-5' AND r.status = 'done'`,
      )
      .all() as { input: number; output: number; cached: number; writes: number; cost: number }[];
    const writes = ledger.reduce((n, r) => n + r.writes, 0);
    expect(writes).toBeGreaterThan(0);
    expect(ledger.reduce((n, r) => n + r.cached, 0)).toBeGreaterThan(0);
    // Each call's spend prices its writes at 1.25 × input (the shipped cacheWrite price).
    const p = DEFAULT_PRICES['claude-haiku-4-5'];
    for (const r of ledger)
      expect(r.cost).toBeCloseTo(
        ((r.input - r.cached - r.writes) * p.input +
          r.writes * p.cacheWrite! +
          r.cached * p.cachedInput +
          r.output * p.output) /
          1e6,
        12,
      );

    const results = await core.call('experiments.results', { experimentId: id });
    const metrics = results.metrics as JudgeLsMetrics;
    const claude = metrics.usage.find((u) => u.model === 'claude-haiku-4-5')!;
    expect(claude.cache_write_tokens).toBe(writes);
    expect(metrics.usage.find((u) => u.role === 'transformer')!.cache_write_tokens).toBe(0);

    const usage = buildTables(metrics).find((t) => t.id === 'usage')!;
    const cols = usage.columns.map((c) => c.key);
    expect(cols.indexOf('cache_write_tokens')).toBe(cols.indexOf('cached_input_tokens') + 1);
    expect(usage.footer?.[0].cache_write_tokens).toBe(writes);
    const csv = tableToCsv(usage)
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    const header = csv[0].split(',');
    expect(header).toContain('Cache writes');
    const claudeLine = csv.find((l) => l.includes('claude-haiku-4-5'))!.split(',');
    expect(claudeLine[header.indexOf('Cache writes')]).toBe(String(writes));
  });

  it('a price entry without a cache-write price bills writes at 1.25 × input (live and batch)', () => {
    const table = { m: { input: 2, cachedInput: 0.2, output: 8 } };
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 0,
      cachedInputTokens: 0,
      cacheWriteTokens: 400_000,
    };
    expect(costOf('m', usage, table).usd).toBeCloseTo(0.6 * 2 + 0.4 * 2.5, 9);
    expect(costOf('m', usage, table, { batch: true }).usd).toBeCloseTo(0.6 * 1 + 0.4 * 1.25, 9);
    const own = { m: { ...table.m, cacheWrite: 3 } };
    expect(costOf('m', usage, own).usd).toBeCloseTo(0.6 * 2 + 0.4 * 3, 9);
  });
});
