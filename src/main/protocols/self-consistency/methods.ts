// Self-consistency's Methods sentences (issue 24): the design and each judge's share of unanimous
// questions, taken from the metrics the tables show (stability).
import {
  methodsNumber,
  methodsRate as rate,
  type MethodsSection,
  designSection,
} from '../../../shared/paper/methods';
import type { SelfConsistencyMetrics } from '../../../shared/protocols/self-consistency/types';
import type { MethodsHookContext } from '../plugin';
import type { ScExperiment } from './experiment';

export function selfConsistencyMethods({
  metrics,
  lang,
}: MethodsHookContext<ScExperiment, SelfConsistencyMetrics>): MethodsSection[] {
  const zh = lang === 'zh';
  const temp = (t: number | null) =>
    t === null ? (zh ? '提供方默认' : 'provider default') : methodsNumber(t);
  const rows = metrics.stability
    .filter((s) => s.category === 'all')
    .map((s) =>
      zh
        ? `${s.judge}，${s.condition}（温度 ${temp(s.temperature)}）：一致率 ${rate(s.unanimous_rate, lang)}（${s.unanimous}/${s.questions} 个问题）`
        : `${s.judge}, ${s.condition} (temperature ${temp(s.temperature)}): unanimous ${rate(s.unanimous_rate, lang)} (${s.unanimous} of ${s.questions} questions)`,
    );
  return [
    designSection(
      'self-consistency.design',
      { en: 'Design (self-consistency)', zh: '设计（自洽性）' },
      {
        en: `Each judge answered every question ${metrics.repeats} times (orders: ${metrics.orders.join(', ')}). The unanimous rate is the share of questions whose valid repeats all gave the same verdict (denominator: questions with at least two valid repeats).`,
        zh: `每个评审模型对每个问题重复回答 ${metrics.repeats} 次（顺序：${metrics.orders.join('、')}）。一致率为全部有效重复给出相同判断的问题比例（分母 = 至少有两次有效重复的问题数）。`,
      },
      lang,
      rows,
    ),
  ];
}
