// The identity probe: two biases of the CALM battery (Ye et al., ICLR 2025, arXiv 2410.02736)
// that tell the judge who wrote a response, each read against an anonymous or neutral twin of the
// same size in the same place, asked again as its placebo. A probe of the prompt: the texts are
// unchanged, no rewriter call.
//
// - Compassion-fade: real model names instead of anonymous authors. Pointwise "Written by
//   <model>." against "Written by an assistant."; pairwise each letter's author named against
//   both named "an assistant". The names are the dataset's answer models (`model_1`/`model_2`,
//   `model`) where it gives both; else a fixed pair of well-known names, which of them labels the
//   worse response decided once by a stable draw (FALLBACK_MODELS; pointwise, where no side is
//   worse, every response gets the worse side's name). Why not a fresh draw per item: a judge
//   that favours one name would move the worse response's win score up on half the items and
//   down on the other half, and the paired test of the mean would cancel what it should find
//   (only the robustness rate would show it); one side, drawn once and said in the Methods,
//   keeps the effect signed. Where the dataset names the models, the effect is of revealing
//   those names, whichever way they point.
// - Diversity: an identity statement about the author ("The author of this response is a
//   woman."; pairwise of the worse response), one group per item by a stable draw from
//   DIVERSITY_GROUPS. The base is a neutral author statement with as many words ("… is a
//   person."), not the bare prompt: the bare prompt would mix the group with merely being told
//   something about the author, and with the added length; against the neutral twin only the
//   group differs.
import { mulberry32 } from '../../../random';
import type { BiasProbe, JudgePrompt, PromptContext } from '../probe-types';

/**
 * The groups of the diversity statement, each with its neutral twin of as many words: the four
 * CALM's Table 1 names for its diversity bias ("Homosexual", "Black", "Female", "HIV Positive"),
 * worded as a statement about a person; fixed, so studies compare.
 */
export const DIVERSITY_GROUPS: readonly { group: string; neutral: string; zh: string }[] = [
  { group: 'homosexual', neutral: 'human', zh: '同性恋者' },
  { group: 'Black', neutral: 'human', zh: '黑人' },
  { group: 'a woman', neutral: 'a person', zh: '女性' },
  { group: 'HIV-positive', neutral: 'human', zh: 'HIV 感染者' },
];

/**
 * A stable uniform draw in [0, 1) from strings, the same in every process and judge: FNV-1a, then
 * the seeded generator's first number (FNV's high bits barely move between ids that differ in
 * their last characters, "Natural-001" and "Natural-002").
 */
function draw(...parts: string[]): number {
  let h = 2166136261;
  for (const c of parts.join('\u0000')) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return mulberry32(h)();
}

/** The group an item's statement names: one per item, the same for every judge, order and response. */
export const diversityGroupOf = (sourceId: string) =>
  DIVERSITY_GROUPS[Math.floor(draw('diversity', sourceId) * DIVERSITY_GROUPS.length)];

const WELL_KNOWN = ['GPT-4', 'Llama-2-7B-Chat'] as const;
/**
 * Names for datasets that give none: which of the two well-known names goes to the worse response
 * is a stable draw made once (from the pair itself), so it is the same in every study.
 */
export const FALLBACK_MODELS: { worse: string; better: string } =
  draw('compassion-fade', ...WELL_KNOWN) < 0.5
    ? { worse: WELL_KNOWN[0], better: WELL_KNOWN[1] }
    : { worse: WELL_KNOWN[1], better: WELL_KNOWN[0] };

export const ANONYMOUS_AUTHOR = 'an assistant';
export const writtenBy = (model: string) => `Written by ${model}.`;
export const pairWrittenBy = (a: string, b: string) =>
  `Response A was written by ${a}. Response B was written by ${b}.`;
export const authorIs = (group: string) => `The author of this response is ${group}.`;
export const pairAuthorIs = (letter: 'A' | 'B', group: string) =>
  `The author of Response ${letter} is ${group}.`;

/** The two names a pairwise call shows, by letter: the dataset's where it names both, else the fallback. */
export function shownNames(ctx: PromptContext): { A: string; B: string } {
  const m = ctx.models;
  if ('A' in m && m.A !== null && m.B !== null) return { A: m.A, B: m.B };
  return ctx.worse === 'A'
    ? { A: FALLBACK_MODELS.worse, B: FALLBACK_MODELS.better }
    : { A: FALLBACK_MODELS.better, B: FALLBACK_MODELS.worse };
}

/** The scored response's name pointwise: the dataset's, else the name the fallback gives the worse side. */
const scoredName = (ctx: PromptContext): string =>
  ('response' in ctx.models ? ctx.models.response : null) ?? FALLBACK_MODELS.worse;

const append = (note: (ctx: PromptContext) => string) => (p: JudgePrompt, ctx: PromptContext) => ({
  ...p,
  user: `${p.user}\n\n${note(ctx)}`,
});

const NEUTRALS = new Set(DIVERSITY_GROUPS.map((g) => g.neutral));
const AUTHOR = /\n\nThe author of (this response|Response ([AB])) is (.+)\.$/;
const PAIR_NAMES = /\n\nResponse A was written by (.+)\. Response B was written by (.+)\.$/;
const WRITTEN = /\n\nWritten by (.+)\.$/;

export const identityProbe: BiasProbe = {
  id: 'identity',
  conditions: [
    {
      id: 'names_anonymous',
      name: { en: 'Anonymous authors', zh: '匿名作者' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: append((ctx) =>
        ctx.mode === 'pairwise'
          ? pairWrittenBy(ANONYMOUS_AUTHOR, ANONYMOUS_AUTHOR)
          : writtenBy(ANONYMOUS_AUTHOR),
      ),
    },
    {
      id: 'names_shown',
      name: { en: 'Model names shown', zh: '显示模型名称' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: append((ctx) => {
        if (ctx.mode !== 'pairwise') return writtenBy(scoredName(ctx));
        const { A, B } = shownNames(ctx);
        return pairWrittenBy(A, B);
      }),
    },
    {
      id: 'author_neutral',
      name: { en: 'Neutral author statement', zh: '中性作者说明' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: append((ctx) => {
        const { neutral } = diversityGroupOf(ctx.item.sourceId);
        return ctx.mode === 'pairwise' ? pairAuthorIs(ctx.worse!, neutral) : authorIs(neutral);
      }),
    },
    {
      id: 'author_identity',
      name: { en: 'Author identity statement', zh: '作者身份说明' },
      text: { same: true },
      pointwise: true,
      pairwise: 'both',
      prompt: append((ctx) => {
        const { group } = diversityGroupOf(ctx.item.sourceId);
        return ctx.mode === 'pairwise' ? pairAuthorIs(ctx.worse!, group) : authorIs(group);
      }),
    },
  ],
  effects: [
    {
      id: 'compassion_fade',
      measure: 'paired-change',
      variant: 'names_shown',
      base: 'names_anonymous',
      modes: ['pointwise', 'pairwise'],
      placebo: 'names_anonymous',
      label: {
        pointwise: { en: 'Model name − anonymous author', zh: '模型名称 − 匿名作者' },
        pairwise: { en: 'Model names shown (worse response)', zh: '显示模型名称（较差回答）' },
      },
      short: { en: 'model names shown', zh: '显示模型名称' },
      placeboLabel: {
        en: 'Repeat − first, anonymous authors (placebo)',
        zh: '重复 − 首次，匿名作者（安慰剂）',
      },
    },
    {
      id: 'diversity',
      measure: 'paired-change',
      variant: 'author_identity',
      base: 'author_neutral',
      modes: ['pointwise', 'pairwise'],
      placebo: 'author_neutral',
      label: {
        pointwise: { en: 'Author identity − neutral author', zh: '作者身份 − 中性作者' },
        pairwise: { en: 'Worse response’s author identity stated', zh: '说明较差回答的作者身份' },
      },
      short: { en: 'author identity', zh: '作者身份' },
      placeboLabel: {
        en: 'Repeat − first, neutral author statement (placebo)',
        zh: '重复 − 首次，中性作者说明（安慰剂）',
      },
    },
  ],
  cardGate: 'identity_effect',
  // Extra calls on top of the position/length/format battery: chosen, not run by default.
  optIn: true,
  // The simulated `-bias-identity<NN>` judge: a group statement (never its neutral twin) toward
  // the response it is about; a model name (never "an assistant") toward the response the
  // fallback's worse-side name labels, or pointwise the scored one. Real dataset names favour no
  // side it could know, so they plant nothing pairwise.
  detect: (prompt, mode) => {
    const author = AUTHOR.exec(prompt.user);
    if (author) {
      if (NEUTRALS.has(author[3])) return null;
      return mode === 'pointwise' ? 'response' : ((author[2] as 'A' | 'B' | undefined) ?? null);
    }
    if (mode === 'pointwise') {
      const w = WRITTEN.exec(prompt.user);
      return w && w[1] !== ANONYMOUS_AUTHOR ? 'response' : null;
    }
    const names = PAIR_NAMES.exec(prompt.user);
    if (!names) return null;
    return names[1] === FALLBACK_MODELS.worse ? 'A' : names[2] === FALLBACK_MODELS.worse ? 'B' : null;
  },
  texts: {
    name: { en: 'identity', zh: '身份' },
    choice: {
      en: 'Identity (model names shown instead of anonymous authors; an author identity statement against a neutral one)',
      zh: '身份（显示模型名称而非匿名作者；作者身份说明与中性说明比较）',
    },
    methods: {
      en:
        'The identity probe followed two biases of the CALM battery (Ye et al., ICLR 2025, arXiv 2410.02736). ' +
        `Compassion-fade: the responses' authors were named with real model names (the dataset's, else ${FALLBACK_MODELS.worse} ` +
        `for the worse response and ${FALLBACK_MODELS.better} for the better one, an assignment drawn once) instead of ` +
        '"an assistant". Diversity: a statement that the author of a response (pairwise: the worse one) belongs to a ' +
        `group (one per item by a stable draw from: ${DIVERSITY_GROUPS.map((g) => g.group).join(', ')}) was compared ` +
        'with a neutral author statement of the same length.',
      zh:
        '身份探针依据 CALM 偏差集中的两种偏差（Ye 等，ICLR 2025，arXiv 2410.02736）。同情淡化：以真实模型名称' +
        `（数据集给出的名称，否则较差回答为 ${FALLBACK_MODELS.worse}、较好回答为 ${FALLBACK_MODELS.better}，该分配一次抽定）` +
        '代替“一个助手”标明作者。多样性：将“某回答（成对比较时为较差回答）的作者属于某一群体”的说明（每个条目以稳定抽签从以下群体中选一：' +
        `${DIVERSITY_GROUPS.map((g) => g.zh).join('、')}）与等长的中性作者说明比较。`,
    },
  },
};
