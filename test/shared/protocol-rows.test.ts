import { describe, expect, it } from 'vitest';
import { biasRows } from '../../src/shared/protocols/bias-probes/views';
import { judgeLsRows } from '../../src/shared/protocols/judge-ls/views';

const judgeLsVariant = {
  itemId: 1,
  sourceId: 'X-001',
  subset: null,
  language: 'ZH',
  instruction: '指令',
  output1: 'a',
  output2: 'b',
  manual: false,
  reasons: [],
};

describe("a protocol's row reader", () => {
  it('hands its own rows back typed, unchanged', () => {
    const rows: object[] = [judgeLsVariant];
    expect(judgeLsRows.variants(rows)[0].language).toBe('ZH');
    expect(judgeLsRows.variant(judgeLsVariant)).toBe(judgeLsVariant);
  });

  it("refuses another protocol's rows, naming the row and the missing field", () => {
    expect(() => biasRows.variants([judgeLsVariant])).toThrow(
      'variants[0] is not a bias probes row: field "variant" is missing',
    );
    expect(() => judgeLsRows.judgments([{ judge: 'j', itemId: 1 }])).toThrow(/judgments\[0\].*"kind"/);
  });

  it('refuses a view the protocol does not have', () => {
    expect(() => biasRows.judgments([])).toThrow('bias probes has no judgments view');
  });
});
