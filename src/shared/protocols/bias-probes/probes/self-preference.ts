// The self-preference probe (self-enhancement in CALM's terms): does a judge favour answers its
// own model wrote? Observational — no text or prompt changes; it reads the original pairwise
// verdicts (both orders) on the items where exactly one response is by the judge's model, as the
// dataset names them (`model_1` / `model_2`, e.g. MT-Bench's model_a / model_b), against the human
// label on the same pair: the excess self-win rate (measure `own-answers`), length-balanced by
// stratifying on which response is longer. Follows Panickssery et al. 2024 (arXiv 2404.13076)
// and the self-enhancement bias of Zheng et al. 2023 (MT-Bench, arXiv 2306.05685); the judges do
// not generate answers here, so a dataset naming no answer model is refused.
import { z } from 'zod';
import type { BiasProbe, ProbeOption } from '../probe-types';
import { probeOption } from '../probe-types';

/**
 * Which answer models count as a judge's own: judge-model pattern → answer-model patterns, `*`
 * any run of characters, case-insensitive. A judge matching no pattern owns the answers of a
 * model named exactly as it is. Editable per study (`probeOptions.self_preference.models`); the
 * stored config, so the manifest, holds the mapping a run used.
 */
export const DEFAULT_OWN_MODELS: Readonly<Record<string, readonly string[]>> = {
  'gpt-4*': ['gpt-4*'],
  'gpt-3.5*': ['gpt-3.5*'],
  'claude*': ['claude*'],
  'gemini*': ['gemini*'],
  'llama*': ['llama*'],
  'vicuna*': ['vicuna*'],
  'qwen*': ['qwen*'],
};

const glob = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );

export const OWN_MODELS: ProbeOption<Record<string, string[]>> = {
  key: 'models',
  schema: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)),
  default: Object.fromEntries(Object.entries(DEFAULT_OWN_MODELS).map(([k, v]) => [k, [...v]])),
  label: {
    en: 'Own answer models per judge model (pattern → answer-model patterns, * any text)',
    zh: '各评审模型的“自己的”回答模型（模式 → 回答模型模式，* 为任意文本）',
  },
};

/** Whether `answerModel` is `judgeModel`'s own under `mapping`. */
export function isOwnAnswer(
  judgeModel: string,
  answerModel: string,
  mapping: Readonly<Record<string, readonly string[]>>,
): boolean {
  const matched = Object.entries(mapping).filter(([judge]) => glob(judge).test(judgeModel));
  if (!matched.length) return answerModel.toLowerCase() === judgeModel.toLowerCase();
  return matched.some(([, answers]) => answers.some((a) => glob(a).test(answerModel)));
}

/**
 * What the simulated provider's `-bias-self_preference<NN>` judge recognises as its own answer:
 * a simulated judge cannot tell who wrote a text, so simulated data marks its answers with this
 * line (a real judge would recognise its own style). Keyless runs only.
 */
export const SIMULATED_OWN_MARK = '(written in the simulated judge’s own style)';

const section = (user: string, tag: string) => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(user)?.[1];

export const selfPreferenceProbe: BiasProbe = {
  id: 'self_preference',
  conditions: [],
  effects: [
    {
      id: 'self_preference',
      measure: 'own-answers',
      variant: 'original',
      base: 'original',
      modes: ['pairwise'],
      // Not read: nothing is perturbed, so no side is repeated as a placebo (the kit skips it).
      placebo: 'original',
      label: {
        pointwise: { en: 'Own answer: judge − human win rate', zh: '自己的回答：评审 − 人类胜率' },
        pairwise: { en: 'Own answer: judge − human win rate', zh: '自己的回答：评审 − 人类胜率' },
      },
      short: { en: 'excess self-win rate', zh: '超额自胜率' },
      ownAnswer: (judgeModel, answerModel, opts) =>
        isOwnAnswer(judgeModel, answerModel, probeOption(opts, 'self_preference', OWN_MODELS)),
    },
  ],
  cardGate: 'self_preference',
  optIn: true,
  needsAnswerModels: {
    en: 'compares a judge’s verdicts on its own model’s answers with the human labels, so the dataset must name each response’s model (model_1, model_2)',
    zh: '将评审对自身模型回答的判决与人工标签比较，因此数据集须注明每个回答的模型（model_1、model_2）',
  },
  options: [OWN_MODELS],
  detect: (prompt, mode) => {
    if (mode !== 'pairwise') return null;
    const marked = (['A', 'B'] as const).filter((x) =>
      section(prompt.user, `response_${x.toLowerCase()}`)?.includes(SIMULATED_OWN_MARK),
    );
    return marked.length === 1 ? marked[0] : null;
  },
  texts: {
    name: { en: 'self-preference', zh: '自我偏好' },
    choice: {
      en: 'Self-preference (a judge’s verdicts on its own model’s answers vs the human labels; pairwise, needs model_1/model_2)',
      zh: '自我偏好（评审对自身模型回答的判决与人工标签对比；仅成对比较，需要 model_1/model_2）',
    },
    methods: {
      en:
        'The self-preference probe took the items where exactly one response was written by the judge’s own model ' +
        '(a stated judge-to-answer-model mapping) and compared the judge’s win rate of that response, both orders ' +
        'averaged, with the human label on the same pair; the excess self-win rate was balanced for length by ' +
        'averaging the strata where the own response is and is not the longer one (Welch t), following ' +
        'Panickssery et al. (2024, arXiv 2404.13076) and the self-enhancement bias of Zheng et al. (2023, arXiv 2306.05685).',
      zh:
        '自我偏好探针选取恰有一个回答由评审自身模型写成的条目（按给定的评审模型—回答模型对应表），' +
        '将评审对该回答的胜率（两种顺序平均）与同一对回答的人工标签比较；超额自胜率按“自身回答较长”与“不较长”两层' +
        '等权平均以平衡长度（Welch t），依据 Panickssery et al.（2024，arXiv 2404.13076）及 Zheng et al.（2023，arXiv 2306.05685）的自我增强偏差。',
    },
  },
};
