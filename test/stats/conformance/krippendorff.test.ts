// Conformance: Krippendorff's alpha against the published worked example, not a script of ours.
// Krippendorff K (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
// Communication, University of Pennsylvania: example C (4 observers, 12 units, missing values),
// α_nominal = 0.743 and α_ordinal = 0.815 as printed (three decimals). The same data are the
// example of R's irr::kripp.alpha ("the C data from Krippendorff").
import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from '../../../src/shared/stats';

const _ = null;
/** Units × observers A–D, in the paper's unit order. */
const EXAMPLE_C = [
  [1, 1, _, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [_, 5, 5, 5],
  [_, _, 1, 1],
  [_, _, 3, _],
];

/** Half a unit in the third decimal: a correctly rounded printed value is this close. */
const PRINTED = 5e-4;

describe('Krippendorff (2011), example C', () => {
  it('α nominal = 0.743, from 40 pairable values (unit 12 has one value and drops out)', () => {
    const r = krippendorffAlpha(EXAMPLE_C, 'nominal');
    expect(r.pairable).toBeCloseTo(40, 12);
    expect(Math.abs(r.alpha! - 0.743)).toBeLessThan(PRINTED);
  });

  it('α ordinal = 0.815', () => {
    expect(Math.abs(krippendorffAlpha(EXAMPLE_C, 'ordinal').alpha! - 0.815)).toBeLessThan(PRINTED);
  });
});
