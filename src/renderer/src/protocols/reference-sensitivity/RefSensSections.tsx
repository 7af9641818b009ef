import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { buildRefSensFigures } from '../../../../shared/protocols/reference-sensitivity/report/figures';
import type { RefSensMetrics } from '../../../../shared/protocols/reference-sensitivity/types';
import { ChartCard, hasData, type ResultsSectionsProps, TableSection, useFigureLanguage } from '../host';
import { REFSENS_FLIPS_PAGE } from './flips/query';
import { REF_SENS_NAMESPACES } from './i18n';
import { refSensTableText } from './table-text';
import { localizeFigure } from '../../../../shared/report/figure-i18n';
import { REFSENS_FIGURES_ZH } from '../../../../shared/protocols/reference-sensitivity/report/figure-zh';

/** Calibration chart, acceptance heatmap and flip bars, then every table with its CIs. */
export function RefSensSections({ results, experimentId, excludeFlagged }: ResultsSectionsProps) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const lang = useFigureLanguage();
  const figures = useMemo(
    () =>
      buildRefSensFigures(results.metrics as RefSensMetrics).map((f) =>
        localizeFigure(f, lang, [REFSENS_FIGURES_ZH]),
      ),
    [results.metrics, lang],
  );
  return (
    <div dir="auto">
      {figures.filter(hasData).map((spec) => (
        <ChartCard
          key={spec.id}
          spec={spec}
          title={t(`results.${spec.id}`, { defaultValue: spec.title })}
          experimentId={experimentId}
          sensitivity={excludeFlagged}
        />
      ))}
      {results.tables.map((table) => {
        const text = refSensTableText(table, lang);
        return (
          <TableSection
            key={table.id}
            id={table.id}
            title={text.title}
            help={text.caption}
            table={table}
            experimentId={experimentId}
            sensitivity={excludeFlagged}
            headerText={text.headerText}
            cellText={text.cellText}
          />
        );
      })}
    </div>
  );
}

/** The results header's way into the flip browser. */
export function BrowseRefSensFlips({ experimentId, onNavigate }: ResultsSectionsProps) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  return (
    <button
      type="button"
      className="btn"
      data-testid="refsens-browse-flips"
      onClick={() =>
        onNavigate({ name: 'experiment-page', experimentId, page: REFSENS_FLIPS_PAGE, query: {} })
      }
    >
      {t('browseFlips')}
    </button>
  );
}
