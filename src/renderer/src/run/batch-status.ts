// A provider batch's state in the UI language: our own status word, then the provider's word
// (OpenAI and Anthropic name their states differently) when it adds something. A word the
// provider invents later is shown as it is: it is the provider's, not a sentence of ours.
import type { TFunction } from 'i18next';

const LOCAL = ['submitting', 'open', 'cancelling', 'ended', 'failed'] as const;
const REMOTE = [
  'validating',
  'in_progress',
  'finalizing',
  'completed',
  'expired',
  'cancelling',
  'canceling',
  'cancelled',
  'canceled',
  'ended',
  'failed',
] as const;

export function batchStatusText(t: TFunction, status: string, remoteStatus: string | null): string {
  const local = (LOCAL as readonly string[]).includes(status) ? t(`run.batches.state.${status}`) : status;
  if (!remoteStatus) return local;
  const remote = (REMOTE as readonly string[]).includes(remoteStatus)
    ? t(`run.batches.remote.${remoteStatus}`)
    : remoteStatus;
  return remote === local ? local : t('run.batches.stateWithRemote', { local, remote });
}
