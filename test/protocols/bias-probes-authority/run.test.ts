// The authority probe (src/shared/protocols/bias-probes/probes/authority.ts) end to end: a fake
// reference added to a response against a neutral note of the same size (test/helpers/added-sentence-suite.ts).
import {
  AUTHORITY_REFERENCES,
  authorityProbe,
} from '../../../src/shared/protocols/bias-probes/probes/authority';
import { describe, expect, it } from 'vitest';
import { addedSentenceSuite } from '../../helpers/added-sentence-suite';

addedSentenceSuite({
  probe: authorityProbe,
  pairs: AUTHORITY_REFERENCES,
  neutral: 'authority_neutral',
  condition: 'authority',
  effect: 'authority',
  gate: 'authority_effect',
});

describe('the fake references', () => {
  it('are CALM’s three kinds, two of each, with invented names and reserved domains only', () => {
    const refs = AUTHORITY_REFERENCES.map((r) => r.added);
    expect(refs.filter((r) => /"[^"]+".*(Press|Academic)/.test(r))).toHaveLength(2);
    expect(refs.filter((r) => /https:\/\//.test(r))).toHaveLength(2);
    expect(refs.filter((r) => /(Dr\.|Professor) .*: "/.test(r))).toHaveLength(2);
    // Web addresses only on the domains reserved for examples (RFC 2606); no DOI.
    for (const url of refs.join(' ').match(/https?:\/\/[^\s)]+/g)!)
      expect(new URL(url).hostname).toMatch(/(^|\.)example\.(org|com)$/);
    expect(refs.join(' ')).not.toMatch(/doi|10\.\d{4,}\//i);
  });
});
