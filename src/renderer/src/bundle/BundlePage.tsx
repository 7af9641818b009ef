import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpenedBundleReport } from '../../../shared/paper/bundle';
import { BUNDLE_EXTENSION } from '../../../shared/paper/bundle';
import { getApi } from '../api';
import { bytesToBase64, readFileBytes } from '../api/base64';
import { toApiError } from '../api/errors';
import type { Refusal } from '../../../shared/refusals';
import { useRefusalText } from '../refusals/refusal-text';
import type { ExperimentStatus } from '../../../shared/experiments';
import { StatusBadge } from '../components/StatusBadge';
import { ProtocolName } from '../protocols/ProtocolName';
import { SortableTable } from '../results/SortableTable';
import { BundleViews } from './BundleViews';
import { BUNDLE_NS } from './i18n';
import './i18n';
import './bundle.css';
import { PageHeader } from '../kits/PageFrame';
import { TableHead } from '../kits/ListTable';

type State =
  | { status: 'idle' }
  | { status: 'busy'; fileName: string }
  | { status: 'done'; report: OpenedBundleReport }
  | { status: 'error'; error: { message: string; refusal?: Refusal } };

/**
 * A study bundle opened in the app (issue 24): the core replays its raw answers in a scratch
 * folder (no provider, no key, nothing added to the user's store) and compares every recomputed
 * metric, table and figure with the stored one. The page shows that report, then (issue 38 §8)
 * the study as its results page showed it, read from that replay: figures and tables, the
 * protocol's own pages (flips, variants…) and the preregistered plan. Read-only; the replay is
 * closed when the page is left or another bundle is opened.
 */
export function BundlePage() {
  const { t } = useTranslation(BUNDLE_NS);
  const [state, setState] = useState<State>({ status: 'idle' });
  // A refusal the core keyed (a bundle refused before its replay) reads in the page's language.
  const refusalText = useRefusalText();
  const session = state.status === 'done' ? state.report.session : null;
  // The core keeps the replay open for this page only: closed once it is left or replaced.
  useEffect(() => {
    if (!session) return;
    return () => {
      void getApi()
        .call('bundles.close', { session })
        .catch(() => undefined);
    };
  }, [session]);

  const open = async (file: File) => {
    setState({ status: 'busy', fileName: file.name });
    try {
      const report = await getApi().call('bundles.open', {
        fileName: file.name,
        contentBase64: await bytesToBase64(await readFileBytes(file)),
      });
      setState({ status: 'done', report });
    } catch (err) {
      const e = toApiError(err);
      setState({ status: 'error', error: { message: e.message, refusal: e.refusal } });
    }
  };

  return (
    <div className="page" data-testid="bundle-page">
      <PageHeader
        title={t('title')}
        intro={t('intro')}
        tools={
          <label className="btn btn--primary">
            {t('choose')}
            <input
              type="file"
              accept={BUNDLE_EXTENSION}
              hidden
              data-testid="bundle-file"
              disabled={state.status === 'busy'}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void open(file);
              }}
            />
          </label>
        }
      />
      {state.status === 'busy' && (
        <p role="status" data-testid="bundle-busy">
          {t('busy', { file: state.fileName })}
        </p>
      )}
      {state.status === 'error' && (
        <div className="error-panel" role="alert" data-testid="bundle-error">
          <p className="error-panel__message">{t('failed', { message: refusalText(state.error) })}</p>
        </div>
      )}
      {state.status === 'done' && <BundleViews report={state.report} Checks={BundleReport} />}
    </div>
  );
}

/** What was checked: the facts, the verdict, every file compared, and the tables as exported. */
export function BundleReport({ report }: { report: OpenedBundleReport }) {
  const { t } = useTranslation(BUNDLE_NS);
  const differing = report.checks.filter((c) => !c.equal).length;
  return (
    <div className="stack" data-testid="bundle-checks-view">
      <dl className="bundle-facts">
        <dt>{t('experiment')}</dt>
        <dd data-testid="bundle-experiment">{report.experiment.name}</dd>
        <dt>{t('protocol')}</dt>
        <dd>
          <ProtocolName id={report.experiment.protocol} />
        </dd>
        <dt>{t('status')}</dt>
        <dd>
          <StatusBadge status={report.experiment.status as ExperimentStatus} />
        </dd>
        <dt>{t('entries')}</dt>
        <dd>{report.entries}</dd>
        <dt>{t('replayed')}</dt>
        <dd>{report.replayed}</dd>
      </dl>
      <p role="status" data-testid="bundle-verdict" className={differing ? 'inline-error' : undefined}>
        {differing
          ? t('differs', { count: differing, total: report.checks.length })
          : t('identical', { count: report.checks.length })}
      </p>
      <section className="results-section">
        <h2 className="results-section__title">{t('checksTitle')}</h2>
        <div className="results-table__scroll">
          <table className="results-table" data-testid="bundle-checks">
            <TableHead columns={[t('file'), t('result'), t('firstDifference')]} />
            <tbody>
              {report.checks.map((c) => (
                <tr key={c.file} data-equal={c.equal}>
                  <td className="results-table__text">{c.file}</td>
                  <td>{c.equal ? t('equal') : t('different')}</td>
                  <td className="results-table__text">
                    {c.differences[0]
                      ? `${c.differences[0].where}: ${t('stored')} ${c.differences[0].stored} · ${t('recomputed')} ${c.differences[0].recomputed}`
                      : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {report.notRecompared.length > 0 && (
        <section className="results-section" data-testid="bundle-not-recompared">
          <h2 className="results-section__title">{t('notRecomparedTitle')}</h2>
          <p className="results-section__help">{t('notRecomparedHelp')}</p>
          <ul>
            {report.notRecompared.map((n) => (
              <li key={n.file} data-file={n.file}>
                <code>{n.file}</code>: {t(`notRecompared.${n.reason}`)}
                {n.detail ? ` (${n.detail})` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
      <details className="results-section">
        <summary className="results-section__title">{t('tablesTitle')}</summary>
        <p className="results-section__help">{t('tablesHelp')}</p>
        {report.tables.length === 0 && <p className="empty-note">{t('noTables')}</p>}
        {report.tables.map((table) => (
          <div key={table.id} className="stack" data-testid={`bundle-table-${table.id}`}>
            <h3>{table.title}</h3>
            <p className="small">{table.caption}</p>
            <SortableTable
              columns={table.columns}
              rows={table.rows}
              footer={table.footer}
              caption={table.title}
            />
          </div>
        ))}
      </details>
    </div>
  );
}
