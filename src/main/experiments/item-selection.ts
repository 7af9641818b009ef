// Which items of the dataset an experiment uses, for every protocol: optionally only some
// subsets, then the first N (`limit`) or a random sample of N (`sample: "random"`, `seed`).
// The random sample is drawn before the protocol's own `selectItems` (its checks and filters,
// e.g. reference sensitivity's `languages`), the first-N slice after it (`firstItems`), so a
// protocol never slices items itself.
// The random sample is reproducible anywhere: an item is in it when its hash with the seed is
// among the N smallest, so the same config picks the same items in the app and the CLI. The
// chosen items keep the dataset's order.
import { createHash } from 'node:crypto';
import type { Item } from '../../shared/domain';
import { AppError } from '../base/errors';
import type { BaseConfig } from '../protocols/plugin';

export type SelectionConfig = Pick<BaseConfig, 'limit' | 'sample' | 'seed' | 'subsets'>;

function rank(seed: number, sourceId: string): string {
  return createHash('sha256').update(`${seed}\u0000${sourceId}`).digest('hex');
}

/** The items before the protocol sees them; an unknown subset is an error naming the known ones. */
export function selectDatasetItems(items: readonly Item[], config: SelectionConfig): Item[] {
  let pool = [...items];
  if (config.subsets?.length) {
    const known = new Set(items.map((i) => i.subset ?? ''));
    const unknown = config.subsets.filter((s) => !known.has(s));
    if (unknown.length) {
      const have = [...known].filter(Boolean);
      throw new AppError(
        'invalid_input',
        `subsets: no item is in ${unknown.map((s) => `"${s}"`).join(', ')} (the dataset has: ${have.join(', ') || 'no subsets'})`,
        [{ file: 'config', field: 'subsets', message: `unknown subset ${unknown.join(', ')}` }],
      );
    }
    const wanted = new Set(config.subsets);
    pool = pool.filter((i) => wanted.has(i.subset ?? ''));
  }
  if (config.sample === 'random' && config.limit !== undefined && config.limit < pool.length) {
    const seed = config.seed ?? 0;
    const chosen = new Set(
      pool
        .map((i) => ({ id: i.sourceId, r: rank(seed, i.sourceId) }))
        .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
        .slice(0, config.limit)
        .map((x) => x.id),
    );
    pool = pool.filter((i) => chosen.has(i.sourceId));
  }
  return pool;
}

/** The first `limit` items (all without a limit): applied after the protocol's own selection. */
export function firstItems(items: readonly Item[], config: Pick<BaseConfig, 'limit'>): Item[] {
  return config.limit === undefined ? [...items] : items.slice(0, config.limit);
}
