import { create } from 'zustand';
import { ApiError, toApiError } from '../api';

/** A list from the core under its own name (`datasets`, `experiments`), and how it stands. */
export type ListState<K extends string, T> = { [P in K]: T[] } & {
  /** False until the first list arrives, so the empty state never flashes on start. */
  loaded: boolean;
  error: ApiError | null;
  refresh(): Promise<void>;
  remove(id: number): Promise<void>;
};

/**
 * A store of one list from the core: `refresh` reads it again (only the newest answer is
 * kept), `remove` deletes one entry through the core and then drops it here.
 */
export function createListStore<K extends string, T>(
  key: K,
  opts: { load: () => Promise<T[]>; remove: (id: number) => Promise<unknown>; idOf: (item: T) => number },
) {
  let refreshSeq = 0;
  const list = (items: T[]) => ({ [key]: items }) as { [P in K]: T[] };
  return create<ListState<K, T>>()((set, get) => {
    // The list's key is only known at run time; TypeScript cannot see that `{ [key]: items }` fits.
    const patch = (p: object) => set(p as Partial<ListState<K, T>>);
    return {
      ...list([]),
      loaded: false,
      error: null,
      async refresh() {
        // Only the newest request may write, so a slow old answer cannot overwrite a fresh one.
        const seq = ++refreshSeq;
        try {
          const items = await opts.load();
          if (seq === refreshSeq) patch({ ...list(items), loaded: true, error: null });
        } catch (err) {
          if (seq === refreshSeq) patch({ loaded: true, error: toApiError(err) });
        }
      },
      async remove(id: number) {
        await opts.remove(id);
        const items = (get() as { [P in K]: T[] })[key];
        patch(list(items.filter((x) => opts.idOf(x) !== id)));
      },
    } as ListState<K, T>;
  });
}
