// Turning a config file into a value for the schema: the same reading rules as datasets
// (regular files only, a size cap, strict UTF-8 with an optional BOM) and located JSON errors.
import { decodeText } from './decode';
import { locateJsonError } from './json-scan';
import { LineIndex } from './position';
import { AppError } from '../base/errors';
import {
  checkParsedValue,
  FORBIDDEN_KEY_MESSAGE,
  forbiddenKeyAt,
  INPUT_LIMITS,
  problemsToIssues,
  readRegularFile,
} from '../base/input-limits';

function refuse(file: string, message: string, line?: number): AppError {
  const where = line === undefined ? '' : `line ${line}: `;
  return new AppError('invalid_input', `${file}: ${where}${message}`, [{ file, line, message }]);
}

/** Reads a config file and parses its JSON; every failure names the file and, where it has one, the line. */
export function readConfigText(path: string): unknown {
  const bytes = readRegularFile(path, INPUT_LIMITS.configFileBytes);
  // decodeText drops a leading UTF-8 BOM (Windows editors write one), as dataset imports do.
  const decoded = decodeText(path, bytes);
  if (!decoded.ok) throw refuse(path, decoded.issue.message, decoded.issue.line);
  const text = decoded.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const at = locateJsonError(text, err);
    const { line, column } = new LineIndex(text).locate(at.offset);
    throw refuse(path, `not valid JSON: ${at.message} (line ${line}, column ${column})`, line);
  }
  // Refused here for every file read this way (a config, a preregistration plan): what reads the
  // value next may be a schema whose copy drops such a key without a word.
  const key = forbiddenKeyPath(value);
  if (key) {
    const name = key[key.length - 1];
    const at = new RegExp(`"${name}"\\s*:`).exec(text);
    const line = at ? new LineIndex(text).locate(at.index).line : undefined;
    const field = key.join('.');
    throw new AppError(
      'invalid_input',
      `${path}: ${line === undefined ? '' : `line ${line}: `}${field}: ${FORBIDDEN_KEY_MESSAGE}`,
      [{ file: path, line, field, message: FORBIDDEN_KEY_MESSAGE }],
    );
  }
  return value;
}

/**
 * The key path of the first forbidden key, array indices joined to their key (`a.b[2].c`'s parts).
 * Found by `forbiddenKeyAt`, which links each node to its parent: copying the path at every
 * level (as this file once did) made a file nested 60,000 deep, under the size limit, cost the
 * square of its depth — ~40 s before it was refused.
 */
function forbiddenKeyPath(value: unknown): string[] | undefined {
  const at = forbiddenKeyAt(value);
  if (!at) return undefined;
  const path: string[] = [];
  for (const part of at)
    if (typeof part === 'number') path.push(`${path.pop() ?? ''}[${part}]`);
    else path.push(part);
  return path;
}

/** Nesting, oversized strings and "__proto__" keys in a parsed config, as one located error. */
export function structuralProblems(
  raw: unknown,
  file: string,
  keyPath: (p: (string | number)[]) => string,
): AppError | undefined {
  const problems = checkParsedValue(raw, {
    depth: INPUT_LIMITS.jsonDepth,
    stringChars: INPUT_LIMITS.configStringChars,
  });
  if (problems.length === 0) return undefined;
  const issues = problemsToIssues(file, problems, keyPath);
  const first = issues[0];
  const count = issues.length === 1 ? '' : `${issues.length} problems, first: `;
  return new AppError('invalid_input', `${file}: ${count}${first.field}: ${first.message}`, issues);
}

/**
 * Runs `fn` (which checks a config further, e.g. that its dataset exists) so that its errors name
 * the config file: the service only knows it as "config".
 */
export function attributeToConfigFile<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof AppError) || !err.issues.some((i) => i.file === 'config')) throw err;
    const issues = err.issues.map((i) => (i.file === 'config' ? { ...i, file: path } : i));
    const named = new AppError(err.code, `${path}: ${err.message}`, issues, err.columnChoice);
    named.retryable = err.retryable;
    throw named;
  }
}
