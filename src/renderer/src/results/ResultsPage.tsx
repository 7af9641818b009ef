import { useMemo, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { JudgeLsMetrics } from '../../../shared/protocols/judge-ls/types';
import { isResultsOf } from '../../../shared/experiments';
import { buildTables } from '../../../shared/protocols/judge-ls/report/tables';
import { ErrorPanel } from '../components/ErrorPanel';
import { useExportAll } from '../lib/useExportAll';
import { CLICKABLE_FIGURES, clickTarget, dashboardFigures, type FigureSpec, type FlipTarget } from './charts';
import { EChart } from './EChart';
import { ExportButtons } from './ExportButtons';
import type { Navigate } from './routes';
import { SortableTable } from './SortableTable';
import { dashboardTables, type Row, type TableSpec } from './tables';
import { useResults } from './useResults';
import './i18n';
import './results.css';

interface ResultsPageProps {
  experimentId: number;
  excludeFlagged: boolean;
  onNavigate: Navigate;
}

type SectionId = 'quality' | 'invariance' | 'position' | 'tie_probe' | 'subsets' | 'usage' | 'failures';

/** What each section shows: one table and the figures that draw it. */
const SECTIONS: { id: SectionId; table: TableSpec['id']; figures: string[] }[] = [
  {
    id: 'quality',
    table: 'quality',
    figures: ['accuracy_by_language', 'accuracy_by_language_tie_half', 'accuracy_drop'],
  },
  { id: 'invariance', table: 'invariance', figures: ['flip_rates', 'subset_flip_heatmap'] },
  { id: 'position', table: 'position', figures: ['position_inconsistency'] },
  { id: 'tie_probe', table: 'tie_probe', figures: ['tie_probe_preference'] },
  { id: 'subsets', table: 'subset_quality', figures: ['subset_quality_heatmap'] },
  { id: 'usage', table: 'usage', figures: [] },
  { id: 'failures', table: 'failures', figures: [] },
];

const TABLE_FORMATS = [
  { label: 'CSV', format: 'csv' },
  { label: 'XLSX', format: 'xlsx' },
  { label: 'LaTeX', format: 'tex' },
] as const;
const FIGURE_FORMATS = [
  { label: 'SVG', format: 'svg' },
  { label: 'PNG', format: 'png' },
] as const;

/** No verdict of any judge stored yet: nothing to show but what will appear here. */
export function hasNoJudgments(m: JudgeLsMetrics): boolean {
  return (
    m.quality.length === 0 &&
    m.tie_probe.length === 0 &&
    m.position.length === 0 &&
    !m.failures.some((f) => f.kind !== 'transform')
  );
}

/** A figure is worth drawing when it has at least one value. */
function hasData(spec: FigureSpec): boolean {
  const series = spec.option.series;
  const list = Array.isArray(series) ? series : series ? [series] : [];
  return list.some((s) => Array.isArray(s.data) && s.data.some((d) => d !== null && d !== undefined));
}

export function ResultsPage({ experimentId, excludeFlagged, onNavigate }: ResultsPageProps) {
  const { t } = useTranslation('results');
  const { results, detail, loading, error, reload } = useResults(experimentId, excludeFlagged);
  // Until the renderer's protocol registry lands, this page shows Judge-LS results only.
  const metrics =
    results && isResultsOf<JudgeLsMetrics, 'judge-ls'>(results, 'judge-ls') ? results.metrics : null;
  const flaggedCount = results?.flagged.length ?? 0;

  const tables = useMemo(() => (metrics ? dashboardTables(metrics) : []), [metrics]);
  const figures = useMemo(
    () =>
      metrics
        ? dashboardFigures(metrics, {
            points: t('tooltip.points'),
            flip: t('tooltip.flip'),
            correctnessFlip: t('tooltip.correctnessFlip'),
            enWins: t('tooltip.enWins'),
            tie: t('tooltip.tie'),
            zhWins: t('tooltip.zhWins'),
          })
        : [],
    [metrics, t],
  );
  // The core's per-table export knows the export folder's tables; a dashboard table without one has no buttons.
  const exportable = useMemo(() => new Set(metrics ? buildTables(metrics).map((x) => x.id) : []), [metrics]);

  const openFlips = (target: FlipTarget) => {
    const query: Record<string, string> = { judge: target.judge, comparison: target.comparison };
    if (target.subset !== undefined) query.subset = target.subset;
    if (target.type) query.type = target.type;
    if (excludeFlagged) query.flagged = 'no';
    onNavigate({ name: 'flips', experimentId, query });
  };

  const header = (
    <header className="page__header">
      <div>
        <h1 className="page__title">{t('title')}</h1>
        <p className="page__intro">
          {detail ? t('intro', { name: detail.name, dataset: detail.datasetName }) : t('introPlain')}
        </p>
      </div>
      {metrics && !hasNoJudgments(metrics) && (
        <div className="page__tools">
          <button
            type="button"
            className="btn"
            onClick={() =>
              onNavigate({
                name: 'flips',
                experimentId,
                query: excludeFlagged ? { flagged: 'no' } : {},
              })
            }
          >
            {t('browseFlips')}
          </button>
          <ExportAll experimentId={experimentId} />
        </div>
      )}
    </header>
  );

  if (error && !results) {
    return (
      <div className="page results-page">
        {header}
        <ErrorPanel title={t('loadFailed')} error={error} onRetry={reload} testId="results-error" />
      </div>
    );
  }
  if (!metrics) {
    return (
      <div className="page results-page">
        {header}
        <p className="empty-note" role="status">
          {t('loading')}
        </p>
      </div>
    );
  }
  if (hasNoJudgments(metrics)) {
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
      <div className="results-switch">
        <label className="results-switch__label">
          <input
            type="checkbox"
            data-testid="exclude-flagged"
            checked={excludeFlagged}
            disabled={flaggedCount === 0 && !excludeFlagged}
            onChange={(e) => onNavigate({ name: 'results', experimentId, excludeFlagged: e.target.checked })}
          />
          {t('withoutFlagged', { count: flaggedCount })}
        </label>
        <span className="hint results-switch__hint">
          {excludeFlagged ? t('withoutFlaggedOn', { count: flaggedCount }) : t('withoutFlaggedOff')}
        </span>
        {loading && <span className="spinner" aria-hidden="true" />}
      </div>
      {error && <ErrorPanel title={t('loadFailed')} error={error} onRetry={reload} />}

      <nav className="results-toc" aria-label={t('contents')}>
        {SECTIONS.map((s) => (
          <a key={s.id} href={`#results-${s.id}`} onClick={(e) => jumpTo(e, `results-${s.id}`)}>
            {t(`section.${s.id}.title`)}
          </a>
        ))}
      </nav>

      {SECTIONS.map((s) => {
        const table = tables.find((x) => x.id === s.table)!;
        const sectionFigures = s.figures
          .map((id) => figures.find((f) => f.id === id))
          .filter((f): f is FigureSpec => f !== undefined && hasData(f));
        return (
          <section
            key={s.id}
            id={`results-${s.id}`}
            className="results-section"
            data-testid={`section-${s.id}`}
          >
            <header className="results-section__head">
              <div>
                <h2 className="results-section__title">{t(`section.${s.id}.title`)}</h2>
                <p className="results-section__help">{t(`section.${s.id}.help`)}</p>
              </div>
              {exportable.has(table.id) && (
                <ExportButtons
                  experimentId={experimentId}
                  sensitivity={excludeFlagged}
                  what={t(`section.${s.id}.title`)}
                  targets={TABLE_FORMATS.map((f) => ({
                    label: f.label,
                    target: { table: table.id, format: f.format },
                  }))}
                />
              )}
            </header>
            <SortableTable
              columns={table.columns}
              rows={table.rows}
              footer={table.footer}
              caption={t(`section.${s.id}.title`)}
              testId={`table-${table.id}`}
              actionHeader={table.linksToFlips ? t('browseFlips') : undefined}
              rowAction={
                table.linksToFlips
                  ? (row: Row) => (
                      <button
                        type="button"
                        className="btn btn--small btn--ghost"
                        onClick={() =>
                          openFlips({
                            judge: String(row.judge),
                            comparison: row.comparison as FlipTarget['comparison'],
                          })
                        }
                      >
                        {t('seeFlips')}
                      </button>
                    )
                  : undefined
              }
            />
            {sectionFigures.length > 0 && (
              <div className="results-charts">
                {sectionFigures.map((f) => (
                  <ChartCard
                    key={f.id}
                    spec={f}
                    experimentId={experimentId}
                    sensitivity={excludeFlagged}
                    onOpenFlips={CLICKABLE_FIGURES.has(f.id) ? openFlips : undefined}
                  />
                ))}
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** In-page links must not change the hash: the hash is the app's route. */
function jumpTo(e: MouseEvent, id: string) {
  e.preventDefault();
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function ChartCard({
  spec,
  experimentId,
  sensitivity,
  onOpenFlips,
}: {
  spec: FigureSpec;
  experimentId: number;
  sensitivity: boolean;
  onOpenFlips?: (target: FlipTarget) => void;
}) {
  const { t } = useTranslation('results');
  const title = t(`figure.${spec.id}`);
  return (
    <figure className="results-chart" data-testid={`chart-${spec.id}`}>
      <figcaption className="results-chart__head">
        <span className="results-chart__title">{title}</span>
        <ExportButtons
          experimentId={experimentId}
          sensitivity={sensitivity}
          what={title}
          targets={FIGURE_FORMATS.map((f) => ({
            label: f.label,
            target: { figure: spec.id, format: f.format },
          }))}
        />
      </figcaption>
      {onOpenFlips && <p className="hint">{t('clickForFlips')}</p>}
      <EChart
        spec={spec}
        label={title}
        onClick={
          onOpenFlips
            ? (p) => {
                const target = clickTarget(spec, p);
                if (target) onOpenFlips(target);
              }
            : undefined
        }
      />
    </figure>
  );
}

function ExportAll({ experimentId }: { experimentId: number }) {
  const { t } = useTranslation('results');
  const { state, run, reset } = useExportAll(experimentId);
  return (
    <div className="results-export-all">
      <button
        type="button"
        className="btn btn--primary"
        data-testid="export-all"
        disabled={state.status === 'busy'}
        onClick={() => void run()}
      >
        {state.status === 'busy' ? t('export.busy') : t('export.all')}
      </button>
      {state.status === 'error' && (
        <p className="inline-error" role="alert">
          {t('export.failed', { message: state.error.message })}
        </p>
      )}
      {state.status === 'done' && (
        <div className="results-export-all__done" role="status" data-testid="export-all-result">
          <p>
            {t('export.written', { count: state.result.files.length })}{' '}
            <span className="mono results-export-all__dir">{state.result.dir}</span>
          </p>
          <details>
            <summary>{t('export.files')}</summary>
            <ul className="results-export-all__files mono small">
              {state.result.files.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </details>
          <button type="button" className="btn btn--small btn--ghost" onClick={reset}>
            {t('dismiss')}
          </button>
        </div>
      )}
    </div>
  );
}
