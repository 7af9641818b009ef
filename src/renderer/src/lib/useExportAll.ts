import { useState } from 'react';
import type { ExportResult } from '../../../shared/experiments';
import { getApi } from '../api';
import { toApiError, type ApiError } from '../api/errors';

export type ExportAllState =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done'; result: ExportResult }
  | { status: 'error'; error: ApiError };

/** "Export all": writes the folder of DESIGN.md section 8 through the core. */
export function useExportAll(experimentId: number): {
  state: ExportAllState;
  run: () => Promise<void>;
  reset: () => void;
} {
  const [state, setState] = useState<ExportAllState>({ status: 'idle' });
  const run = async () => {
    setState({ status: 'busy' });
    try {
      setState({ status: 'done', result: await getApi().call('experiments.export', { experimentId }) });
    } catch (err) {
      setState({ status: 'error', error: toApiError(err) });
    }
  };
  return { state, run, reset: () => setState({ status: 'idle' }) };
}
