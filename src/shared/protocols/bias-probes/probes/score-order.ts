// The score-option-order probe (pointwise only): the scale's options listed explicitly in the
// judge's instructions, ascending (1 … N, the order the default prompt names its ends in) or
// descending (N … 1), so the two conditions differ in order only. Effect: descending − ascending
// score; placebo: the ascending list asked again. Follows arXiv 2602.02219 (the order of a
// rubric's score options acts as a position bias).
import type { BiasProbe, JudgePrompt, PromptContext } from '../probe-types';

/** The options line, lowest first or highest first; the ends keep their anchors. */
export function scoreOptions(scale: number, descending: boolean): string {
  const options = Array.from({ length: scale }, (_, i) => i + 1).map((n) =>
    n === 1 ? '1 (very poor)' : n === scale ? `${n} (excellent)` : String(n),
  );
  return `Score options, in this order: ${(descending ? options.reverse() : options).join(', ')}.`;
}

// A rubric's criteria are its list lines ("- ", "* ", "• ", "1. ", "1) "), one criterion each;
// the built-in rubric is one sentence, so one criterion and nothing to reorder. A rubric with
// several has them reversed in the descending condition, as the issue asks (criteria reordered
// with the options).
const CRITERION = /^\s*(?:[-*•]|\d+[.)])\s+\S/;

function reverseCriteria(system: string): string {
  const lines = system.split('\n');
  const at = lines.map((l, i) => (CRITERION.test(l) ? i : -1)).filter((i) => i >= 0);
  if (at.length < 2) return system;
  const reversed = at.map((i) => lines[i]).reverse();
  at.forEach((i, j) => (lines[i] = reversed[j]));
  return lines.join('\n');
}

/** The descending options line: the top of the scale named first. */
const DESCENDING = /Score options, in this order: \d+ \(excellent\)/;

const listed =
  (descending: boolean) =>
  (p: JudgePrompt, ctx: PromptContext): JudgePrompt => ({
    ...p,
    system: `${descending ? reverseCriteria(p.system) : p.system}\n\n${scoreOptions(ctx.scale, descending)}`,
  });

export const scoreOrderProbe: BiasProbe = {
  id: 'score_order',
  conditions: [
    {
      id: 'score_ascending',
      name: { en: 'Score options ascending', zh: '分数选项升序' },
      text: { same: true },
      pointwise: true,
      pairwise: null,
      prompt: listed(false),
    },
    {
      id: 'score_descending',
      name: { en: 'Score options descending', zh: '分数选项降序' },
      text: { same: true },
      pointwise: true,
      pairwise: null,
      prompt: listed(true),
    },
  ],
  effects: [
    {
      id: 'score_order',
      measure: 'paired-change',
      variant: 'score_descending',
      base: 'score_ascending',
      modes: ['pointwise'],
      placebo: 'score_ascending',
      label: { pointwise: { en: 'Options descending − ascending', zh: '选项降序 − 升序' } },
      short: { en: 'score-option order', zh: '分数选项顺序' },
      placeboLabel: {
        en: 'Repeat − first, options ascending (placebo)',
        zh: '重复 − 首次，选项升序（安慰剂）',
      },
    },
  ],
  // Extra calls on top of the position/length/format battery: chosen, not run by default.
  optIn: true,
  // The simulated `-bias-score_order<NN>` judge: the options listed highest first.
  detect: (prompt, mode) => (mode === 'pointwise' && DESCENDING.test(prompt.system) ? 'response' : null),
  texts: {
    name: { en: 'score-option order', zh: '分数选项顺序' },
    choice: {
      en: 'Score-option order (the scale listed high to low vs low to high; pointwise)',
      zh: '分数选项顺序（量表从高到低与从低到高列出；仅逐项评分）',
    },
    methods: {
      en:
        'The score-option-order probe listed the scale’s options in the judge’s instructions from high to low ' +
        'and from low to high (criteria of a multi-criterion rubric reversed with them) and compared the scores, ' +
        'following the finding that the order of score options acts as a position bias (arXiv 2602.02219).',
      zh:
        '分数选项顺序探针在评审说明中将量表选项按从高到低与从低到高两种顺序列出（多条标准的评分细则随之倒序），' +
        '并比较分数；依据是分数选项的顺序会像位置偏差一样起作用（arXiv 2602.02219）。',
    },
  },
};
