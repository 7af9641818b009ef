// Hand-made data for the results tests.
import type { JudgmentView } from '../../../../../shared/protocols/judge-ls/views';
import type {
  CI,
  Comparison,
  JudgeLsMetrics,
  Language,
} from '../../../../../shared/protocols/judge-ls/types';

export const JUDGES = ['GPT-4.1 mini', 'Claude <b>Haiku</b>'];
export const SUBSETS = ['Natural', 'Adversarial'];
const LANGS: Language[] = ['EN', 'ZH', 'LS'];
const COMPS: Comparison[] = ['EN-ZH', 'EN-LS'];
const ci = (v: number): CI => [Math.max(0, v - 0.032), Math.min(1, v + 0.034)];

/** Two judges, three languages, two subsets; every table filled. */
export function makeMetrics(): JudgeLsMetrics {
  const quality = JUDGES.flatMap((judge, j) =>
    LANGS.map((language, l) => {
      const acc = 0.835 - 0.04 * l - 0.1 * j;
      return {
        judge,
        language,
        n: 200,
        accuracy_strict: acc,
        accuracy_strict_ci: ci(acc),
        accuracy_strict_ci_boot: ci(acc + 0.001),
        accuracy_tie_half: acc + 0.02,
        accuracy_tie_half_ci: ci(acc + 0.02),
        position_a_rate: 0.55,
        tie_rate: 0.04,
      };
    }),
  );
  const invariance = JUDGES.flatMap((judge, j) =>
    COMPS.map((comparison, c) => ({
      judge,
      comparison,
      n: 200,
      flip_rate: 0.12 + 0.03 * c + 0.05 * j,
      flip_rate_ci: ci(0.12 + 0.03 * c + 0.05 * j),
      flip_rate_ci_boot: ci(0.121 + 0.03 * c + 0.05 * j),
      correctness_flip_rate: 0.09 + 0.02 * c,
      correctness_flip_rate_ci: ci(0.09 + 0.02 * c),
      correctness_flip_rate_ci_boot: ci(0.091 + 0.02 * c),
      both_correct: 150,
      en_only_correct: 14,
      target_only_correct: 4,
      both_wrong: 32,
      mcnemar_p: c === 0 ? 0.0309 : 0.00021,
      mcnemar_p_holm: c === 0 ? 0.0618 : 0.00084,
      accuracy_change: -10 / 200,
      accuracy_change_ci: [-0.09, -0.01] as [number, number],
    })),
  );
  return {
    quality,
    language_invariance: invariance,
    position: JUDGES.flatMap((judge, j) =>
      LANGS.map((language, l) => ({
        judge,
        language,
        n: 100,
        inconsistency_rate: 0.1 + 0.02 * l + 0.05 * j,
        inconsistency_rate_ci: ci(0.1 + 0.02 * l + 0.05 * j),
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
    tie_probe: JUDGES.map((judge) => ({
      judge,
      n: 200,
      en_wins: 90,
      zh_wins: 50,
      ties: 60,
      en_win_rate: 0.45,
      en_win_rate_ci: ci(0.45),
      zh_win_rate: 0.25,
      zh_win_rate_ci: ci(0.25),
      tie_rate: 0.3,
      tie_rate_ci: ci(0.3),
      en_share_non_tie: 90 / 140,
      binomial_p: 0.00091,
      binomial_p_holm: Math.min(1, 0.00091 * JUDGES.length),
    })),
    subset_quality: JUDGES.flatMap((judge) =>
      SUBSETS.flatMap((subset, s) =>
        LANGS.map((language, l) => ({
          judge,
          subset,
          language,
          n: 100,
          accuracy_tie_half: 0.9 - 0.2 * s - 0.03 * l,
          accuracy_tie_half_ci: ci(0.9 - 0.2 * s - 0.03 * l),
        })),
      ),
    ),
    subset_flip: JUDGES.flatMap((judge) =>
      SUBSETS.flatMap((subset, s) =>
        COMPS.map((comparison, c) => ({
          judge,
          subset,
          comparison,
          n: 100,
          flip_rate: 0.1 + 0.1 * s + 0.02 * c,
          flip_rate_ci: ci(0.1 + 0.1 * s + 0.02 * c),
        })),
      ),
    ),
    audit: {
      checks: [{ rule: 'empty', description: 'Empty field' }],
      flagged: [{ item_id: 'X-002', reasons: ['ZH.output_1: empty'] }],
    },
    sensitivity: { excluded_item_ids: ['X-002'], quality, language_invariance: invariance },
    usage: [
      {
        role: 'transformer',
        judge: 'transformer',
        model: 'gpt-4.1-mini',
        calls: 400,
        cache_hits: 0,
        input_tokens: 120000,
        output_tokens: 90000,
        cached_input_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: 0.192,
      },
      ...JUDGES.map((judge) => ({
        role: judge,
        judge,
        model: 'm',
        calls: 1600,
        cache_hits: 10,
        input_tokens: 900000,
        output_tokens: 80000,
        cached_input_tokens: 1000,
        cache_write_tokens: 0,
        cost_usd: 1.5,
      })),
    ],
    failures: [{ judge: JUDGES[0], kind: 'quality', language: 'LS', reason: 'invalid answer', count: 3 }],
    statistics: { ci: 'wilson', bootstrap_b: 2000, bootstrap_seed: 1, resampling_unit: 'item' },
  };
}

export function emptyMetrics(): JudgeLsMetrics {
  return {
    quality: [],
    language_invariance: [],
    position: [],
    tie_probe: [],
    subset_quality: [],
    subset_flip: [],
    audit: { checks: [], flagged: [] },
    sensitivity: { excluded_item_ids: [], quality: [], language_invariance: [] },
    usage: [],
    failures: [],
    statistics: { ci: 'wilson', bootstrap_b: 2000, bootstrap_seed: 1, resampling_unit: 'item' },
  };
}

/** One judgment with sensible defaults. */
export function judgment(
  over: Partial<JudgmentView> & Pick<JudgmentView, 'itemId' | 'language' | 'order'>,
): JudgmentView {
  return {
    judge: 'J1',
    sourceId: `X-${String(over.itemId).padStart(3, '0')}`,
    subset: 'Natural',
    gold: 1,
    kind: over.language === 'EN-ZH' ? 'tie_probe' : 'quality',
    status: 'ok',
    winner: 'A',
    confidence: 0.9,
    reason: 'Output A follows the instruction.',
    failureReason: null,
    rawText: null,
    attempts: 1,
    ...over,
  };
}

/**
 * One judge's verdicts on one item in one order, a language each: `winners` maps each language
 * to its winner letter, in the order the verdicts are listed.
 */
export function verdictsOf(
  at: Partial<JudgmentView> & Pick<JudgmentView, 'itemId' | 'order'>,
  winners: Record<string, 'A' | 'B' | 'tie'>,
): JudgmentView[] {
  return Object.entries(winners).map(([language, winner]) => judgment({ ...at, language, winner }));
}
