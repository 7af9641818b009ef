// A run's status in words, EN and 中文: the app's status badge (renderer i18n `status.*`) and the
// exports that name a run's status (the judge report card) say the same word.
import type { ExperimentStatus } from './experiments';
import type { FigureLanguage } from './report/figure-i18n';

/**
 * What a run's status shows: its stored status, except that a run that finished with most of its
 * calls failed is not shown as plainly "finished" (green): every call failed, or most did.
 */
export type RunOutcome = ExperimentStatus | 'finished_with_failures' | 'all_failed';

export const RUN_STATUS_TEXT: Record<FigureLanguage, Record<RunOutcome, string>> = {
  // Lower case on purpose: the badge shows the run's own status word.
  en: {
    draft: 'draft',
    running: 'running',
    paused: 'paused',
    cancelled: 'cancelled',
    finished: 'finished',
    failed: 'failed',
    finished_with_failures: 'finished, most calls failed',
    all_failed: 'failed: every call failed',
  },
  zh: {
    draft: '未开始',
    running: '运行中',
    paused: '已暂停',
    cancelled: '已停止',
    finished: '已完成',
    failed: '出错',
    finished_with_failures: '已完成，但多数调用失败',
    all_failed: '失败：所有调用均失败',
  },
};

/**
 * The outcome to show for a run with these planned calls: a finished run whose calls all failed
 * is "every call failed"; one where at least half of the answered calls failed is "finished,
 * most calls failed". A few failures leave it "finished" (the failures are listed beside it).
 */
export function runOutcome(status: ExperimentStatus, calls: { done: number; failed: number }): RunOutcome {
  if (status !== 'finished' || calls.failed === 0) return status;
  if (calls.done === 0) return 'all_failed';
  return calls.failed >= calls.done ? 'finished_with_failures' : 'finished';
}
