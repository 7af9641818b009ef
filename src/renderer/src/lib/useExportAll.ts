import { useState } from 'react';
import type { ExportResult } from '../../../shared/experiments';
import { getApi } from '../api';
import { toApiError, type ApiError } from '../api/errors';
import { getRendererProtocol } from '../protocols/registry';
import { downloadBase64 } from '../results/download';
import { useAppInfo } from '../stores/datasets';
import { getDesktop } from './desktop';
import { useExportLanguage } from './figure-language';

export type ExportAllState =
  | { status: 'idle' }
  /** The experiment has no verdicts: the files would hold empty tables. Asked before exporting. */
  | { status: 'confirm' }
  | { status: 'busy' }
  /** Desktop and CLI: written to a folder. */
  | { status: 'done'; result: ExportResult }
  /** Web door: one zip, downloaded by the browser (nothing is left on the server). */
  | { status: 'downloaded'; fileName: string }
  | { status: 'error'; error: ApiError };

/** No verdict yet, judged as the results page does (a protocol may say what counts). */
async function hasNoVerdicts(experimentId: number): Promise<boolean> {
  let results;
  try {
    results = await getApi().call('experiments.results', { experimentId });
  } catch {
    return false; // the warning is a courtesy: the export itself reports real errors
  }
  const isEmpty = getRendererProtocol(results.protocol)?.isEmpty;
  return isEmpty ? isEmpty(results) : results.counts.ok + results.counts.failed === 0;
}

/**
 * Only the desktop app writes to the user's own disk; a page served by judge-lab serve
 * (whatever door its core reports) gets a download instead of files on the server.
 */
export function downloadsZip(door: string | undefined): boolean {
  return door !== undefined && door !== 'electron';
}

/** Whether "Export all" downloads a zip here (the texts around the button say which). */
export function useExportDownloadsZip(): boolean {
  return downloadsZip(useAppInfo((s) => s.info?.door));
}

/**
 * "Export all": the files of DESIGN.md section 8. In the web door they come as one zip download;
 * elsewhere the core writes the folder. An experiment without verdicts asks first.
 */
export function useExportAll(experimentId: number): {
  state: ExportAllState;
  run: (confirmed?: boolean) => Promise<void>;
  reset: () => void;
} {
  const [state, setState] = useState<ExportAllState>({ status: 'idle' });
  const lang = useExportLanguage();
  const run = async (confirmed = false) => {
    setState({ status: 'busy' });
    try {
      if (!confirmed && (await hasNoVerdicts(experimentId))) {
        setState({ status: 'confirm' });
        return;
      }
      if (downloadsZip(useAppInfo.getState().info?.door)) {
        const zip = await getApi().call('experiments.exportZip', { experimentId, lang });
        downloadBase64(zip);
        setState({ status: 'downloaded', fileName: zip.fileName });
        return;
      }
      // Desktop: the person picks the folder (cancel: nothing is written).
      const desktop = getDesktop();
      let outDir: string | undefined;
      if (desktop) {
        const chosen = await desktop.chooseFolder();
        if (!chosen) {
          setState({ status: 'idle' });
          return;
        }
        outDir = chosen;
      }
      setState({
        status: 'done',
        result: await getApi().call('experiments.export', {
          experimentId,
          lang,
          ...(outDir ? { outDir } : {}),
        }),
      });
    } catch (err) {
      setState({ status: 'error', error: toApiError(err) });
    }
  };
  return { state, run, reset: () => setState({ status: 'idle' }) };
}
