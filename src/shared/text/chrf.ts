/**
 * chrF (Popović 2015, "chrF: character n-gram F-score for automatic MT evaluation"): character
 * n-grams of orders 1..6 after removing whitespace; precision and recall are averaged over the
 * orders both texts have n-grams of, and combined as F_β with β = 2 (recall weighs twice as much).
 * Matches sacrebleu's CHRF() defaults (char_order 6, word_order 0, beta 2, whitespace dropped,
 * no eps smoothing); test/text/chrf.test.ts checks it against values sacrebleu 2.6.0 computes and
 * a hand-worked example. Scores are on 0..100, as sacrebleu reports them.
 *
 * A back-translation check reads it as the equivalence score between a source text and the
 * back-translation of its translation (issue 37): a faithful translation comes back close.
 */

export const CHRF_CHAR_ORDER = 6;
export const CHRF_BETA = 2;

/** Per order n: n-grams in the hypothesis, in the reference, and matched (clipped counts). */
export type ChrfStatistics = [hyp: number, ref: number, match: number][];

/** Characters by code point (an astral character is one character, as in Python). */
function characters(text: string): string[] {
  return [...text.replace(/\s+/gu, '')];
}

function ngramCountsOf(chars: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= chars.length; i++) {
    const g = chars.slice(i, i + n).join('\u0000');
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return counts;
}

/** The sufficient statistics of one hypothesis against one reference. */
export function chrfStatistics(
  hypothesis: string,
  reference: string,
  order = CHRF_CHAR_ORDER,
): ChrfStatistics {
  const hyp = characters(hypothesis);
  const ref = characters(reference);
  const stats: ChrfStatistics = [];
  for (let n = 1; n <= order; n++) {
    const h = ngramCountsOf(hyp, n);
    const r = ngramCountsOf(ref, n);
    let match = 0;
    for (const [g, c] of h) match += Math.min(c, r.get(g) ?? 0);
    stats.push([Math.max(0, hyp.length - n + 1), Math.max(0, ref.length - n + 1), match]);
  }
  return stats;
}

/** chrF from (summed) statistics: 0..100; 0 when nothing matches or a text is empty. */
export function chrfFromStatistics(stats: ChrfStatistics, beta = CHRF_BETA): number {
  let precision = 0;
  let recall = 0;
  let effectiveOrder = 0;
  for (const [hyp, ref, match] of stats) {
    // An order one text is too short for has no precision or recall: left out of the average.
    if (hyp > 0 && ref > 0) {
      precision += match / hyp;
      recall += match / ref;
      effectiveOrder++;
    }
  }
  if (effectiveOrder === 0) return 0;
  precision /= effectiveOrder;
  recall /= effectiveOrder;
  const b2 = beta * beta;
  const denominator = b2 * precision + recall;
  return denominator > 0 ? (100 * (1 + b2) * precision * recall) / denominator : 0;
}

/** Sentence-level chrF of a hypothesis against one reference. */
export function chrf(hypothesis: string, reference: string): number {
  return chrfFromStatistics(chrfStatistics(hypothesis, reference));
}

/** Corpus-level chrF: statistics summed over the pairs, then one score (sacrebleu's corpus_score). */
export function corpusChrf(pairs: readonly { hypothesis: string; reference: string }[]): number {
  const total: ChrfStatistics = Array.from({ length: CHRF_CHAR_ORDER }, () => [0, 0, 0]);
  for (const p of pairs) {
    chrfStatistics(p.hypothesis, p.reference).forEach(([h, r, m], i) => {
      total[i][0] += h;
      total[i][1] += r;
      total[i][2] += m;
    });
  }
  return chrfFromStatistics(total);
}
