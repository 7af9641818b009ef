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
  /** Imports the file that failed last again, with a column mapping (field → column). */
  importWithColumns(columns: Record<string, string>): Promise<void>;
  loadSample(sampleId: string): Promise<void>;
  /** Shows a problem found before anything was sent (e.g. several files dropped). */
  reject(file: string, message: string): void;
  dismiss(): void;
}

/** The file of the last failed import, kept so choosing its columns does not mean picking it again. */
let lastFailed: { name: string; contentBase64: string } | null = null;

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
      await send(name, contentBase64);
    } catch (err) {
      lastFailed = null;
      set({ phase: { kind: 'idle' }, outcome: { kind: 'failed', file: name, error: toApiError(err) } });
    }
  },

  async importWithColumns(columns) {
    const file = lastFailed;
    if (get().phase.kind !== 'idle' || !file) return;
    await send(file.name, file.contentBase64, columns);
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
    lastFailed = null;
    set({ outcome: null });
  },
}));

/** Sends a read file; a failure keeps the file for `importWithColumns`. */
async function send(name: string, contentBase64: string, columns?: Record<string, string>): Promise<void> {
  const set = useImport.setState;
  set({ phase: { kind: 'importing', file: name }, outcome: null });
  try {
    const result = await getApi().call('datasets.import', {
      fileName: name,
      contentBase64,
      ...(columns ? { columns } : {}),
    });
    lastFailed = null;
    set({ phase: { kind: 'idle' }, outcome: { kind: 'imported', file: name, result } });
    void useDatasets.getState().refresh();
  } catch (err) {
    lastFailed = { name, contentBase64 };
    set({ phase: { kind: 'idle' }, outcome: { kind: 'failed', file: name, error: toApiError(err) } });
  }
}
