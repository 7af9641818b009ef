import { useTranslation } from 'react-i18next';
import type { FigureSpec } from '../../../shared/report/chart-kit';
import { markSimulatedFigure } from '../../../shared/report/simulated';
import { useSimulated } from './simulated-context';
import { EChart, type ChartParams } from './EChart';
import { ExportButtons, figureTargets } from './ExportButtons';

interface ChartCardProps {
  spec: FigureSpec;
  /** The figure's title on screen. */
  title: string;
  experimentId: number;
  sensitivity: boolean;
  /** Shown under the title when the figure reacts to clicks. */
  clickHint?: string;
  onClick?: (params: ChartParams) => void;
}

/**
 * One figure with its SVG/PNG export buttons (the core renders the very same option). A simulated
 * experiment's figure says so in its card title and in the drawn chart's own title, as exported.
 */
export function ChartCard({
  spec: raw,
  title: rawTitle,
  experimentId,
  sensitivity,
  clickHint,
  onClick,
}: ChartCardProps) {
  const { t } = useTranslation('results');
  const simulated = useSimulated();
  const spec = simulated ? markSimulatedFigure(raw) : raw;
  const title = simulated ? t('simulatedChart', { title: rawTitle }) : rawTitle;
  return (
    <figure className="results-chart" data-testid={`chart-${spec.id}`}>
      <figcaption className="results-chart__head">
        <span className="results-chart__title">{title}</span>
        <ExportButtons
          experimentId={experimentId}
          sensitivity={sensitivity}
          what={title}
          targets={figureTargets(spec.id)}
        />
      </figcaption>
      {onClick && clickHint && <p className="hint">{clickHint}</p>}
      {spec.note && (
        <p className="results-chart__note" data-testid={`figure-note-${spec.id}`}>
          {spec.note}
        </p>
      )}
      <EChart spec={spec} label={title} onClick={onClick} />
    </figure>
  );
}

/** A figure is worth drawing when it has at least one value. */
export function hasData(spec: FigureSpec): boolean {
  const series = spec.option.series;
  const list = Array.isArray(series) ? series : series ? [series] : [];
  return list.some((s) => Array.isArray(s.data) && s.data.some((d) => d !== null && d !== undefined));
}
