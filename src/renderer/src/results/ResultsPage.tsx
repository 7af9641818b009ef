import { useTranslation } from 'react-i18next';
import { Breadcrumb, LoadState, PageHeader } from '../kits/PageFrame';
import type { ExperimentResults } from '../../../shared/experiments';
import { ErrorPanel } from '../components/ErrorPanel';
import { getRendererProtocol, protocolNamespaces, type RendererProtocol } from '../protocols/registry';
import { CountsLine } from './CountsLine';
import { ExportAll } from './ExportAll';
import { ExportMethods } from './ExportMethods';
import { ExportBundle } from './ExportBundle';
import { PreregNote } from '../preregistration/PreregNote';
import { GenericSections } from './GenericSections';
import { VerifiedOnlySwitch } from './VerifiedOnlySwitch';
import { SimulatedContext } from './simulated-context';
import type { Navigate } from './routes';
import { useResults } from './useResults';
import { routeHref } from '../stores/route';
import { useVerdictLinks, VerdictLinksContext } from '../verdicts/links';
import './i18n';
import './results.css';
import { FlaggedSwitch } from './ResultsSwitch';

interface ResultsPageProps {
  experimentId: number;
  excludeFlagged: boolean;
  /** Every table and chart on the items the protocol's verification passed (`results.unverified`). */
  verifiedOnly?: boolean;
  onNavigate: Navigate;
}

/** Nothing to show until the first answer comes in (a protocol may judge otherwise). */
function isEmpty(protocol: RendererProtocol | undefined, results: ExperimentResults): boolean {
  if (protocol?.isEmpty) return protocol.isEmpty(results);
  return results.counts.ok + results.counts.failed === 0;
}

/**
 * The results shell every protocol shares: header and export, the sensitivity switch where an
 * audit flagged items, how many answers are in, then the protocol's own sections (or, for a
 * protocol without a renderer plug-in, every table as the export writes it).
 */
export function ResultsPage({
  experimentId,
  excludeFlagged,
  verifiedOnly = false,
  onNavigate,
}: ResultsPageProps) {
  const { results, detail, loading, error, reload } = useResults(experimentId, excludeFlagged, verifiedOnly);
  const protocol = results ? getRendererProtocol(results.protocol) : undefined;
  const verdictLinks = useVerdictLinks(experimentId);
  const { t } = useTranslation(['results', ...protocolNamespaces(protocol)]);
  const empty = results ? isEmpty(protocol, results) : true;
  const flaggedCount = results?.flagged.length ?? 0;
  const unverified = results?.unverified;
  // Both switches travel in the address; each keeps the other's state.
  const go = (next: { excludeFlagged?: boolean; verifiedOnly?: boolean }) =>
    onNavigate({
      name: 'results',
      experimentId,
      excludeFlagged: next.excludeFlagged ?? excludeFlagged,
      ...((next.verifiedOnly ?? verifiedOnly) ? { verifiedOnly: true } : {}),
    });
  const sectionProps = results ? { results, experimentId, excludeFlagged, onNavigate } : null;
  const Tools = protocol?.ResultsTools;
  const Sections = protocol?.ResultsSections ?? GenericSections;

  const header = (
    <>
      {/* Back to the experiment (its run page) and the list, as on every page under an experiment. */}
      <Breadcrumb testId="results-breadcrumb" current={t('title')}>
        <a href={routeHref({ name: 'experiments' })}>{t('experiments.title', { ns: 'translation' })}</a>
        <a href={routeHref({ name: 'experiment', experimentId })} data-testid="breadcrumb-experiment">
          {detail?.name ?? t('experiment')}
        </a>
      </Breadcrumb>
      <PageHeader
        title={t('title')}
        intro={detail ? t('intro', { name: detail.name, dataset: detail.datasetName }) : t('introPlain')}
        tools={
          sectionProps &&
          !empty && (
            <>
              {Tools && <Tools {...sectionProps} />}
              <ExportAll experimentId={experimentId} />
              <ExportMethods experimentId={experimentId} />
              <ExportBundle experimentId={experimentId} />
            </>
          )
        }
      />
    </>
  );

  if (!sectionProps) {
    return (
      <div className="page results-page">
        {header}
        <LoadState
          error={error}
          failed={t('loadFailed')}
          loading={t('loading')}
          onRetry={reload}
          testId="results-error"
        />
      </div>
    );
  }
  if (empty) {
    return (
      <div className="page results-page">
        {header}
        <section className="results-empty" data-testid="results-empty">
          <h2>{t('empty.title')}</h2>
          <p>{t('empty.body')}</p>
        </section>
      </div>
    );
  }

  return (
    <div className="page results-page" data-testid="results-page" aria-busy={loading}>
      {header}
      {(flaggedCount > 0 || excludeFlagged) && (
        <FlaggedSwitch
          count={flaggedCount}
          on={excludeFlagged}
          onChange={(on) => go({ excludeFlagged: on })}
          hint
        />
      )}
      {(unverified || verifiedOnly) && (
        <VerifiedOnlySwitch
          on={verifiedOnly}
          unverified={unverified ?? []}
          onChange={(on) => go({ verifiedOnly: on })}
        />
      )}
      <CountsLine
        counts={sectionProps.results.counts}
        experimentId={experimentId}
        loading={loading}
        onNavigate={onNavigate}
      />
      {error && <ErrorPanel title={t('loadFailed')} error={error} onRetry={reload} />}
      <PreregNote experimentId={experimentId} protocol={sectionProps.results.protocol} />
      <SimulatedContext.Provider value={sectionProps.results.simulated}>
        {/* The verdict browser lists every item's verdicts: with verified items only its rows would
            not be the cells' n, so the cells stay plain. */}
        <VerdictLinksContext.Provider value={verifiedOnly ? [] : verdictLinks}>
          <Sections {...sectionProps} />
        </VerdictLinksContext.Provider>
      </SimulatedContext.Provider>
    </div>
  );
}
