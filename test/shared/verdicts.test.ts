// A link's interval columns are written once, by withIntervals: each estimate followed by its own
// `<name>_ci`, in the order given, so a link lists exactly the columns its table has.
import { describe, expect, it } from 'vitest';
import { withIntervals } from '../../src/shared/verdicts';

describe('withIntervals', () => {
  it('puts each interval right after the estimate it bounds, in order', () => {
    expect(withIntervals('flip_rate', 'repeat_flip_rate')).toEqual([
      'flip_rate',
      'flip_rate_ci',
      'repeat_flip_rate',
      'repeat_flip_rate_ci',
    ]);
  });
  it('adds nothing for no estimate', () => {
    expect(withIntervals()).toEqual([]);
  });
});
