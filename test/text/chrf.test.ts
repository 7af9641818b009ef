import { describe, expect, it } from 'vitest';
import { chrf, chrfStatistics, corpusChrf } from '../../src/shared/text/chrf';

// Reference values: sacrebleu 2.6.0, `CHRF()` defaults (chrF2, char order 6, whitespace dropped),
// `sentence_score(h, [r]).score` and `corpus_score(hyps, [refs]).score`; the first three pairs are
// sacrebleu's README example.
const SACREBLEU: [string, string, number][] = [
  ['The dog bit the man.', 'The dog bit the man.', 100],
  ["It wasn't surprising.", 'It was not unexpected.', 24.73801947679657],
  ['The man had just bitten him.', 'The man bit him first.', 34.84006733201161],
  ['cat sat', 'cat', 75.6578947368421],
  ['a', 'bcd', 0],
  ['', 'abc', 0],
  ['مرحبا بالعالم', 'مرحبا بالعالم الجميل', 65.98188590814678],
  ['नमस्ते दुनिया', 'नमस्ते', 72.63646255213685],
];

describe('chrF (Popović 2015, sacrebleu defaults)', () => {
  it('works out by hand on "ab" against "abc"', () => {
    // n=1: 2 hyp, 3 ref, 2 matched (P 1, R 2/3); n=2: 1, 2, 1 (P 1, R 1/2); n≥3: "ab" has none, left out.
    expect(chrfStatistics('ab', 'abc').slice(0, 3)).toEqual([
      [2, 3, 2],
      [1, 2, 1],
      [0, 1, 0],
    ]);
    // mean P = 1, mean R = 7/12; F2 = 5·P·R / (4P + R) = (35/12) / (55/12) = 7/11.
    expect(chrf('ab', 'abc')).toBeCloseTo((100 * 7) / 11, 10);
  });

  it.each(SACREBLEU)('sentence %j against %j is %f as in sacrebleu', (h, r, expected) => {
    expect(chrf(h, r)).toBeCloseTo(expected, 8);
  });

  it('sums statistics over the corpus before scoring, as sacrebleu corpus_score does', () => {
    const pairs = SACREBLEU.slice(0, 3).map(([hypothesis, reference]) => ({ hypothesis, reference }));
    expect(corpusChrf(pairs)).toBeCloseTo(50.043063606582294, 8);
    // Not the mean of the sentence scores.
    expect(corpusChrf(pairs)).not.toBeCloseTo((100 + 24.738 + 34.84) / 3, 1);
  });

  it('weighs recall twice: a hypothesis missing half the reference scores lower than one padding it', () => {
    const ref = 'the cat sat on the mat';
    expect(chrf('the cat sat', ref)).toBeLessThan(chrf('the cat sat on the mat and more words', ref));
  });
});
