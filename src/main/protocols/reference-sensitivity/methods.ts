// Reference sensitivity's Methods sentences (issue 24): the design and each judge's calibration
// gap (C1 − C2), taken from the metrics the tables show (calibration).
import { designMethods, methodsLines, methodsRate, type MethodsSection } from '../../../shared/paper/methods';
import type { RefSensMetrics } from '../../../shared/protocols/reference-sensitivity/types';
import type { MethodsHookContext } from '../plugin';
import type { RefSensExperiment } from './experiment';

export function refSensMethods({
  metrics,
  lang,
}: MethodsHookContext<RefSensExperiment, RefSensMetrics>): MethodsSection[] {
  const rows = methodsLines(metrics.calibration, lang, {
    en: (c) =>
      `${c.judge}, ${c.language}: C1 acceptance ${methodsRate(c.c1_accept, lang)}, C2 acceptance ${methodsRate(c.c2_accept, lang)}, gap ${methodsRate(c.cgp, lang)} (n = ${c.n})`,
    zh: (c) =>
      `${c.judge}，${c.language}：C1 接受率 ${methodsRate(c.c1_accept, lang)}，C2 接受率 ${methodsRate(c.c2_accept, lang)}，差值 ${methodsRate(c.cgp, lang)}（n = ${c.n}）`,
  });
  return [designMethods('reference-sensitivity.design', DESIGN, lang, rows)];
}

// The design as the paper states it, in both languages; the numbers follow it as lists.
const DESIGN = {
  title: { en: 'Design (reference sensitivity)', zh: '设计（参考答案敏感性）' },
  text: {
    en: 'Generator models answered each question; the judges decided whether an answer is correct without a reference (NR) and with one (RV and the other settings). Calibration: the acceptance rate when the reference is the correct answer (C1) and when it is a wrong one (C2), and their gap (n = questions with both verdicts valid).',
    zh: '生成模型回答每个问题；评审模型在无参考（NR）、有参考（RV）等设置下判断回答是否正确。校准：给出正确参考答案（C1）与错误参考答案（C2）时的接受率及其差值（n = 两种判断均有效的问题数）。',
  },
};
