import { useMemo } from 'react';
import { type ResultsSectionsProps, useFigureLanguage } from '../host';
import { useTranslation } from 'react-i18next';
import { buildRefSensFigures } from '../../../../shared/protocols/reference-sensitivity/report/figures';
import type { RefSensMetrics } from '../../../../shared/protocols/reference-sensitivity/types';
import { FigureCards, protocolPageTool, ResultTables } from '../../kits/ResultSections';
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
      <FigureCards
        figures={figures}
        title={(spec) => t(`results.${spec.id}`, { defaultValue: spec.title })}
        experimentId={experimentId}
        sensitivity={excludeFlagged}
      />
      <ResultTables
        tables={results.tables}
        text={(table) => refSensTableText(table, lang)}
        experimentId={experimentId}
        sensitivity={excludeFlagged}
      />
    </div>
  );
}

/** The results header's way into the flip browser. */
export const BrowseRefSensFlips = protocolPageTool(
  REFSENS_FLIPS_PAGE,
  'refsens-browse-flips',
  REF_SENS_NAMESPACES,
  'browseFlips',
);
