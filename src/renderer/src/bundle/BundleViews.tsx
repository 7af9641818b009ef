import { useEffect, useMemo, useState, type ComponentType, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExperimentResults } from '../../../shared/experiments';
import type { BundlePlan, OpenedBundleReport } from '../../../shared/paper/bundle';
import { ANALYSIS_COLUMN } from '../../../shared/paper/confirmatory';
import { lockedAfterData, type PreregistrationLock } from '../../../shared/paper/preregistration';
import { toApiError, type ApiError } from '../api';
import { ApiScopeProvider, bundleApiClient, type ApiScope } from '../api/scope';
import { LockView } from '../preregistration/LockView';
import { useComparisonLabels } from '../preregistration/labels';
import {
  getRendererProtocol,
  protocolNamespaces,
  type ProtocolPageProps,
  type RendererProtocol,
} from '../protocols/registry';
import { GenericSections } from '../results/GenericSections';
import type { Navigate } from '../results/routes';
import { SimulatedContext } from '../results/simulated-context';
import { useFormat } from '../lib/useFormat';
import { useVerdictLinks, VERDICTS_PAGE, VerdictLinksContext } from '../verdicts/links';
import { VerdictBrowserPage } from '../verdicts/VerdictBrowserPage';
import { BUNDLE_NS } from './i18n';
import '../preregistration/prereg.css';
import '../results/results.css';
import { FlaggedSwitch } from '../results/ResultsSwitch';
import { LoadState } from '../kits/PageFrame';

/**
 * The experiment id the bundle's pages are handed. Not a valid id anywhere: a read that slipped
 * past the bundle's client would be refused by the core, never answered from the user's store
 * (the bundle's client replaces it with the replay's own).
 */
export const BUNDLE_EXPERIMENT_ID = -1;

/** The address pages inside the bundle link to (`routeHref` of the bundle's experiment id). */
const BUNDLE_HREF = `#/experiments/${BUNDLE_EXPERIMENT_ID}`;

type View =
  | { tab: 'checks' }
  | { tab: 'results' }
  | { tab: 'plan' }
  | { tab: 'page'; page: string; query: Record<string, string> };

/** A protocol's pages an opened bundle offers a tab for (those the run page links to). */
function bundlePages(protocol: RendererProtocol | undefined) {
  return (protocol?.pages ?? []).filter((p) => p.runLink ?? p.bundleLink);
}

/**
 * An opened bundle's tabs: what was checked, the results as the results page draws them (the
 * protocol's own sections: figures, tables with their confirmatory marks), each of the protocol's
 * pages, and the preregistered plan. Everything below reads the replay through the bundle's
 * client; links that would go to the user's experiments stay inside the bundle.
 */
export function BundleViews({
  report,
  Checks,
}: {
  report: OpenedBundleReport;
  Checks: ComponentType<{ report: OpenedBundleReport }>;
}) {
  const { t } = useTranslation(BUNDLE_NS);
  const protocol = getRendererProtocol(report.experiment.protocol);
  const { t: tp } = useTranslation(protocolNamespaces(protocol));
  const scope = useMemo<ApiScope>(
    () => ({ client: bundleApiClient(report.session), readOnlyBundle: true }),
    [report.session],
  );
  const [view, setView] = useState<View>({ tab: 'checks' });
  const [excludeFlagged, setExcludeFlagged] = useState(false);
  const pages = bundlePages(protocol);

  /**
   * A link of the bundle's pages (a table cell opening its verdicts, a breadcrumb back to the
   * results) names the bundle's experiment: it is followed inside the bundle, never in the app.
   */
  const followLink = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a');
    const href = a?.getAttribute('href') ?? '';
    if (!href.startsWith(BUNDLE_HREF)) return;
    const [path = '', search = ''] = href.slice(BUNDLE_HREF.length).split('?');
    const query = Object.fromEntries(new URLSearchParams(search).entries());
    const segment = path.replace(/^\//, '');
    e.preventDefault();
    if (segment === '') onNavigate({ name: 'experiment', experimentId: BUNDLE_EXPERIMENT_ID });
    else if (segment === 'results')
      onNavigate({
        name: 'results',
        experimentId: BUNDLE_EXPERIMENT_ID,
        excludeFlagged: query.excludeFlagged === '1',
      });
    else onNavigate({ name: 'experiment-page', experimentId: BUNDLE_EXPERIMENT_ID, page: segment, query });
  };

  const onNavigate: Navigate = (route) => {
    if (route.name === 'experiment-page') setView({ tab: 'page', page: route.page, query: route.query });
    else if (route.name === 'results') {
      setExcludeFlagged(route.excludeFlagged ?? false);
      setView({ tab: 'results' });
    } else setView({ tab: 'checks' });
    window.scrollTo(0, 0);
  };

  const tabs: { key: string; label: string; active: boolean; go: () => void }[] = [
    {
      key: 'checks',
      label: t('tabs.checks'),
      active: view.tab === 'checks',
      go: () => setView({ tab: 'checks' }),
    },
    {
      key: 'results',
      label: t('tabs.results'),
      active: view.tab === 'results',
      go: () => setView({ tab: 'results' }),
    },
    ...pages.map((p) => ({
      key: `page-${p.route}`,
      label: tp((p.bundleLink ?? p.runLink)!),
      active: view.tab === 'page' && view.page === p.route,
      go: () => setView({ tab: 'page', page: p.route, query: {} }),
    })),
    { key: 'plan', label: t('tabs.plan'), active: view.tab === 'plan', go: () => setView({ tab: 'plan' }) },
  ];
  const Page =
    view.tab !== 'page'
      ? undefined
      : view.page === VERDICTS_PAGE
        ? BundleVerdicts
        : protocol?.pages?.find((p) => p.route === view.page)?.component;

  return (
    <ApiScopeProvider value={scope}>
      <SimulatedContext.Provider value={report.simulated}>
        {/* Links are followed here, before the app's router sees the address change. */}
        <div className="stack" data-testid="bundle-report" onClickCapture={followLink}>
          <p className="badge" data-testid="bundle-read-only">
            {t('readOnly')} · {report.file}
          </p>
          {report.simulated && <p className="hint">{t('simulated')}</p>}
          <nav className="bundle-tabs" aria-label={t('tabs.label')} data-testid="bundle-tabs">
            {tabs.map((tab) => (
              <button
                key={tab.key}
                type="button"
                className={`btn btn--small${tab.active ? ' btn--primary' : ''}`}
                aria-current={tab.active ? 'page' : undefined}
                data-testid={`bundle-tab-${tab.key}`}
                onClick={tab.go}
              >
                {tab.label}
              </button>
            ))}
          </nav>
          {view.tab === 'checks' && <Checks report={report} />}
          {view.tab === 'results' && (
            <BundleResults
              protocol={protocol}
              excludeFlagged={excludeFlagged}
              onNavigate={onNavigate}
              scope={scope}
            />
          )}
          {view.tab === 'plan' && <BundlePlanView report={report} />}
          {view.tab === 'page' && Page && (
            <div className="bundle-page" data-testid={`bundle-page-${view.page}`}>
              <Page experimentId={BUNDLE_EXPERIMENT_ID} query={view.query} onNavigate={onNavigate} />
            </div>
          )}
        </div>
      </SimulatedContext.Provider>
    </ApiScopeProvider>
  );
}

/** The verdicts behind a table's cell, as the app's verdict browser shows them, from the replay. */
function BundleVerdicts({ query, onNavigate }: ProtocolPageProps) {
  return (
    <VerdictBrowserPage
      experimentId={BUNDLE_EXPERIMENT_ID}
      query={query}
      onQuery={(q) =>
        onNavigate({
          name: 'experiment-page',
          experimentId: BUNDLE_EXPERIMENT_ID,
          page: VERDICTS_PAGE,
          query: q,
        })
      }
    />
  );
}

/** The results as the results page shows them: the protocol's sections, fed from the replay. */
function BundleResults({
  protocol,
  excludeFlagged,
  onNavigate,
  scope,
}: {
  protocol: RendererProtocol | undefined;
  excludeFlagged: boolean;
  onNavigate: Navigate;
  scope: ApiScope;
}) {
  const { t } = useTranslation(['results', BUNDLE_NS]);
  const [state, setState] = useState<{ results: ExperimentResults | null; error: ApiError | null }>({
    results: null,
    error: null,
  });
  const [attempt, setAttempt] = useState(0);
  // Cells open the verdicts behind them, as on the results page (inside the bundle).
  const verdictLinks = useVerdictLinks(BUNDLE_EXPERIMENT_ID);
  useEffect(() => {
    let live = true;
    scope.client.call('experiments.results', { experimentId: BUNDLE_EXPERIMENT_ID, excludeFlagged }).then(
      (results) => live && setState({ results, error: null }),
      (err) => live && setState({ results: null, error: toApiError(err) }),
    );
    return () => {
      live = false;
    };
  }, [scope, excludeFlagged, attempt]);
  const { results, error } = state;
  if (error || !results)
    return (
      <LoadState
        error={error}
        failed={t('loadFailed')}
        loading={t('loading')}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  const Sections = protocol?.ResultsSections ?? GenericSections;
  const Tools = protocol?.ResultsTools;
  const props = { results, experimentId: BUNDLE_EXPERIMENT_ID, excludeFlagged, onNavigate };
  const flagged = results.flagged.length;
  return (
    <div className="results-page" data-testid="bundle-results">
      <div className="page__tools">{Tools && <Tools {...props} />}</div>
      {(flagged > 0 || excludeFlagged) && (
        <FlaggedSwitch
          count={flagged}
          on={excludeFlagged}
          onChange={(on) =>
            onNavigate({ name: 'results', experimentId: BUNDLE_EXPERIMENT_ID, excludeFlagged: on })
          }
        />
      )}
      <VerdictLinksContext.Provider value={verdictLinks}>
        <Sections {...props} />
      </VerdictLinksContext.Provider>
    </div>
  );
}

/** Rows each marked table holds per analysis role (the results' Analysis column). */
function analysisCounts(report: OpenedBundleReport) {
  return report.tables.flatMap((table) => {
    if (!table.columns.some((c) => c.key === ANALYSIS_COLUMN)) return [];
    const count = (role: string) => table.rows.filter((r) => r[ANALYSIS_COLUMN] === role).length;
    return [
      {
        id: table.id,
        title: table.title,
        confirmatory: count('confirmatory'),
        afterData: count('registered after data collection'),
        exploratory: count('exploratory'),
      },
    ];
  });
}

/**
 * The plan the study locked, as the bundle holds it: the lock in force (its text and SHA-256,
 * checked when the bundle was opened), whether the export's manifest names that lock, which
 * result rows it makes confirmatory (all others exploratory), and the deviations its export found.
 */
function BundlePlanView({ report }: { report: OpenedBundleReport }) {
  const { t } = useTranslation(BUNDLE_NS);
  const plan = report.preregistration;
  const labels = useComparisonLabels(report.experiment.protocol, plan?.comparisons ?? []);
  if (!plan || plan.locks.length === 0)
    return (
      <section className="results-section" data-testid="bundle-plan">
        <h2 className="results-section__title">{t('plan.title')}</h2>
        <p data-testid="bundle-plan-none">{t('plan.none')}</p>
      </section>
    );
  const active = plan.locks.at(-1)!;
  const afterData = lockedAfterData(plan.locks);
  const counts = analysisCounts(report);
  return (
    <section className="results-section prereg" data-testid="bundle-plan">
      <h2 className="results-section__title">{t('plan.title')}</h2>
      <p className="results-section__help">{t('plan.help')}</p>
      <ManifestLine plan={plan} active={active} />
      {afterData && (
        <p className="text-danger" data-testid="bundle-plan-after-data">
          {t('plan.afterData', { count: afterData.answers })}
        </p>
      )}
      <LockView
        view={{
          experimentId: BUNDLE_EXPERIMENT_ID,
          locks: plan.locks,
          active,
          deviations: [],
          afterData,
          answersStored: 0,
          comparisons: plan.comparisons,
        }}
        labels={labels}
      />
      <h3 className="prereg__subtitle">{t('plan.analysisTitle')}</h3>
      {counts.length === 0 ? (
        <p data-testid="bundle-plan-analysis-none">{t('plan.analysisNone')}</p>
      ) : (
        <>
          <p className="small">{t('plan.analysisHelp')}</p>
          <ul data-testid="bundle-plan-analysis">
            {counts.map((c) => (
              <li key={c.id} data-table={c.id}>
                {c.title}:{' '}
                {afterData
                  ? t('plan.analysisAfterData', { marked: c.afterData, exploratory: c.exploratory })
                  : t('plan.analysisRow', { confirmatory: c.confirmatory, exploratory: c.exploratory })}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="prereg__deviations" data-testid="bundle-plan-deviations">
        <h3 className="prereg__subtitle">{t('plan.deviationsTitle')}</h3>
        <p className="small">{t('plan.deviationsHelp')}</p>
        {plan.deviations.length === 0 ? (
          <p className="small muted">{t('plan.deviationsNone')}</p>
        ) : (
          <ul>
            {plan.deviations.map((d, i) => (
              <li key={i} data-kind={d.kind} lang="en">
                {d.text}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function ManifestLine({ plan, active }: { plan: BundlePlan; active: PreregistrationLock }) {
  const { t } = useTranslation(BUNDLE_NS);
  const f = useFormat();
  return plan.manifestMatches ? (
    <p role="status" data-testid="bundle-plan-manifest" data-matches="true">
      {t('plan.manifestMatches', { version: active.version, at: f.dateTime(active.lockedAt) })}
    </p>
  ) : (
    <p role="status" className="inline-error" data-testid="bundle-plan-manifest" data-matches="false">
      {t('plan.manifestDiffers', { named: plan.manifestSha256 ?? t('plan.absent'), sha: active.sha256 })}
    </p>
  );
}
