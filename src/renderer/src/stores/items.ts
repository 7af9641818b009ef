import { create } from 'zustand';
import type { ItemRow } from '../../../shared/domain';
import { ApiError, getApi, toApiError } from '../api';

/** The filter of the item table. subset: null = all subsets, '' = items without a subset. */
export interface ItemFilter {
  subset: string | null;
  search: string;
}

interface ItemsState {
  datasetId: number | null;
  filter: ItemFilter;
  rows: ItemRow[];
  /** The rows belong to datasetId + filter (not a stale answer for an older query). */
  loaded: boolean;
  loading: boolean;
  error: ApiError | null;
  /** Keyboard cursor in the table, kept so returning from an item lands on the same row. */
  activeIndex: number;
  open(datasetId: number): void;
  setFilter(patch: Partial<ItemFilter>): void;
  setActiveIndex(i: number): void;
  reload(): Promise<void>;
}

const NO_FILTER: ItemFilter = { subset: null, search: '' };
let loadSeq = 0;

export const useItems = create<ItemsState>((set, get) => ({
  datasetId: null,
  filter: NO_FILTER,
  rows: [],
  loaded: false,
  loading: false,
  error: null,
  activeIndex: 0,

  open(datasetId) {
    const s = get();
    if (s.datasetId === datasetId) {
      // Same dataset again (e.g. back from the item viewer): keep filter and cursor,
      // and fetch only if the kept rows were dropped.
      if (!s.loaded && !s.loading) void s.reload();
      return;
    }
    set({ datasetId, filter: NO_FILTER, rows: [], loaded: false, error: null, activeIndex: 0 });
    void get().reload();
  },

  setFilter(patch) {
    set((s) => ({ filter: { ...s.filter, ...patch }, activeIndex: 0 }));
    void get().reload();
  },

  setActiveIndex(i) {
    set({ activeIndex: i });
  },

  async reload() {
    const { datasetId, filter } = get();
    if (datasetId === null) return;
    const seq = ++loadSeq;
    set({ loading: true });
    const params: { datasetId: number; subset?: string; search?: string } = { datasetId };
    if (filter.subset !== null) params.subset = filter.subset;
    if (filter.search.trim()) params.search = filter.search.trim();
    try {
      const rows = await getApi().call('items.list', params);
      if (seq !== loadSeq) return;
      set((s) => ({
        rows,
        loaded: true,
        loading: false,
        error: null,
        activeIndex: Math.min(s.activeIndex, Math.max(0, rows.length - 1)),
      }));
    } catch (err) {
      if (seq === loadSeq) set({ loading: false, loaded: true, error: toApiError(err) });
    }
  },
}));

/**
 * Drops kept rows when their dataset changes elsewhere: SQLite may reuse a deleted
 * dataset's id, and a kept list would then show the old items under the new name.
 */
export function subscribeToItemInvalidation(): () => void {
  return getApi().on('datasets.changed', ({ datasetId }) => {
    const s = useItems.getState();
    if (s.datasetId !== null && (datasetId === null || datasetId === s.datasetId)) {
      useItems.setState({ rows: [], loaded: false, loading: false });
    }
  });
}
