import { useMemo, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isResultsOf, type ExperimentResults } from '../../../../../shared/experiments';
import { type JudgeLsResults } from '../../../../../shared/protocols/judge-ls/views';
import { mostlyFailed } from '../../../../../shared/protocols/judge-ls/report/coverage';
import {
  buildTables,
  tieProbeLanguages,
  withChosenIntervals,
} from '../../../../../shared/protocols/judge-ls/report/tables';
import { markConfirmatory } from '../../../../../shared/paper/confirmatory';
import type { JudgeLsMetrics, MetricsStatistics } from '../../../../../shared/protocols/judge-ls/types';
import type { TableColumn, TableRow } from '../../../../../shared/report/table';
import { ChartCard, hasData, type ResultsSectionsProps, TableSection, useFigureLanguage } from '../../host';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { flipsRoute } from '../routes';
import { CLICKABLE_FIGURES, clickTarget, dashboardFigures, type FigureSpec, type FlipTarget } from './charts';
import { localizeFigure } from '../../../../../shared/report/figure-i18n';
import { JUDGE_LS_FIGURES_ZH } from '../../../../../shared/protocols/judge-ls/report/figure-zh';
import { judgeLsCellText } from './cell-text';
import '../judge-ls.css';

type SectionId =
  | 'quality'
  | 'invariance'
  | 'noise_floor'
  | 'position'
  | 'tie_probe'
  | 'significance'
  | 'subsets'
  | 'usage'
  | 'failures'
  | 'dose_response'
  | 'dose_trend';

/** What each section shows: one table of `results.tables` and the figures that draw it. */
const SECTIONS: { id: SectionId; table: string; figures: string[]; totals?: boolean; optional?: boolean }[] =
  [
    {
      id: 'quality',
      table: 'quality',
      figures: ['accuracy_by_language', 'accuracy_by_language_tie_half', 'accuracy_drop'],
    },
    { id: 'invariance', table: 'invariance', figures: ['flip_rates', 'subset_flip_heatmap'] },
    // Only with the noise floor on (the table exists only then).
    { id: 'noise_floor', table: 'noise_floor', figures: [], optional: true },
    { id: 'position', table: 'position', figures: ['position_inconsistency'] },
    { id: 'tie_probe', table: 'tie_probe', figures: ['tie_probe_preference'] },
    { id: 'significance', table: 'significance', figures: [] },
    { id: 'subsets', table: 'subset_quality', figures: ['subset_quality_heatmap'] },
    // Only with targets at a mixing ratio (issue 37; the tables exist only then).
    { id: 'dose_response', table: 'dose_response', figures: ['dose_response'], optional: true },
    { id: 'dose_trend', table: 'dose_trend', figures: [], optional: true },
    { id: 'usage', table: 'usage', figures: [], totals: true },
    { id: 'failures', table: 'failures', figures: [], totals: true },
  ];

/** No verdict of any judge stored yet: nothing to show but what will appear here. */
export function hasNoJudgments(m: JudgeLsMetrics): boolean {
  return (
    m.quality.length === 0 &&
    m.tie_probe.length === 0 &&
    m.position.length === 0 &&
    !m.failures.some((f) => f.kind !== 'transform')
  );
}

export function isJudgeLsEmpty(results: ExperimentResults): boolean {
  return isResultsOf<JudgeLsMetrics, 'judge-ls'>(results, 'judge-ls') && hasNoJudgments(results.metrics);
}

/** Translated headers where the UI language has them; English shows the export's own. */
function useHeaderText(): (table: string) => (c: TableColumn) => string {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  return (table) => (c) => {
    const key = c.kind === 'ci' ? 'ci' : table === 'usage' && c.key === 'judge' ? 'label' : c.key;
    return t(`col.${key}`, { defaultValue: c.header });
  };
}

/** Judge-LS's dashboard: quality, invariance, position, tie probes, subsets, usage and failures. */
export function JudgeLsSections({ results, experimentId, excludeFlagged, onNavigate }: ResultsSectionsProps) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const headerText = useHeaderText();
  const metrics = (results as JudgeLsResults).metrics;
  // The switch starts at the config's choice; another choice rebuilds the tables here (pure).
  const configured = metrics.statistics?.ci ?? 'wilson';
  const [ci, setCi] = useState<MetricsStatistics['ci'] | null>(null);
  const shownCi = ci ?? configured;
  const tables = useMemo(
    () =>
      shownCi === configured
        ? results.tables
        : markConfirmatory(buildTables(metrics, shownCi), results.confirmatory),
    [results.tables, results.confirmatory, metrics, shownCi, configured],
  );
  const lang = useFigureLanguage();
  const cellText = useMemo(() => judgeLsCellText(lang), [lang]);
  const figures = useMemo(
    () =>
      dashboardFigures(withChosenIntervals(metrics, shownCi), {
        points: t('tooltip.points'),
        flip: t('tooltip.flip'),
        correctnessFlip: t('tooltip.correctnessFlip'),
        repeatFlip: t('tooltip.repeatFlip'),
        enWins: t('tooltip.enWins'),
        tie: t('tooltip.tie'),
        zhWins: t('tooltip.zhWins'),
        targetWins: t('tooltip.targetWins'),
      }).map((f) => localizeFigure(f, lang, [JUDGE_LS_FIGURES_ZH])),
    [metrics, shownCi, t, lang],
  );

  // A study probing other targets than ZH (issue 37) names them in the tie-probe section's words.
  const probes = tieProbeLanguages(metrics);
  const probeParams = { languages: probes.languages.join(', ') };
  const sectionKey = (id: string) => (id === 'tie_probe' && probes.perLanguage ? 'tie_probe_target' : id);
  const figureTitle = (id: string) =>
    id === 'tie_probe_preference' && probes.perLanguage
      ? t('figure.tie_probe_preference_target', probeParams)
      : t(`figure.${id}`);

  const openFlips = (target: FlipTarget) => {
    const query: Record<string, string> = { judge: target.judge, comparison: target.comparison };
    if (target.subset !== undefined) query.subset = target.subset;
    if (target.type) query.type = target.type;
    if (excludeFlagged) query.flagged = 'no';
    onNavigate(flipsRoute(experimentId, query));
  };
  const seeFlips = (row: TableRow) => (
    <button
      type="button"
      className="btn btn--small btn--ghost"
      onClick={() =>
        openFlips({ judge: String(row.judge), comparison: row.comparison as FlipTarget['comparison'] })
      }
    >
      {t('seeFlips')}
    </button>
  );

  const failing = mostlyFailed(metrics);
  const sections = SECTIONS.filter((s) => !s.optional || tables.some((x) => x.id === s.table));

  return (
    <>
      {failing.length > 0 && (
        <div className="results-banner" role="alert" data-testid="failure-banner">
          <p>{t('failureBanner.title')}</p>
          <ul>
            {failing.map((c) => (
              <li key={`${c.judge}|${c.language}`}>
                {t('failureBanner.line', {
                  judge: c.judge,
                  language: c.language,
                  usable: c.usable,
                  total: c.usable + c.failed,
                  count: c.usable,
                })}
              </li>
            ))}
          </ul>
          <a href="#results-failures" onClick={(e) => jumpTo(e, 'results-failures')}>
            {t('failureBanner.see')}
          </a>
        </div>
      )}
      <div className="results-ci-switch" title={t('intervals.help')}>
        <label>
          {t('intervals.label')}{' '}
          <select
            data-testid="ci-switch"
            value={shownCi}
            onChange={(e) => setCi(e.target.value as MetricsStatistics['ci'])}
          >
            <option value="wilson">{t('intervals.wilson')}</option>
            <option value="cluster-bootstrap">{t('intervals.bootstrap')}</option>
          </select>
        </label>
      </div>
      <nav className="results-toc" aria-label={t('contents')}>
        {sections.map((s) => (
          <a key={s.id} href={`#results-${s.id}`} onClick={(e) => jumpTo(e, `results-${s.id}`)}>
            {t(`section.${sectionKey(s.id)}.title`, probeParams)}
          </a>
        ))}
      </nav>
      {sections.map((s) => {
        const title = t(`section.${sectionKey(s.id)}.title`, probeParams);
        const sectionFigures = s.figures
          .map((id) => figures.find((f) => f.id === id))
          .filter((f): f is FigureSpec => f !== undefined && hasData(f));
        const linksToFlips = s.table === 'invariance';
        return (
          <TableSection
            key={s.id}
            id={s.id}
            title={title}
            help={t(`section.${sectionKey(s.id)}.help`, probeParams)}
            table={tables.find((x) => x.id === s.table) ?? null}
            experimentId={experimentId}
            sensitivity={excludeFlagged}
            headerText={headerText(s.table)}
            footerLabel={s.totals ? t('total') : undefined}
            cellText={cellText}
            actionHeader={linksToFlips ? t('browseFlips') : undefined}
            rowAction={linksToFlips ? seeFlips : undefined}
          >
            {sectionFigures.length > 0 && (
              <div className="results-charts">
                {sectionFigures.map((f) => (
                  <ChartCard
                    key={f.id}
                    spec={f}
                    title={figureTitle(f.id)}
                    experimentId={experimentId}
                    sensitivity={excludeFlagged}
                    clickHint={t('clickForFlips')}
                    onClick={
                      CLICKABLE_FIGURES.has(f.id)
                        ? (p) => {
                            const target = clickTarget(f, p);
                            if (target) openFlips(target);
                          }
                        : undefined
                    }
                  />
                ))}
              </div>
            )}
          </TableSection>
        );
      })}
    </>
  );
}

/** The header's way into the flip browser. */
export function BrowseFlipsButton({ experimentId, excludeFlagged, onNavigate }: ResultsSectionsProps) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  return (
    <button
      type="button"
      className="btn"
      onClick={() => onNavigate(flipsRoute(experimentId, excludeFlagged ? { flagged: 'no' } : {}))}
    >
      {t('browseFlips')}
    </button>
  );
}

/** In-page links must not change the hash: the hash is the app's route. */
function jumpTo(e: MouseEvent, id: string) {
  e.preventDefault();
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}
