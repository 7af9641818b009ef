// Pointwise datasets (id, instruction, response, optional category, reference, human_score):
// read by the same importer (JSONL and CSV), every problem located by line/row and field, and
// judged by the bias-probes protocol (each response scored alone).
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/main/base/errors';
import { parseDatasetFile } from '../../src/main/import';
import { biasItem } from '../../src/main/protocols/bias-probes/item';

const enc = (s: string) => new TextEncoder().encode(s);

function issuesOf(fileName: string, text: string) {
  try {
    parseDatasetFile(fileName, enc(text));
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).issues ?? [];
  }
  throw new Error('expected the file to be rejected');
}

describe('pointwise datasets', () => {
  it('reads JSONL into pointwise items: the response and optional fields in extra', () => {
    const text = [
      { id: 'p1', instruction: 'Name a prime.', response: '7 is prime.', category: 'math', human_score: 5 },
      { id: 'p2', instruction: 'Say hi', response: 'Hi!', reference: 'Hello' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const parsed = parseDatasetFile('pw.jsonl', enc(text));
    expect(parsed.kind).toBe('pointwise');
    expect(parsed.items[0]).toEqual({
      sourceId: 'p1',
      subset: 'math',
      instruction: 'Name a prime.',
      output1: null,
      output2: null,
      label: null,
      extra: { response: '7 is prime.', category: 'math', human_score: 5 },
    });
    const item = biasItem({
      ...parsed.items[0],
      id: 1,
      datasetId: 1,
      extra: parsed.items[0].extra ?? null,
    } as never);
    expect(item.responses).toEqual([{ slot: 'response', text: '7 is prime.' }]);
    expect(item.humanScore).toBe(5);
  });

  it('reads CSV cells, human scores as numbers', () => {
    const parsed = parseDatasetFile(
      'pw.csv',
      enc('id,instruction,response,human_score\na,Q?,An answer,3.5\n'),
    );
    expect(parsed.kind).toBe('pointwise');
    expect(parsed.items[0].extra).toEqual({ response: 'An answer', human_score: 3.5 });
  });

  it('names the line and field of every problem and stores nothing', () => {
    const issues = issuesOf(
      'bad.jsonl',
      [
        JSON.stringify({ id: 'a', instruction: 'Q', response: '' }),
        JSON.stringify({ id: 'a', instruction: 'Q', response: 'R', human_score: 'high' }),
      ].join('\n'),
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 1, field: 'response', message: 'is empty' }),
        expect.objectContaining({ line: 2, field: 'id' }),
        expect.objectContaining({ line: 2, field: 'human_score' }),
      ]),
    );
  });
});
