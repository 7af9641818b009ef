import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { missingWebToken } from './api';
import { AppFrame } from './components/AppFrame';
import { NotFound } from './components/NotFound';
import { SimulatedBanner } from './components/SimulatedBanner';
import { DatasetPage } from './pages/DatasetPage';
import { DatasetsPage } from './pages/DatasetsPage';
import { ExperimentsPage } from './pages/ExperimentsPage';
import { ComparePage } from './compare/ComparePage';
import './compare/i18n';
import { ReportCardPage } from './report-card/ReportCardPage';
import './report-card/i18n';
import { BundlePage } from './bundle/BundlePage';
import { ItemPage } from './pages/ItemPage';
import { findProtocolPage } from './protocols/registry';
import { ResultsPage } from './results/ResultsPage';
import { RunPage } from './run/RunPage';
import { NewExperimentPage } from './wizard/NewExperimentPage';
import { AnnotationPage } from './annotation/AnnotationPage';
import { ANNOTATION_PAGE } from './annotation/link';
import { VERDICTS_PAGE } from './verdicts/links';
import { VerdictBrowserPage } from './verdicts/VerdictBrowserPage';
import { navigate, useRoute } from './stores/route';

/**
 * The app's own pages of one experiment, beside the protocols' pages: each reads its query from
 * the URL and writes it back; the verdict browser's filters replace the history entry.
 */
const OWN_EXPERIMENT_PAGES: Record<
  string,
  {
    component: ComponentType<{
      experimentId: number;
      query: Record<string, string>;
      onQuery: (query: Record<string, string>) => void;
    }>;
    replace: boolean;
  }
> = {
  [ANNOTATION_PAGE]: { component: AnnotationPage, replace: false },
  [VERDICTS_PAGE]: { component: VerdictBrowserPage, replace: true },
};

function MissingToken() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <div className="error-panel" role="alert">
        <p className="error-panel__message">{t('app.missingToken')}</p>
      </div>
    </div>
  );
}

export function App() {
  const { t } = useTranslation();
  const route = useRoute((s) => s.route);
  if (missingWebToken()) {
    return (
      <AppFrame>
        <MissingToken />
      </AppFrame>
    );
  }
  let page;
  switch (route.name) {
    case 'datasets':
      page = <DatasetsPage />;
      break;
    case 'dataset':
      page = <DatasetPage key={route.datasetId} datasetId={route.datasetId} />;
      break;
    case 'item':
      page = <ItemPage datasetId={route.datasetId} itemId={route.itemId} />;
      break;
    case 'experiments':
      page = <ExperimentsPage />;
      break;
    case 'new-experiment':
      page = <NewExperimentPage />;
      break;
    case 'experiment':
      page = <RunPage key={route.experimentId} experimentId={route.experimentId} />;
      break;
    case 'results':
      page = (
        <ResultsPage
          experimentId={route.experimentId}
          excludeFlagged={!!route.excludeFlagged}
          verifiedOnly={!!route.verifiedOnly}
          onNavigate={(r) => navigate(r)}
        />
      );
      break;
    case 'annotation':
      page = (
        <AnnotationPage query={route.query} onQuery={(query) => navigate({ name: 'annotation', query })} />
      );
      break;
    case 'experiment-page': {
      const own = OWN_EXPERIMENT_PAGES[route.page];
      if (own) {
        const { experimentId, page: name } = route;
        page = (
          <own.component
            key={experimentId}
            experimentId={experimentId}
            query={route.query}
            onQuery={(query) =>
              navigate({ name: 'experiment-page', experimentId, page: name, query }, { replace: own.replace })
            }
          />
        );
        break;
      }
      const Page = findProtocolPage(route.page)?.page.component;
      page = Page ? (
        <Page
          key={`${route.page}/${route.experimentId}`}
          experimentId={route.experimentId}
          query={route.query}
          onNavigate={(r) => navigate(r)}
        />
      ) : (
        <NotFound message={t('app.notFound')} />
      );
      break;
    }
    case 'compare':
      page = <ComparePage query={route.query} />;
      break;
    case 'judges':
      page = <ReportCardPage query={route.query} />;
      break;
    case 'bundle':
      page = <BundlePage />;
      break;
    case 'not-found':
      page = <NotFound message={t('app.notFound')} />;
      break;
  }
  // Every page of one experiment says so when its answers are simulated. The banner takes no
  // key: it sits beside the page in one child list, and pages are keyed by their experiment id,
  // so a banner keyed by the same id was a duplicate key, and React lost track of the banner and
  // left copies of it on later pages (issue 38). It answers for the id it is given instead.
  const experimentId = 'experimentId' in route ? route.experimentId : undefined;
  return (
    <AppFrame>
      {experimentId !== undefined && <SimulatedBanner experimentId={experimentId} />}
      {page}
    </AppFrame>
  );
}
