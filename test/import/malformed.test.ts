import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputIssue } from '../../src/shared/domain';
import { importDataset } from '../../src/main/datasets/service';
import { AppError } from '../../src/main/base/errors';
import { FIXTURES, storeCounts, tempDatabase } from './helpers';

const MALFORMED = join(FIXTURES, 'malformed');

interface Expected {
  line?: number;
  row?: number;
  field?: string;
  /** A substring of the issue's message. */
  says: string;
}

/** Each fixture and the exact problems it must produce, in file order. */
const CASES: Record<string, Expected[]> = {
  'empty.jsonl': [{ says: 'file is empty (0 bytes)' }],
  'whitespace-only.json': [{ says: 'file is empty (it holds only whitespace)' }],
  'missing-comma.json': [
    { line: 10, says: "not valid JSON: Expected ',' or ']' after array element (line 10, column 3)" },
  ],
  'single-quotes.json': [{ line: 4, says: "not valid JSON: Unexpected token ''' (line 4, column 17)" }],
  'jsonl-in-json.json': [
    {
      line: 2,
      says: 'not valid JSON: Unexpected non-whitespace character after JSON (line 2, column 1); if the file',
    },
  ],
  'element-not-object.json': [
    { line: 3, row: 2, says: 'item must be a JSON object, got a string' },
    { line: 4, row: 3, says: 'item must be a JSON object, got null' },
  ],
  'top-level-object.json': [
    { line: 1, says: 'top level must be an array of items, got an object (its key "data" holds an array' },
  ],
  'not-an-object.jsonl': [
    { line: 2, says: 'must be a JSON object, got an array' },
    { line: 3, says: "not valid JSON: Unexpected token 'j' (column 1)" },
  ],
  'broken-line.jsonl': [{ line: 3, says: 'not valid JSON: Unterminated string (column 36)' }],
  'missing-field.jsonl': [
    { line: 2, field: 'output_2', says: 'is missing' },
    { line: 3, field: 'instruction', says: 'is missing (the upstream name "input" is accepted too)' },
  ],
  'wrong-type.json': [
    { line: 10, row: 2, field: 'output_1', says: 'must be a string, got a number (42)' },
    { line: 18, row: 3, field: 'output_2', says: 'must be a string, got an object ({"text":"x"})' },
  ],
  'empty-text.jsonl': [
    { line: 1, field: 'instruction', says: 'is empty' },
    { line: 2, field: 'output_2', says: 'is whitespace-only' },
  ],
  'bad-labels.jsonl': [
    { line: 1, field: 'label', says: 'must be 1 or 2, got 0' },
    { line: 2, field: 'label', says: 'must be 1 or 2, got 3' },
    { line: 3, field: 'label', says: 'must be 1 or 2, got 1.5' },
    { line: 4, field: 'label', says: 'must be 1 or 2, got "A"' },
    { line: 5, field: 'label', says: 'must be 1 or 2, got null' },
    { line: 7, field: 'label', says: 'is missing' },
  ],
  'bad-label.csv': [
    { line: 2, row: 1, field: 'label', says: 'must be 1 or 2, got "A"' },
    { line: 3, row: 2, field: 'label', says: 'is empty' },
    { line: 4, row: 3, field: 'label', says: 'must be 1 or 2, got "1.0"' },
  ],
  'bad-id-and-subset.json': [
    { line: 2, row: 1, field: 'subset', says: 'must be a string, got a number (5)' },
    { line: 2, row: 1, field: 'id', says: 'must be a string or a number, got a boolean' },
  ],
  'duplicate-id.jsonl': [{ line: 4, field: 'id', says: 'duplicate id "a": also used on line 1' }],
  'generated-id-collision.csv': [
    {
      line: 3,
      row: 2,
      field: 'id',
      says: 'duplicate id "Natural-002": this item has no id and its generated id is already used on line 2',
    },
  ],
  'given-id-taken.jsonl': [
    {
      line: 2,
      field: 'id',
      says: 'duplicate id "item-001": line 1 has no id and was given "item-001" by its position',
    },
  ],
  'missing-column.csv': [
    {
      line: 1,
      says: 'header is missing required column "label"; found: "instruction", "output_1", "output_2", "labels"',
    },
  ],
  'semicolons.csv': [
    { line: 1, says: 'the header has a single column: the file seems to use another delimiter than ","' },
  ],
  // CRLF rows, a quoted field spanning lines 2-4 and a blank line 5: lines are physical lines.
  'wrong-column-count.csv': [
    { line: 6, row: 2, says: 'has 3 columns, but the header has 4' },
    { line: 7, row: 3, says: 'has 5 columns, but the header has 4' },
  ],
  'unclosed-quote.csv': [{ line: 3, field: 'output_1', says: 'unclosed quote' }],
  'text-after-quote.csv': [{ line: 3, field: 'output_1', says: 'text follows a closing quote' }],
  'error-on-last-line.jsonl': [{ line: 41, field: 'label', says: 'must be 1 or 2, got 3' }],
  'array-in-jsonl.jsonl': [{ line: 1, says: 'looks like a JSON array, not JSON Lines' }],
  'no-items.json': [{ says: 'no items' }],
  'header-only.csv': [{ says: 'no items' }],
  'notes.xyz': [{ says: 'unsupported file: ".xyz" files are not a dataset format' }],
};

/** Files that cannot be stored as text: written at setup, then read back like any other file. */
const BINARY_CASES: Record<string, { bytes: Buffer; expected: Expected[] }> = {
  'invalid-utf8.jsonl': {
    bytes: Buffer.concat([
      Buffer.from(
        '{"instruction": "ok", "output_1": "a", "output_2": "b", "label": 1}\n{"instruction": "caf',
      ),
      Buffer.from([0xe9]), // Latin-1 "é"
      Buffer.from('", "output_1": "a", "output_2": "b", "label": 2}\n'),
    ]),
    expected: [{ line: 2, says: 'not valid UTF-8: byte 0xE9 at byte offset 88 (line 2, column 21)' }],
  },
  'utf16le-bom.csv': {
    bytes: Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('instruction,output_1,output_2,label\n', 'utf16le'),
    ]),
    expected: [{ says: 'file is encoded as UTF-16 little-endian (byte order mark FF FE); save it as UTF-8' }],
  },
  'utf16be-bom.jsonl': {
    bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('{}\n', 'utf16le').swap16()]),
    expected: [{ says: 'file is encoded as UTF-16 big-endian (byte order mark FE FF); save it as UTF-8' }],
  },
  'utf16-no-bom.json': {
    bytes: Buffer.from('[\n{}]', 'utf16le'),
    expected: [{ line: 1, says: 'contains a NUL byte at byte offset 1 (line 1, column 2)' }],
  },
  'sheet.xlsx': {
    bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0xc7, 0xa1]),
    expected: [{ says: 'content is not UTF-8 text; import .jsonl' }],
  },
};

describe('malformed dataset files', () => {
  const store = tempDatabase();
  afterAll(() => store.close());

  beforeAll(() => {
    // A dataset already in the store, so "unchanged" is checked against real rows.
    const good = join(FIXTURES, 'normalized.json');
    importDataset(store.db, { fileName: good, bytes: readFileSync(good) });
    for (const [name, { bytes }] of Object.entries(BINARY_CASES)) writeFileSync(join(store.dir, name), bytes);
  });

  /** Imports through the core; the store must be exactly as before. */
  function rejected(path: string): AppError {
    const before = storeCounts(store.db);
    expect(before.datasets).toBeGreaterThan(0);
    let caught: unknown;
    try {
      importDataset(store.db, { fileName: path, bytes: readFileSync(path) });
    } catch (err) {
      caught = err;
    }
    expect(storeCounts(store.db)).toEqual(before);
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('invalid_input');
    return caught as AppError;
  }

  function expectIssues(path: string, err: AppError, expected: Expected[]): void {
    expect(err.issues).toHaveLength(expected.length);
    expected.forEach((exp, i) => {
      const issue: InputIssue = err.issues[i];
      expect(issue.file).toBe(path);
      expect(issue.line).toBe(exp.line);
      expect(issue.row).toBe(exp.row);
      expect(issue.field).toBe(exp.field);
      expect(issue.message).toContain(exp.says);
    });
    expect(err.message.startsWith(`${path}: `)).toBe(true);
    const summaryHead = expected.length === 1 ? `${path}: ` : `${path}: ${expected.length} problems, first: `;
    expect(err.message.startsWith(summaryHead)).toBe(true);
    expect(err.message).toContain(expected[0].says);
  }

  it('covers every malformed fixture on disk, at least 15 of them', () => {
    const onDisk = readdirSync(MALFORMED).sort();
    expect(onDisk.length).toBeGreaterThanOrEqual(15);
    expect(onDisk).toEqual([...Object.keys(CASES), 'too-many-problems.jsonl'].sort());
  });

  for (const [name, expected] of Object.entries(CASES)) {
    it(`${name}: rejected with its specific problems, store unchanged`, () => {
      const path = join(MALFORMED, name);
      expectIssues(path, rejected(path), expected);
    });
  }

  for (const [name, { expected }] of Object.entries(BINARY_CASES)) {
    it(`${name}: rejected for its encoding, store unchanged`, () => {
      const path = join(store.dir, name);
      expectIssues(path, rejected(path), expected);
    });
  }

  it('writes nothing of a file whose only problem is on its last line', () => {
    rejected(join(MALFORMED, 'error-on-last-line.jsonl'));
    const n = store.db.prepare("SELECT COUNT(*) AS n FROM items WHERE source_id LIKE 't-%'").get() as {
      n: number;
    };
    expect(n.n).toBe(0);
  });

  it('reports every problem but lists at most 100, saying how many more there are', () => {
    const path = join(MALFORMED, 'too-many-problems.jsonl');
    const err = rejected(path);
    expect(err.message).toBe(`${path}: 130 problems, first: line 1: field "label": must be 1 or 2, got 3`);
    expect(err.issues).toHaveLength(101);
    expect(err.issues[99]).toMatchObject({ line: 100, field: 'label' });
    expect(err.issues[100]).toEqual({ file: path, message: '… and 30 more problems not shown' });
  });
});
