import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListState, ListTable, RowActionsWithDelete } from '../kits/ListTable';
import type { ExperimentSummary } from '../../../shared/experiments';
import { Notice } from '../components/Notice';
import { SimulatedBadge } from '../components/SimulatedBanner';
import { SplitBar } from '../components/SplitBar';
import { StatusBadge } from '../components/StatusBadge';
import { TryDemoButton } from '../components/TryDemoButton';
import { formatDateTime } from '../lib/format';
import { useExperiments } from '../stores/experiments';
import '../compare/i18n';
import { BUNDLE_NS } from '../bundle/i18n';
import { routeHref } from '../stores/route';
import { ProtocolName } from '../protocols/ProtocolName';
import { PageHeader } from '../kits/PageFrame';

function ExperimentRow({
  experiment,
  onDeleted,
}: {
  experiment: ExperimentSummary;
  onDeleted: (n: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const remove = useExperiments((s) => s.remove);
  const { planned, done, failed } = experiment.counts;
  const href = routeHref({ name: 'experiment', experimentId: experiment.id });

  return (
    <tr data-testid="experiment-row" data-experiment-id={experiment.id}>
      <td>
        <a className="dataset-name" href={href}>
          {experiment.name}
        </a>
        {experiment.simulated && (
          <>
            {' '}
            <SimulatedBadge />
          </>
        )}
        {/* The study it runs, under its name (a column of its own would not fit at 1280 px). */}
        <p className="small muted experiment-protocol" data-testid="experiment-protocol">
          <span className="visually-hidden">{t('experiments.columns.protocol')}: </span>
          <ProtocolName id={experiment.protocol} />
        </p>
        {experiment.configProblem && (
          // Results and exports still open; only a run is refused until the field is fixed.
          <p className="small warning-text" data-testid="config-problem">
            {t('experiments.configProblem')} {experiment.configProblem}
          </p>
        )}
      </td>
      <td className="small">{experiment.datasetName}</td>
      <td>
        <ul className="chips">
          {experiment.judges.map((j) => (
            <li key={j} className="chip">
              {j}
            </li>
          ))}
        </ul>
      </td>
      <td>
        <StatusBadge status={experiment.status} calls={experiment.counts} />
      </td>
      <td className="num small nowrap" data-testid="experiment-progress">
        {planned > 0 ? (
          <>
            <SplitBar
              small
              total={planned}
              done={done}
              failed={failed}
              label={t('run.barLabel', { done, failed, total: planned })}
            />{' '}
            {t('experiments.progress', { done, planned })}
            {failed > 0 && (
              <span className="text-danger"> · {t('experiments.failedCount', { count: failed })}</span>
            )}
          </>
        ) : (
          '—'
        )}
      </td>
      <td className="small nowrap">{formatDateTime(experiment.createdAt, i18n.language)}</td>
      <RowActionsWithDelete
        texts={{
          delete: t('experiments.delete'),
          question: t('experiments.confirmDelete', { name: experiment.name }),
          yes: t('experiments.confirmDeleteYes'),
          failed: t('experiments.deleteFailed'),
        }}
        remove={() => remove(experiment.id)}
        onDeleted={() => onDeleted(experiment.name)}
        actions={
          <>
            <a className="btn btn--small" href={href}>
              {t('common.open')}
            </a>
            {done > 0 && (
              <a
                className="btn btn--small"
                href={routeHref({ name: 'results', experimentId: experiment.id })}
              >
                {t('run.results')}
              </a>
            )}
          </>
        }
      />
    </tr>
  );
}

function NewExperimentButton() {
  const { t } = useTranslation();
  return (
    <a className="btn btn--primary" href={routeHref({ name: 'new-experiment' })} data-testid="new-experiment">
      {t('experiments.new')}
    </a>
  );
}

export function ExperimentsPage() {
  const { t } = useTranslation();
  const { experiments, loaded, error, refresh } = useExperiments();
  const [deletedName, setDeletedName] = useState<string | null>(null);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <div className="page">
      <PageHeader
        title={t('experiments.title')}
        intro={t('experiments.intro')}
        tools={
          <>
            {/* A reviewer with an empty app opens a bundle too. */}
            <a className="btn" href={routeHref({ name: 'bundle' })} data-testid="open-bundle">
              {t('open', { ns: BUNDLE_NS })}
            </a>
            {experiments.length > 0 && (
              <>
                <a
                  className="btn"
                  href={routeHref({ name: 'compare', query: {} })}
                  data-testid="open-compare"
                >
                  {t('open', { ns: 'compare' })}
                </a>
                <TryDemoButton />
                <NewExperimentButton />
              </>
            )}
          </>
        }
      />
      <div className="stack">
        {deletedName && (
          <Notice tone="info" onDismiss={() => setDeletedName(null)}>
            {t('experiments.deleted', { name: deletedName })}
          </Notice>
        )}
      </div>
      <ListState
        loaded={loaded}
        error={error}
        loadFailed={t('experiments.loadFailed')}
        onRetry={() => void refresh()}
        empty={
          experiments.length === 0 ? (
            <section className="empty-state">
              <h2>{t('experiments.emptyTitle')}</h2>
              <p className="empty-state__body">{t('experiments.emptyBody')}</p>
              <div className="empty-state__actions">
                <NewExperimentButton />
                <TryDemoButton />
              </div>
            </section>
          ) : null
        }
      >
        <ListTable
          label={t('experiments.title')}
          columns={[
            { label: t('experiments.columns.name') },
            { label: t('experiments.columns.dataset') },
            { label: t('experiments.columns.judges') },
            { label: t('experiments.columns.status') },
            { label: t('experiments.columns.progress'), num: true },
            { label: t('experiments.columns.created') },
          ]}
          actionsLabel={t('experiments.columns.actions')}
        >
          {experiments.map((e) => (
            <ExperimentRow key={e.id} experiment={e} onDeleted={setDeletedName} />
          ))}
        </ListTable>
      </ListState>
    </div>
  );
}
