// The bias profile's cells open the paired differences behind them (issue 26 item 4): for every
// row of `bias_profile`, with and without the flagged items, the verdicts the cell's filter
// selects are exactly n, and their changes (a score, or the worse response's win score) average to
// the row's mean difference.
// Simulated provider through the core; the rows are matched as the browser matches them.
import { describe, expect, it } from 'vitest';
import type { Table } from '../../../src/shared/report/table';
import { matchVerdicts, rowFilter } from '../../../src/shared/verdicts';
import { useSampleCore } from '../../helpers/sample-core';

const sample = useSampleCore('llmbar');

const config = (mode: 'pointwise' | 'pairwise') => ({
  name: `bias-verdicts-${mode}`,
  protocol: 'bias-probes',
  dataset: 'LLMBar (sample)',
  limit: 16,
  providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
  rewriter: { provider: 'sim', model: 'sim-rewriter' },
  judges: [
    { label: 'Sim A', provider: 'sim', model: 'sim-judge' },
    { label: 'Sim B', provider: 'sim', model: 'sim-judge-weak' },
  ],
  mode,
});

describe.each(['pointwise', 'pairwise'] as const)('bias profile cells, %s', (mode) => {
  it('open exactly the n paired differences behind each row', async () => {
    const { id } = await sample.core.call('experiments.create', { config: config(mode) });
    expect((await sample.core.experiments.runToEnd(id)).status).toBe('finished');
    const { links } = await sample.core.call('experiments.verdictLinks', { experimentId: id });
    const link = links.find((l) => l.table === 'bias_profile')!;
    expect(link).toBeDefined();
    for (const excludeFlagged of [false, true]) {
      const results = await sample.core.call('experiments.results', { experimentId: id, excludeFlagged });
      const table = results.tables.find((t: Table) => t.id === 'bias_profile')!;
      const { rows } = await sample.core.call('experiments.verdicts', { experimentId: id, excludeFlagged });
      // One category in the slice: its rows once (no "all" copy), one per effect.
      expect(table.rows.length).toBeGreaterThanOrEqual(2);
      for (const row of table.rows) {
        const filter = rowFilter(link, row)!;
        const behind = matchVerdicts(rows, filter);
        expect(behind.length, JSON.stringify(filter)).toBe(row.n);
        expect(behind.every((v) => v.reason.length > 0)).toBe(true);
        {
          const diffs = behind.map((v) => {
            const [before, after] = v.verdict.split(' → ').map(Number);
            return after - before;
          });
          const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
          expect(mean.toFixed(3), JSON.stringify(filter)).toBe(row.mean);
        }
      }
    }
  }, 180_000);
});
