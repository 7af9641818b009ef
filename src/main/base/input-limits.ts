// Limits on what a user (or a hostile file) can hand the app: file kinds and sizes, JSON nesting,
// string lengths and rate limits. Each limit is far above any real dataset or config, and low
// enough that a hostile input ends in a clear error instead of a crash, a hang or a full disk.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import type { InputIssue } from '../../shared/domain';
import { BUNDLE_FILE_BYTES } from '../../shared/input-limits';
import { AppError } from './errors';

export const INPUT_LIMITS = {
  /** A dataset file is read whole into memory before it is checked. */
  datasetFileBytes: 100 * 1024 * 1024,
  /** An experiment config is a few kilobytes; custom templates add a few more. */
  configFileBytes: 1024 * 1024,
  /** Datasets hold flat objects and configs nest four levels; 64 leaves room and keeps validators' recursion shallow. */
  jsonDepth: 64,
  /** One text field of a dataset item (instruction, output_1, output_2, a gold answer, an imported answer). */
  datasetTextChars: 1_000_000,
  /** Entries of one list in a dataset item (a QA item's gold `answers`); real ones hold a handful. */
  datasetListItems: 10_000,
  /** One string in a config (templates are the long ones). */
  configStringChars: 100_000,
  /** Requests per minute per model: below 1 a lane would wait for hours between calls. */
  rpm: { min: 1, max: 1_000_000 },
  /** Tokens per minute per model: below one prompt's size no call could ever be sent. */
  tpm: { min: 1_000, max: 10_000_000_000 },
  /** A recorded-answers file (JSONL or CSV), read whole; a bundle's answers.jsonl is one. */
  recordedAnswersFileBytes: 256 * 1024 * 1024,
  /** An annotation package or a labels file (the API takes 200 MiB of base64: 150 MiB). */
  annotationFileBytes: 150 * 1024 * 1024,
  /** A guidelines text file (the API takes 200,000 characters: at most 800 KB of UTF-8). */
  guidelinesFileBytes: 1024 * 1024,
  /**
   * A study bundle (*.judgelab): the file, and what its zip may unpack to. Checked on the zip's
   * directory before anything is unpacked, and again while unpacking (a declared size can lie).
   * A real bundle holds a dataset (up to 100 MiB), its answers and ledger, and an export folder
   * of a few hundred files.
   */
  bundle: {
    fileBytes: BUNDLE_FILE_BYTES,
    entries: 10_000,
    entryBytes: 256 * 1024 * 1024,
    totalBytes: 1024 * 1024 * 1024,
  },
  /** The workbook inside a bundle, before it is handed to the workbook library (a zip too). */
  bundleWorkbook: { entries: 1_000, entryBytes: 64 * 1024 * 1024, totalBytes: 128 * 1024 * 1024 },
} as const;

/**
 * A number as people write one in a text cell: decimal, optionally signed, with an exponent.
 * `Number()` alone would also read "0x10" as 16, "0b11" as 3, "Infinity" and "" (as 0).
 */
export const DECIMAL_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** "100 MiB" for a byte count, for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${+(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

function fileKind(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function refuse(path: string, message: string): AppError {
  return new AppError('invalid_input', `${path}: ${message}`, [{ file: path, message }]);
}

function tooBig(path: string, size: number, maxBytes: number): AppError {
  return refuse(
    path,
    `file is ${formatBytes(size)}, above the limit of ${formatBytes(maxBytes)} for this kind of file`,
  );
}

/**
 * Reads a whole regular file of at most maxBytes. Devices, pipes and folders are refused before
 * they are opened (opening a FIFO blocks; /dev/zero never ends), and the size is checked again
 * on the open descriptor and while reading, so a file swapped or growing meanwhile cannot slip by.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const fail = (err: unknown): never => {
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'file not found'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied: the file cannot be read'
          : (err as Error).message;
    throw refuse(path, reason);
  };
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    return fail(err);
  }
  if (!st.isFile()) throw refuse(path, `${fileKind(st)}, not a regular file; only files can be read`);
  if (st.size > maxBytes) throw tooBig(path, st.size, maxBytes);
  let fd: number;
  try {
    // O_NONBLOCK: if a FIFO replaced the file since the stat, open returns instead of waiting.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return fail(err);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile())
      throw refuse(path, `${fileKind(opened)}, not a regular file; only files can be read`);
    if (opened.size > maxBytes) throw tooBig(path, opened.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total) || 1);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooBig(path, total, maxBytes);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/**
 * Where JSON text first nests deeper than `limit` (offset of the opening bracket), scanning
 * iteratively so the check itself cannot overflow the stack; undefined when it does not.
 */
export function jsonDepthExceeded(text: string, limit: number = INPUT_LIMITS.jsonDepth): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

/** A problem found in an already parsed value, at a key path such as ["providers", "a", "rpm"]. */
export interface ValueProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Keys a user's JSON may not use: an own `__proto__` is dropped by any copy of the object, and
 * `constructor`/`prototype` name an object's internals, so code that merges by key could be
 * steered by them. None is a key of any file the app reads.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
export const FORBIDDEN_KEY_MESSAGE =
  'is not allowed as a key (it names a JavaScript object internal); remove it';

/**
 * The path of the first `FORBIDDEN_KEYS` key anywhere in `value` (own keys; iterative, each node
 * visited once, so depth costs no more than size). Undefined when there is none.
 */
export function forbiddenKeyAt(value: unknown): (string | number)[] | undefined {
  type Node = { value: unknown; key: string | number; up: Node | null };
  const pathOf = (n: Node | null): (string | number)[] => {
    const out: (string | number)[] = [];
    for (let at = n; at?.up; at = at.up) out.unshift(at.key);
    return out;
  };
  const stack: Node[] = [{ value, key: '', up: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, up: node });
      continue;
    }
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key)) return [...pathOf(node), key];
      stack.push({ value: (v as Record<string, unknown>)[key], key, up: node });
    }
  }
  return undefined;
}

/**
 * Walks a parsed value (iteratively: it may be arbitrarily deep) for what validators mishandle:
 * nesting beyond the limit (recursive validators overflow the stack), strings beyond the limit,
 * and the `FORBIDDEN_KEYS` (an own `__proto__`, which JSON.parse keeps but object copies drop).
 */
export function checkParsedValue(
  value: unknown,
  limits: { depth: number; stringChars: number },
): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0 && problems.length < 100) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > limits.stringChars)
        problems.push({
          path,
          message: `text is ${v.length.toLocaleString('en-US')} characters, above the limit of ${limits.stringChars.toLocaleString('en-US')}`,
        });
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (path.length >= limits.depth) {
      problems.push({ path, message: `nested deeper than ${limits.depth} levels (the limit)` });
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (FORBIDDEN_KEYS.has(key)) {
        problems.push({ path: [...path, key], message: 'unknown key' });
        continue;
      }
      stack.push({ value: (v as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return problems;
}

/** Issues for the located problems of one file. */
export function problemsToIssues(
  file: string,
  problems: ValueProblem[],
  keyPath: (p: (string | number)[]) => string,
): InputIssue[] {
  return problems.map((p) => ({ file, field: keyPath(p.path) || '(top level)', message: p.message }));
}
