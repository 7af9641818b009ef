import { create } from 'zustand';
import type { ImportResult } from '../../../shared/domain';
import { ApiError, getApi, toApiError } from '../api';
import { bytesToBase64, readFileBytes } from '../api/base64';
import { useDatasets } from './datasets';

export type ImportPhase =
  | { kind: 'idle' }
  | { kind: 'reading'; file: string }
  | { kind: 'encoding'; file: string; fraction: number }
  | { kind: 'importing'; file: string }
  | { kind: 'sample' };

export type ImportOutcome =
  | { kind: 'imported'; file: string; result: ImportResult }
  | { kind: 'failed'; file: string; error: ApiError };

interface ImportState {
  phase: ImportPhase;
  outcome: ImportOutcome | null;
  importFile(file: File): Promise<void>;
  loadSample(sampleId: string): Promise<void>;
  /** Shows a problem found before anything was sent (e.g. several files dropped). */
  reject(file: string, message: string): void;
  dismiss(): void;
}

export const useImport = create<ImportState>((set, get) => ({
  phase: { kind: 'idle' },
  outcome: null,

  async importFile(file) {
    if (get().phase.kind !== 'idle') return;
    const name = file.name;
    set({ phase: { kind: 'reading', file: name }, outcome: null });
    try {
      const bytes = await readFileBytes(file);
      set({ phase: { kind: 'encoding', file: name, fraction: 0 } });
      const contentBase64 = await bytesToBase64(bytes, (fraction) =>
        set({ phase: { kind: 'encoding', file: name, fraction } }),
      );
      set({ phase: { kind: 'importing', file: name } });
      const result = await getApi().call('datasets.import', { fileName: name, contentBase64 });
      set({ phase: { kind: 'idle' }, outcome: { kind: 'imported', file: name, result } });
      void useDatasets.getState().refresh();
    } catch (err) {
      set({ phase: { kind: 'idle' }, outcome: { kind: 'failed', file: name, error: toApiError(err) } });
    }
  },

  async loadSample(sampleId) {
    if (get().phase.kind !== 'idle') return;
    set({ phase: { kind: 'sample' }, outcome: null });
    try {
      const result = await getApi().call('datasets.loadSample', { sampleId });
      set({
        phase: { kind: 'idle' },
        outcome: { kind: 'imported', file: result.dataset.sourceFile, result },
      });
      void useDatasets.getState().refresh();
    } catch (err) {
      set({ phase: { kind: 'idle' }, outcome: { kind: 'failed', file: sampleId, error: toApiError(err) } });
    }
  },

  reject(file, message) {
    set({ outcome: { kind: 'failed', file, error: new ApiError('invalid_input', message) } });
  },

  dismiss() {
    set({ outcome: null });
  },
}));
