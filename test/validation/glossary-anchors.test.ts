// The glossary links each method to its rows of docs/VALIDATION.md (issue 33): every anchor an
// entry names must be one the report holds (`npm run validate` writes one per check,
// `npm run validate:e2e` one per end-to-end check), and every entry names at least one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOSSARY_IDS, VALIDATION_REPORT, VALIDATION_ROWS } from '../../src/renderer/src/glossary/entries';
import { allChecks } from '../../bench/validate/checks';
import { allE2eChecks } from '../../bench/validate-e2e/checks';

const report = readFileSync(join(__dirname, '..', '..', VALIDATION_REPORT), 'utf8');
const anchors = new Set([...report.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));

describe('the glossary links each method to its VALIDATION.md rows', () => {
  it('every entry names rows, and every row it names is an anchor of the report', () => {
    for (const id of GLOSSARY_IDS) {
      expect(VALIDATION_ROWS[id].length, id).toBeGreaterThan(0);
      for (const anchor of VALIDATION_ROWS[id]) expect(anchors.has(anchor), `${id} → #${anchor}`).toBe(true);
    }
  });

  it("the report's anchors are the checks' ids, so they stay as long as the checks do", () => {
    const ids = new Set([...allChecks(), ...allE2eChecks(() => null as never)].map((c) => c.id));
    for (const id of GLOSSARY_IDS)
      for (const anchor of VALIDATION_ROWS[id]) expect(ids.has(anchor), anchor).toBe(true);
  });
});
