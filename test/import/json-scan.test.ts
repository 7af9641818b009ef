import { describe, expect, it } from 'vitest';
import { locateJsonError, scanJson } from '../../src/main/import/json-scan';
import { LineIndex } from '../../src/main/import/position';

function parseError(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (err) {
    return err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be invalid JSON`);
}

describe('scanJson', () => {
  it('finds where each top-level array element starts, past nesting and brackets inside strings', () => {
    const text = '[ {"a": "]},["}, "x\\"]",\n  [1, [2, {"b": []}]],-1.5e3 ,\r\n null, {} ]';
    const scan = scanJson(text);
    expect(scan.ok).toBe(true);
    const starts = scan.ok ? scan.elementStarts : [];
    expect(starts.map((o) => text.slice(o, o + 3))).toEqual(['{"a', '"x\\', '[1,', '-1.', 'nul', '{} ']);
    const lines = new LineIndex(text);
    expect(starts.map((o) => lines.line(o))).toEqual([1, 1, 2, 2, 3, 3]);
  });

  it('accepts exactly what JSON.parse accepts on a set of edge cases', () => {
    const valid = ['[]', ' {} ', '"\\u00e9"', '0', '-0.5E-2', '[true,false,null]', '{"a":{"b":[{}]}}'];
    const invalid = [
      '[1,]',
      '{"a":1,}',
      '01',
      '1.',
      '"\\x"',
      '"tab\there"',
      '[1 2]',
      "{'a':1}",
      'tru',
      '[',
      '',
    ];
    for (const t of valid) expect(scanJson(t).ok, t).toBe(true);
    for (const t of invalid) expect(scanJson(t).ok, t).toBe(false);
  });

  it("agrees with V8's position wherever V8 reports one", () => {
    const cases = ['[{"a": 1} {"b": 2}]', '{"a" 1}', '[1, 2', '[1] x', '{\n  "a": 1,\n  b: 2}'];
    for (const text of cases) {
      const v8 = /at position (\d+)/.exec((parseError(text) as Error).message);
      const scan = scanJson(text);
      expect(scan.ok, text).toBe(false);
      if (v8 && !scan.ok) expect(scan.offset, text).toBe(Number(v8[1]));
    }
  });
});

describe('locateJsonError', () => {
  it("uses the scanner's offset when V8 quotes the text instead of giving a position", () => {
    const text = '[\n  1,\n  2,\n]';
    const at = locateJsonError(text, parseError(text));
    expect(new LineIndex(text).locate(at.offset)).toEqual({ line: 4, column: 1 });
    expect(at.message).toBe("Unexpected token ']'");
  });
});
