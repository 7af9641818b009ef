import { LineChart } from 'echarts/charts';
import { useFigureLanguage, type ResultsSectionsProps } from '../host';
import * as echarts from 'echarts/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SELF_CONSISTENCY_FIGURES_ZH } from '../../../../shared/protocols/self-consistency/report/figure-zh';
import {
  accuracyCurveFigure,
  agreementHistogramFigure,
  positionCurveFigure,
  stabilityFigure,
} from '../../../../shared/protocols/self-consistency/report/figures';
import type { SelfConsistencyMetrics } from '../../../../shared/protocols/self-consistency/types';
import type { FigureSpec } from '../../../../shared/report/chart-kit';
import { localizeFigure } from '../../../../shared/report/figure-i18n';
import { FigureCards, protocolPageTool, ResultTables } from '../../kits/ResultSections';
import { SC_NAMESPACES } from './i18n';
import { SC_UNSTABLE_PAGE } from './query';
import { scTableText } from './table-text';

// The accuracy and position curves are lines: a chart type the shared chart component does not load.
echarts.use([LineChart]);

/** Stability by judge and temperature, the accuracy and position curves over k, the histogram, the tables. */
export function ScSections({ results, experimentId, excludeFlagged }: ResultsSectionsProps) {
  const { t } = useTranslation(SC_NAMESPACES);
  const m = results.metrics as SelfConsistencyMetrics;
  const lang = useFigureLanguage();
  const figures = useMemo(() => {
    const local = (f: FigureSpec | null, title: string) =>
      f && { ...localizeFigure(f, lang, [SELF_CONSISTENCY_FIGURES_ZH]), screenTitle: title };
    return [
      local(stabilityFigure(m), t('results.stability')),
      local(accuracyCurveFigure(m), t('results.accuracy')),
      local(positionCurveFigure(m), t('results.position')),
      local(agreementHistogramFigure(m), t('results.histogram')),
    ].filter((f) => f !== null);
  }, [m, t, lang]);
  return (
    <div dir="auto" data-testid="sc-sections">
      <p className="hint">{t('results.hint')}</p>
      <FigureCards
        figures={figures}
        title={(spec) => spec.screenTitle}
        experimentId={experimentId}
        sensitivity={excludeFlagged}
      />
      <ResultTables
        tables={results.tables}
        text={(table) => scTableText(table, m, lang)}
        experimentId={experimentId}
        sensitivity={excludeFlagged}
      />
    </div>
  );
}

/** The results header's way to the unstable-items browser. */
export const BrowseUnstable = protocolPageTool(
  SC_UNSTABLE_PAGE,
  'sc-browse-unstable',
  SC_NAMESPACES,
  'results.browse',
);
