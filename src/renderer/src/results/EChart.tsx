import { BarChart, CustomChart, HeatmapChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
  VisualMapContinuousComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FigureSpec } from '../../../shared/report/chart-kit';

/** The parts of an ECharts event or tooltip parameter the app reads. */
export interface ChartParams {
  componentType?: string;
  seriesType?: string;
  seriesName?: string;
  /** The series' English name when the figure was translated (figure-i18n keeps it as the id). */
  seriesId?: string;
  seriesIndex?: number;
  name?: string;
  value?: unknown;
}

// Only what the figures use, and the SVG renderer: crisp at any zoom, and it draws in jsdom.
echarts.use([
  BarChart,
  CustomChart,
  HeatmapChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
  VisualMapContinuousComponent,
  SVGRenderer,
]);

interface EChartProps {
  spec: FigureSpec;
  onClick?: (params: ChartParams) => void;
  label: string;
}

/**
 * One figure at its export size (the exported file looks the same) when the card has room, else
 * drawn at the card's width: a chart on screen never scrolls sideways, so no point hides behind
 * a scrollbar. A chart is drawn once it comes near the viewport: the dashboard has eight of them.
 */
export function EChart({ spec, onClick, label }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const onClickRef = useRef(onClick);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  // The frame's width (it asks for the export width, capped at its container's); 0 = not laid out.
  const [room, setRoom] = useState(0);
  const width = room > 0 ? Math.min(spec.width, room) : spec.width;

  useLayoutEffect(() => {
    const el = frame.current!;
    const measure = () => setRoom(Math.floor(el.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    onClickRef.current = onClick;
  }, [onClick]);

  useEffect(() => {
    if (near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '400px' },
    );
    observer.observe(ref.current!);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    if (!near) return;
    const el = ref.current!;
    const chart = echarts.init(el, null, { renderer: 'svg', width, height: spec.height });
    chart.on('click', (p) => onClickRef.current?.(p as ChartParams));
    return () => chart.dispose();
    // Drawn once; a new width resizes it below.
  }, [near, spec.height]);

  useEffect(() => {
    if (near) echarts.getInstanceByDom(ref.current!)?.resize({ width, height: spec.height });
  }, [near, width, spec.height]);

  useEffect(() => {
    if (near) echarts.getInstanceByDom(ref.current!)?.setOption(spec.option, { notMerge: true });
  }, [near, spec]);

  return (
    <div className="results-chart__frame" ref={frame} style={{ width: spec.width }}>
      <div
        ref={ref}
        className={`results-chart__canvas${onClick ? ' results-chart__canvas--clickable' : ''}`}
        role="img"
        aria-label={label}
        data-figure={spec.id}
        data-drawn={near}
        data-width={width}
        style={{ width, height: spec.height }}
      />
    </div>
  );
}
