// The distraction probe (src/shared/protocols/bias-probes/probes/distraction.ts) end to end: an
// irrelevant sentence added to a response against a closing line of the same size
// (test/helpers/added-sentence-suite.ts).
import { describe, expect, it } from 'vitest';
import { DISTRACTIONS, distractionProbe } from '../../../src/shared/protocols/bias-probes/probes/distraction';
import { addedSentenceSuite } from '../../helpers/added-sentence-suite';

addedSentenceSuite({
  probe: distractionProbe,
  pairs: DISTRACTIONS,
  neutral: 'distraction_neutral',
  condition: 'distraction',
  effect: 'distraction',
  gate: 'distraction_effect',
});

describe('the irrelevant sentences', () => {
  it('are about the author, CALM’s pasta kind first, and their bases are closing lines', () => {
    expect(DISTRACTIONS[0].added).toContain('loves eating pasta, especially with homemade tomato sauce');
    for (const d of DISTRACTIONS) {
      expect(d.added).toMatch(/^Fun fact: the author of this answer /);
      expect(d.neutral).toMatch(/^This is the end of the response/);
    }
  });
});
