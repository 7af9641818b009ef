import { LineChart, ScatterChart } from 'echarts/charts';
import { useFigureLanguage, ChartCard, type ResultsSectionsProps } from '../host';
import * as echarts from 'echarts/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  biasProfileFigure,
  differenceFigure,
  judgesOf,
  lengthScatterFigure,
} from '../../../../shared/protocols/bias-probes/report/figures';
import { BIAS_FIGURES_ZH } from '../../../../shared/protocols/bias-probes/report/figure-zh';
import { allEffects } from '../../../../shared/protocols/bias-probes/probe-registry';
import { effectLabel } from '../../../../shared/protocols/bias-probes/report/tables';
import { localizeFigure } from '../../../../shared/report/figure-i18n';
import type { BiasMetrics } from '../../../../shared/protocols/bias-probes/types';
import type { FigureSpec } from '../../../../shared/report/chart-kit';
import { FigureCards, ResultTables } from '../../kits/ResultSections';
import { BIAS_NAMESPACES } from './i18n';
import { biasTableText } from './table-text';
import { VariantBrowser } from './VariantBrowser';
import './bias.css';

// The profile and the scatter draw points and trend lines: chart types the shared chart
// component does not load for the other protocols.
echarts.use([ScatterChart, LineChart]);

/** A bias profile per judge, the paired-difference histograms, the length scatter, the tables and the variant browser. */
export function BiasSections({ results, experimentId, excludeFlagged }: ResultsSectionsProps) {
  const { t } = useTranslation(BIAS_NAMESPACES);
  const m = results.metrics as BiasMetrics;
  // Axes, legends and row labels in the UI's language (titles come from the UI's own words).
  const lang = useFigureLanguage();
  const local = useMemo(() => (f: FigureSpec) => localizeFigure(f, lang, [BIAS_FIGURES_ZH]), [lang]);
  const profiles = useMemo(
    () =>
      judgesOf(m).map((judge) =>
        local(
          biasProfileFigure(m, t('results.profileTitle', { judge }), judge, (r) =>
            effectLabel(r.effect, m.mode),
          ),
        ),
      ),
    [m, t, local],
  );
  const histograms = useMemo(
    () =>
      allEffects()
        .map(({ effect }) => effect.id)
        .map((e) =>
          differenceFigure(
            m,
            e,
            t('results.histogram', {
              effect: t(`results.effects.${m.mode}.${e}`, { defaultValue: effectLabel(e, m.mode) }),
            }),
          ),
        )
        .filter((f) => f !== null)
        .map(local),
    [m, t, local],
  );
  const scatter = useMemo(() => {
    const f = lengthScatterFigure(m, t('results.scatter'));
    return f && local(f);
  }, [m, t, local]);
  return (
    <div dir="auto">
      <p className="hint">{t('results.profileHint')}</p>
      {m.noise_floor && (
        <p className="hint" data-testid="bias-placebo-hint">
          {t('results.placeboHint')}
        </p>
      )}
      <div className="bias-profiles" data-testid="bias-profiles">
        <FigureCards
          figures={profiles}
          keyOf={(spec, i) => `${spec.id}-${i}`}
          experimentId={experimentId}
          sensitivity={excludeFlagged}
        />
      </div>
      {histograms.map((spec) => (
        <ChartCard
          key={spec.id}
          spec={spec}
          title={spec.title}
          experimentId={experimentId}
          sensitivity={excludeFlagged}
        />
      ))}
      {scatter && (
        <ChartCard
          spec={scatter}
          title={scatter.title}
          experimentId={experimentId}
          sensitivity={excludeFlagged}
        />
      )}
      <ResultTables
        tables={results.tables}
        text={(table) => biasTableText(table, m, lang)}
        experimentId={experimentId}
        sensitivity={excludeFlagged}
      />
      <VariantBrowser experimentId={experimentId} paraphrases={m.instruction_paraphrases} />
    </div>
  );
}
