// The agreement dashboard's figure words in Chinese (titles, axes, legends), for the 中文 UI.
// Applied by src/shared/report/figure-i18n.ts; judge labels pass through.
import type { FigureDictionary } from '../report/figure-i18n';

export const AGREEMENT_FIGURES_ZH: FigureDictionary = {
  exact: {
    'Judge vs human, with the calibration mapping': '评审模型与人工对比，含校准映射',
    'Human median': '人工中位数',
    'Human majority': '人工多数',
    'Spearman ρ by human-quality band': '按人工质量分段的 Spearman ρ',
    low: '低',
    mid: '中',
    high: '高',
  },
  // The mapping curve's series is "<judge> mapping".
  patterns: [[/ mapping$/, ' 映射']],
};
