// Models a provider's "Test connection" listed, per provider name: the model fields offer them
// (a datalist) instead of leaving the person to type a name the server just told us.
import { create } from 'zustand';

export const useListedModels = create<{
  byProvider: Record<string, string[]>;
  setListed: (provider: string, models: string[]) => void;
}>((set) => ({
  byProvider: {},
  setListed: (provider, models) => set((s) => ({ byProvider: { ...s.byProvider, [provider]: models } })),
}));

/** The preset's suggestions, then what the server listed (each once). */
export function useModelSuggestions(provider: string, preset: readonly string[]): string[] {
  const listed = useListedModels((s) => s.byProvider[provider]);
  return [...new Set([...preset, ...(listed ?? [])])];
}
