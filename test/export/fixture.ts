// A hand-made JudgeLsMetrics value (2 judges, 3 subsets) and matching judgments for the export tests.
// Labels, item ids and reasons carry LaTeX specials and Chinese on purpose.
import type {
  CI,
  Comparison,
  InvarianceRow,
  JudgeLsMetrics,
  JudgmentRecord,
  Language,
  QualityRow,
} from '../../src/shared/protocols/judge-ls/types';

export const JUDGES = ['GPT-4.1 mini', 'Claude_Haiku 4.5 & co #2'] as const;
export const SUBSETS = ['Natural', 'Adversarial/Neighbor', 'Adversarial/GPTInst'] as const;
const LANGUAGES: Language[] = ['EN', 'ZH', 'LS'];
const COMPARISONS: Comparison[] = ['EN-ZH', 'EN-LS'];

const ci = (v: number, half = 0.04): CI => [Math.max(0, v - half), Math.min(1, v + half)];

function quality(shift: number): QualityRow[] {
  return JUDGES.flatMap((judge, j) =>
    LANGUAGES.map((language, l) => {
      const strict = 0.835 - 0.03 * l - 0.05 * j + shift;
      const tieHalf = strict + 0.02;
      return {
        judge,
        language,
        n: 200 - l,
        accuracy_strict: strict,
        accuracy_strict_ci: ci(strict),
        accuracy_strict_ci_boot: ci(strict, 0.05),
        accuracy_tie_half: tieHalf,
        accuracy_tie_half_ci: ci(tieHalf),
        position_a_rate: 0.52 + 0.01 * l,
        tie_rate: 0.04 * (j + 1),
      };
    }),
  );
}

function invariance(shift: number): InvarianceRow[] {
  return JUDGES.flatMap((judge, j) =>
    COMPARISONS.map((comparison, c) => ({
      judge,
      comparison,
      n: 198,
      flip_rate: 0.12 + 0.03 * c + 0.02 * j + shift,
      flip_rate_ci: ci(0.12 + 0.03 * c + 0.02 * j + shift),
      flip_rate_ci_boot: ci(0.12 + 0.03 * c + 0.02 * j + shift, 0.05),
      correctness_flip_rate: 0.09 + 0.02 * c + shift,
      correctness_flip_rate_ci: ci(0.09 + 0.02 * c + shift),
      correctness_flip_rate_ci_boot: ci(0.09 + 0.02 * c + shift, 0.05),
      both_correct: 150,
      en_only_correct: 14 + 4 * c,
      target_only_correct: 4,
      both_wrong: 30 - 4 * c,
      mcnemar_p: c === 0 ? 0.0309 : 0.00021,
      mcnemar_p_holm: c === 0 ? 0.0618 : 0.00084,
      accuracy_change: (4 - (14 + 4 * c)) / 198,
      accuracy_change_ci: [(4 - (14 + 4 * c)) / 198 - 0.03, (4 - (14 + 4 * c)) / 198 + 0.03] as [
        number,
        number,
      ],
    })),
  );
}

export function makeMetrics(): JudgeLsMetrics {
  return {
    quality: quality(0),
    language_invariance: invariance(0),
    position: JUDGES.flatMap((judge, j) =>
      LANGUAGES.map((language, l) => ({
        judge,
        language,
        n: 99,
        inconsistency_rate: 0.1 + 0.02 * l + 0.03 * j,
        inconsistency_rate_ci: ci(0.1 + 0.02 * l + 0.03 * j),
        both_first: 0,
        both_second: 0,
        tied: 0,
        lean: 'none' as const,
        lean_p: 1,
        lean_p_holm: 1,
        first_rate: 0.5,
        first_rate_ci: [0.48, 0.52] as [number, number],
      })),
    ),
    tie_probe: JUDGES.map((judge, j) => ({
      judge,
      n: 100,
      en_wins: 60 - 10 * j,
      zh_wins: 25,
      ties: 15 + 10 * j,
      en_win_rate: (60 - 10 * j) / 100,
      en_win_rate_ci: ci((60 - 10 * j) / 100),
      zh_win_rate: 0.25,
      zh_win_rate_ci: ci(0.25),
      tie_rate: (15 + 10 * j) / 100,
      tie_rate_ci: ci((15 + 10 * j) / 100),
      en_share_non_tie: j === 0 ? 60 / 85 : null,
      binomial_p: j === 0 ? 0.00015 : 0.0633,
      // Holm over the two judges: 2 × 0.00015, then max(that, 1 × 0.0633).
      binomial_p_holm: j === 0 ? 0.0003 : 0.0633,
    })),
    subset_quality: JUDGES.flatMap((judge, j) =>
      SUBSETS.flatMap((subset, s) =>
        LANGUAGES.map((language, l) => ({
          judge,
          subset,
          language,
          n: 60,
          accuracy_tie_half: 0.9 - 0.15 * s - 0.03 * l - 0.04 * j,
          accuracy_tie_half_ci: ci(0.9 - 0.15 * s - 0.03 * l - 0.04 * j, 0.08),
        })),
      ),
    ),
    subset_flip: JUDGES.flatMap((judge, j) =>
      SUBSETS.flatMap((subset, s) =>
        COMPARISONS.map((comparison, c) => ({
          judge,
          subset,
          comparison,
          n: 60,
          flip_rate: 0.05 + 0.06 * s + 0.03 * c + 0.02 * j,
          flip_rate_ci: ci(0.05 + 0.06 * s + 0.03 * c + 0.02 * j, 0.07),
        })),
      ),
    ),
    audit: {
      checks: [
        { rule: 'empty', description: 'A variant field is empty' },
        {
          rule: 'numbers_missing',
          description: 'English has >= 2 number tokens, the variant none',
          threshold: 2,
        },
        { rule: 'number_count_diff', description: 'Number-token counts differ by >= 3', threshold: 3 },
        { rule: 'length_ratio', description: 'Length ratio variant/English < 0.10 (ZH) or < 0.35 (LS)' },
      ],
      flagged: [
        { item_id: 'llmbar_natural#17', reasons: ['ZH output_1: empty'] },
        {
          item_id: 'gptinst_5%{x}',
          reasons: ['LS output_2: length_ratio 0.21 < 0.35', 'ZH instruction: numbers_missing'],
        },
      ],
    },
    sensitivity: {
      excluded_item_ids: ['llmbar_natural#17', 'gptinst_5%{x}'],
      quality: quality(0.01),
      language_invariance: invariance(-0.01),
    },
    usage: [
      {
        role: 'transformer',
        judge: 'transformer',
        model: 'gpt-4.1-mini',
        calls: 400,
        cache_hits: 12,
        input_tokens: 250_000,
        output_tokens: 180_000,
        cached_input_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: 0.388,
      },
      ...JUDGES.map((judge, j) => ({
        role: 'judge',
        judge,
        model: j === 0 ? 'gpt-4.1-mini' : 'claude-haiku-4-5',
        calls: 1600,
        cache_hits: 0,
        input_tokens: 1_200_000,
        output_tokens: 90_000,
        cached_input_tokens: 300_000,
        cache_write_tokens: 0,
        cost_usd: j === 0 ? 0.624 : 1.65,
      })),
    ],
    failures: [
      {
        judge: JUDGES[0],
        kind: 'tie_probe',
        language: 'EN-ZH',
        reason: 'unparseable: no "winner" in {"verdict": "A > B"} ~ 50% of $x_1$',
        count: 3,
      },
      { judge: JUDGES[1], kind: 'quality', language: 'ZH', reason: 'HTTP 529 overloaded', count: 1 },
      {
        judge: 'transformer',
        kind: 'transform',
        language: 'LS',
        reason: 'unparseable: output_1 为空 (empty)',
        count: 2,
      },
    ],
    statistics: { ci: 'wilson', bootstrap_b: 2000, bootstrap_seed: 1, resampling_unit: 'item' },
  };
}

/** A few judgments covering both kinds, both statuses and hostile reason text. */
export function makeJudgments(): JudgmentRecord[] {
  const base = { judge: JUDGES[0], subset: 'Natural', gold: 1 as const, attempts: 1 };
  return [
    {
      ...base,
      itemId: 'item_1',
      kind: 'quality',
      language: 'EN',
      order: 'orig',
      status: 'ok',
      winner: 'A',
      reason: 'Output (a) follows the instruction.',
    },
    {
      ...base,
      itemId: 'item_1',
      kind: 'quality',
      language: 'ZH',
      order: 'swap',
      status: 'ok',
      winner: 'A',
      reason: '输出 (b) 更好，因为它遵循了指令。',
    },
    {
      ...base,
      itemId: 'item_1',
      kind: 'quality',
      language: 'LS',
      order: 'swap',
      status: 'ok',
      winner: 'tie',
      reason: 'Both "fine", really,\nsame',
    },
    {
      ...base,
      judge: JUDGES[1],
      itemId: 'item_2',
      subset: null,
      gold: 2,
      kind: 'quality',
      language: 'EN',
      order: 'orig',
      status: 'failed',
      winner: null,
      failureReason: 'HTTP 529: overloaded, gave up',
      reason: null,
      attempts: 5,
    },
    {
      ...base,
      itemId: 'item_1',
      kind: 'tie_probe',
      language: 'EN-ZH',
      order: 'en_zh',
      status: 'ok',
      winner: 'B',
      reason: 'ZH is clearer',
    },
    {
      ...base,
      itemId: 'item_1',
      kind: 'tie_probe',
      language: 'EN-ZH',
      order: 'zh_en',
      status: 'ok',
      winner: 'B',
      reason: 'same',
    },
  ];
}
