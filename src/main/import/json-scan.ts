/**
 * A JSON syntax walker that records offsets. `JSON.parse` builds the values; this only answers
 * what it cannot: where each element of a top-level array starts (to name its line), and where
 * a syntax error is when V8's message carries no position (e.g. "Unexpected token '}'").
 */
export type JsonScan = { ok: true; elementStarts: number[] } | { ok: false; offset: number; message: string };

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

class SyntaxAt extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

export function scanJson(text: string): JsonScan {
  let i = 0;
  const n = text.length;
  const stack: ('{' | '[')[] = [];
  const elementStarts: number[] = [];

  const fail = (message: string, at = i): never => {
    throw new SyntaxAt(at, message);
  };
  const skipWs = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  const found = () => (i < n ? `unexpected ${JSON.stringify(text[i])}` : 'unexpected end of input');

  const scanString = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= n) fail('unterminated string', start);
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape in string');
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else fail('bad escape in string');
      } else if (text.charCodeAt(i) < 0x20) fail('unescaped control character in string');
      else i++;
    }
  };

  const scanNumber = () => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail(`${found()} (expected a value)`);
    i += m![0].length;
  };

  const scanValue = () => {
    if (stack.length === 1 && stack[0] === '[') elementStarts.push(i);
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      skipWs();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
        return false;
      }
      return true;
    }
    if (c === '"') scanString();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) scanNumber();
    else {
      const lit = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      if (!lit) fail(`${found()} (expected a value)`);
      i += lit!.length;
    }
    return false;
  };

  try {
    skipWs();
    let opened = scanValue();
    for (;;) {
      if (opened) {
        // Just inside a non-empty container: a key (object) or a value (array) comes next.
        if (stack[stack.length - 1] === '{') {
          if (text[i] !== '"') fail(`${found()} (expected a property name in double quotes)`);
          scanString();
          skipWs();
          if (text[i] !== ':') fail(`${found()} (expected ':')`);
          i++;
          skipWs();
        }
        opened = scanValue();
        continue;
      }
      skipWs();
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if (i < n) fail(`${found()} after the end of the JSON value`);
        return { ok: true, elementStarts };
      }
      const close = top === '{' ? '}' : ']';
      if (text[i] === ',') {
        i++;
        skipWs();
        opened = true;
      } else if (text[i] === close) {
        stack.pop();
        i++;
      } else fail(`${found()} (expected ',' or '${close}')`);
    }
  } catch (err) {
    if (err instanceof SyntaxAt) return { ok: false, offset: err.offset, message: err.message };
    throw err;
  }
}

/**
 * Where and why `JSON.parse` failed. V8 sometimes gives "at position N" (then it is trusted)
 * and sometimes quotes the text instead; the scanner locates those.
 */
export function locateJsonError(text: string, err: unknown): { offset: number; message: string } {
  const raw = err instanceof Error ? err.message : String(err);
  const pos = /at position (\d+)/.exec(raw);
  // Drop V8's echo of the input (it can be long) and its position wording: we print line/column.
  const reason = raw
    .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
    .replace(/ (in JSON )?at position \d+.*$/s, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  if (pos) return { offset: Number(pos[1]), message: reason };
  const scan = scanJson(text);
  if (!scan.ok) return { offset: scan.offset, message: reason === raw ? scan.message : reason };
  return { offset: text.length, message: reason };
}

/**
 * The keys that appear twice in one object of valid JSON text, in order found. `JSON.parse`
 * keeps the last value without a word, so a file that says two things in one row is refused
 * instead of read as whichever came last.
 */
export function duplicateKeys(text: string): string[] {
  const stack: (Set<string> | null)[] = [];
  const dups: string[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const keys = stack.at(-1);
      if (keys && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) dups.push(key);
        else keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (c === '[') stack.push(null);
    else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') expectKey = stack.at(-1) instanceof Set;
  }
  return dups;
}
