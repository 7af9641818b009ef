import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchFileExport, BatchFileImport } from '../../../shared/experiments';
import { getApi, toApiError, type ApiError } from '../api';
import { readFileBytes } from '../api/base64';
import { ErrorPanel } from '../components/ErrorPanel';
import { useFormat } from '../lib/useFormat';
import { downloadText } from '../results/download';
import { Button } from '../components/Button';
import { RunCard } from '../components/RunCard';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'exported'; result: BatchFileExport }
  | { status: 'imported'; result: BatchFileImport }
  | { status: 'error'; kind: 'export' | 'import'; file?: string; error: ApiError };

/**
 * The cluster round trip of `judge-lab batch export/import` (issue 39) from the run page: the open
 * requests as a `vllm run-batch` input file, and its output file read back into the ledger. Reasons
 * and problems come from model answers and the user's file: shown as text, never as markup.
 */
export function ClusterBatchFiles({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation();
  const f = useFormat();
  const [state, setState] = useState<State>({ status: 'idle' });
  const busy = state.status === 'busy';

  const exportFile = async () => {
    setState({ status: 'busy' });
    try {
      const result = await getApi().call('experiments.batchExport', { experimentId });
      if (result.requests > 0) downloadText('requests.jsonl', 'application/jsonl', result.text);
      setState({ status: 'exported', result });
    } catch (err) {
      setState({ status: 'error', kind: 'export', error: toApiError(err) });
    }
  };

  const importFile = async (file: File) => {
    setState({ status: 'busy' });
    try {
      const text = new TextDecoder().decode(await readFileBytes(file));
      const result = await getApi().call('experiments.batchImport', { experimentId, file: file.name, text });
      setState({ status: 'imported', result });
    } catch (err) {
      setState({ status: 'error', kind: 'import', file: file.name, error: toApiError(err) });
    }
  };

  return (
    <RunCard testId="cluster-files" title={t('run.cluster.title')} hint={t('run.cluster.intro')}>
      <div className="run-status__actions">
        <Button className="btn" testId="cluster-export" disabled={busy} onClick={() => void exportFile()}>
          {t('run.cluster.export')}
        </Button>{' '}
        <label className="btn">
          {t('run.cluster.import')}
          <input
            type="file"
            className="visually-hidden"
            accept=".jsonl,.json,application/jsonl,text/plain"
            data-testid="cluster-import-file"
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importFile(file);
            }}
          />
        </label>
      </div>
      {busy && (
        <p role="status" className="small muted">
          {t('run.cluster.busy')}
        </p>
      )}
      {state.status === 'exported' && (
        <div role="status" data-testid="cluster-export-result">
          <p>
            {state.result.requests > 0
              ? t('run.cluster.exported', {
                  count: state.result.requests,
                  models: Object.entries(state.result.models)
                    .map(([m, n]) => `${m} (${f.number(n)})`)
                    .join(', '),
                })
              : t('run.cluster.nothingOpen')}
          </p>
          {state.result.inFlight > 0 && (
            <p className="small muted">{t('run.cluster.inFlight', { count: state.result.inFlight })}</p>
          )}
          {state.result.skipped.map((s) => (
            <p key={s.provider} className="small muted" data-testid="cluster-export-skipped">
              {t('run.cluster.skipped', { provider: s.provider, count: s.requests, reason: s.reason })}
            </p>
          ))}
        </div>
      )}
      {state.status === 'imported' && <ImportReport result={state.result} />}
      {state.status === 'error' && (
        <ErrorPanel
          title={
            state.kind === 'export'
              ? t('run.cluster.exportFailed')
              : t('run.cluster.refused', { file: state.file ?? '' })
          }
          error={state.error}
          onDismiss={() => setState({ status: 'idle' })}
        />
      )}
    </RunCard>
  );
}

function ImportReport({ result }: { result: BatchFileImport }) {
  const { t } = useTranslation();
  const f = useFormat();
  const counts: [string, number][] = [
    ['stored', result.stored],
    ['kept', result.kept],
    ['askAgain', result.askAgain],
    ['failed', result.failed.count],
    ['malformed', result.malformed.count],
    ['open', result.open],
  ];
  return (
    <div role="status" data-testid="cluster-import-result">
      <p>{t('run.cluster.imported', { file: result.file, lines: f.number(result.lines) })}</p>
      <dl className="stats">
        {counts.map(([key, n]) => (
          <div key={key} data-testid={`cluster-count-${key}`}>
            <dt>{t(`run.cluster.counts.${key}`)}</dt>
            <dd className="num">{f.number(n)}</dd>
          </div>
        ))}
      </dl>
      {result.failed.first.length > 0 && (
        <ul className="small" data-testid="cluster-import-failed">
          {result.failed.first.map((x) => (
            <li key={`f${x.line}`}>
              {t('run.cluster.lineProblem', { file: result.file, line: x.line, problem: x.reason })}
            </li>
          ))}
          {result.failed.count > result.failed.first.length && (
            <li className="muted">
              {t('run.cluster.more', { count: result.failed.count - result.failed.first.length })}
            </li>
          )}
        </ul>
      )}
      {result.malformed.first.length > 0 && (
        <ul className="small" data-testid="cluster-import-malformed">
          {result.malformed.first.map((x) => (
            <li key={`m${x.line}`}>
              {t('run.cluster.lineProblem', { file: result.file, line: x.line, problem: x.problem })}
            </li>
          ))}
          {result.malformed.count > result.malformed.first.length && (
            <li className="muted">
              {t('run.cluster.more', { count: result.malformed.count - result.malformed.first.length })}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
