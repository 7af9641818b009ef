// A run's status in words, EN and 中文: the app's status badge (renderer i18n `status.*`) and the
// exports that name a run's status (the judge report card) say the same word.
import type { ExperimentStatus } from './experiments';
import type { FigureLanguage } from './report/figure-i18n';

export const RUN_STATUS_TEXT: Record<FigureLanguage, Record<ExperimentStatus, string>> = {
  // Lower case on purpose: the badge shows the run's own status word.
  en: {
    draft: 'draft',
    running: 'running',
    paused: 'paused',
    cancelled: 'cancelled',
    finished: 'finished',
    failed: 'failed',
  },
  zh: {
    draft: '未开始',
    running: '运行中',
    paused: '已暂停',
    cancelled: '已停止',
    finished: '已完成',
    failed: '出错',
  },
};
