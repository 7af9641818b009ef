// The report kits' columns as a script reads them (CSV/XLSX headers): a study that builds its
// noise-floor or position table from the kit gets the headers the studies' exports had before
// the kit (issue 34), methods named where the interval or test needs them.
import { describe, expect, it } from 'vitest';
import { keyColumns, N_COLUMN, rateColumns } from './columns';
import { positionLeanColumns, repeatFloorColumns, repeatFloorMethods } from './paired-tables';
import { uniqueHeaders, type Table } from './table';

const headers = (columns: Table['columns']) =>
  uniqueHeaders({ id: 't', title: '', caption: '', columns, rows: [] });

describe('paired-table kit', () => {
  it("gives Judge-LS's and reference sensitivity's noise floors their own change column", () => {
    expect(
      headers([
        ...keyColumns('judge', 'comparison'),
        ...repeatFloorColumns({ flipHeader: 'Flip', onlyKey: 'language_only', onlyHeader: 'Language only' }),
      ]),
    ).toEqual([
      'Judge',
      'Comparison',
      'n',
      'Flip',
      'Flip 95% CI (Wilson)',
      'Repeat flip',
      'Repeat flip 95% CI (Wilson)',
      'Excess',
      'Excess 95% CI (Newcombe paired, method 10)',
      'Both flipped',
      'Language only',
      'Repeat only',
      'McNemar p',
      'Holm p',
    ]);
    const refSens = repeatFloorColumns({
      flipHeader: 'Flip rate',
      onlyKey: 'change_only',
      onlyHeader: 'Reference only',
    });
    expect(refSens.map((c) => c.key)).toContain('change_only');
    expect(headers(refSens).slice(1, 3)).toEqual(['Flip rate', 'Flip rate 95% CI (Wilson)']);
  });

  it('says the excess and its test in the words of the change', () => {
    expect(repeatFloorMethods({ excess: 'language − repeat', under: 'translation', only: 'language' })).toBe(
      'excess = language − repeat, with the Newcombe (1998) method 10 hybrid score interval (95%) on the ' +
        'paired 2×2 of flipped under translation × flipped under repetition. McNemar: exact two-sided test of ' +
        'language-only vs repeat-only flips, item-clustered',
    );
  });

  it('names Holm in the position lean only where the study did', () => {
    const named = headers(positionLeanColumns({ key: 'lean_p_holm', method: true }));
    const plain = headers(positionLeanColumns({ key: 'lean_p_holm', method: false }));
    // "Holm p" already says Holm: the header is the same, only the column's method differs.
    expect(named).toEqual(plain);
    expect(named).toEqual([
      'Both first',
      'Both second',
      'First rate',
      "First rate 95% CI (Newcombe (1998) method 10 over each item's two orders)",
      'Lean p (exact McNemar on discordant items)',
      'Holm p',
    ]);
    expect(positionLeanColumns({ key: 'p_holm', method: true }).at(-1)).toMatchObject({
      key: 'p_holm',
      method: 'Holm',
    });
  });

  it('pairs a rate with its interval column', () => {
    expect(headers([N_COLUMN, ...rateColumns('c1_accept', 'C1 accept', { ciHeader: 'C1 95% CI' })])).toEqual([
      'n',
      'C1 accept',
      'C1 accept 95% CI',
    ]);
    expect(rateColumns('flip_rate', 'Flip', { method: 'Wilson' })[1]).toMatchObject({
      key: 'flip_rate_ci',
      kind: 'ci',
      method: 'Wilson',
    });
  });
});
