// Usage per model role, as every protocol's metrics.json carries it (`usage`), and the plain
// "Usage and cost" table of the report kit (protocols with their own totals build their own).
import { countColumns } from './columns';
import { col, type Table } from './table';

/** Usage per model role (metrics.json `usage`). */
export interface UsageRow {
  role: string;
  judge: string;
  model: string;
  calls: number;
  cache_hits: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  /** Prompt-cache writes (Anthropic), billed at the cache-write price. */
  cache_write_tokens: number;
  cost_usd: number;
}

/** Calls, tokens and cost per model role, one row each. */
export function usageTable(rows: readonly UsageRow[]): Table {
  return {
    id: 'usage',
    title: 'Usage and cost',
    caption: 'Calls, tokens and cost per model role.',
    columns: [
      col('role', 'Role', 'text'),
      col('judge', 'Model label', 'text'),
      col('model', 'Model', 'text'),
      ...countColumns({ calls: 'Calls', input_tokens: 'Input tokens', output_tokens: 'Output tokens' }),
      col('cost_usd', 'Cost', 'usd'),
    ],
    rows: rows.map((r) => ({ ...r })),
  };
}
