import { create } from 'zustand';
import type { Item } from '../../../shared/domain';
import { ApiError, getApi, toApiError } from '../api';

interface ItemState {
  itemId: number | null;
  item: Item | null;
  error: ApiError | null;
  show(itemId: number): Promise<void>;
}

/** The item open in the viewer; the previous one stays on screen until the next arrives. */
export const useItem = create<ItemState>((set, get) => ({
  itemId: null,
  item: null,
  error: null,
  async show(itemId) {
    set({ itemId, error: null });
    try {
      const item = await getApi().call('items.get', { itemId });
      if (get().itemId === itemId) set({ item });
    } catch (err) {
      if (get().itemId === itemId) set({ item: null, error: toApiError(err) });
    }
  },
}));
