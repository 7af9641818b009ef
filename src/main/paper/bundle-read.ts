// Opens a study bundle and checks it whole before anything reads it: a zip, a bundle.json of the
// known layout, and every entry present with the SHA-256 bundle.json gives it, nothing extra. A
// bundle that fails is refused naming the bundle file and the entry. The zip is read by
// base/zip-read.ts within the stated limits (INPUT_LIMITS.bundle): a bundle is someone else's file.
import { z } from 'zod';
import { BUNDLE_LAYOUT, type BundleJson } from '../../shared/paper/bundle';
import {
  BUNDLE_REFUSALS_EN,
  fillRefusal,
  type BundleRefusalKey,
  type RefusalParams,
} from '../../shared/paper/bundle-refusals';
import { AppError } from '../base/errors';
import { formatBytes, INPUT_LIMITS } from '../base/input-limits';
import { entryNameProblem, readZip, ZipProblem, type ZipLimits } from '../base/zip-read';
import { sha256Hex } from './bundle-write';

export interface OpenedBundle {
  file: string;
  meta: BundleJson;
  entries: Map<string, Uint8Array>;
  /** An entry's UTF-8 text (every listed entry exists: checked when opened). */
  text(name: string): string;
}

const bundleJsonSchema = z.object({
  layout: z.number(),
  format: z.literal('judge-lab study bundle'),
  app_version: z.string().max(100),
  created_at: z.iso.datetime({ message: 'not a date and time (ISO 8601, as the app writes it)' }),
  experiment: z.object({
    name: z.string(),
    protocol: z.string(),
    status: z.literal('finished', { message: 'a study bundle is written from a finished experiment' }),
  }),
  simulated: z.boolean(),
  entries: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});

function refuse(file: string, entry: string, message: string, field?: string): never {
  throw new AppError('invalid_input', `${file}: ${entry}: ${message}`, [
    { file: `${file}:${entry}`, ...(field ? { field } : {}), message },
  ]);
}

/**
 * A refusal with its stable key (the page says it in its language): the message is the key's
 * English with `params` put in; the issue names `where` and says `why`.
 */
export function bundleRefusal(
  key: BundleRefusalKey,
  params: RefusalParams,
  where: { file: string; field?: string; why?: string },
): AppError {
  const message = fillRefusal(BUNDLE_REFUSALS_EN[key], params);
  const { why, ...at } = where;
  return new AppError('invalid_input', message, [{ ...at, message: why ?? message }]).because(key, params);
}

/**
 * A bundle the person handed over, whole: refused up front when the file is larger than a
 * bundle may be (said with both sizes), then opened and checked as `openBundle` does.
 */
export function openHandedBundle(fileName: string, bytes: Uint8Array): OpenedBundle {
  const max = INPUT_LIMITS.bundle.fileBytes;
  if (bytes.length > max)
    throw bundleRefusal(
      'bundle.fileTooLarge',
      { file: fileName, size: formatBytes(bytes.length), limit: formatBytes(max) },
      { file: fileName, why: 'too large' },
    );
  return openBundle(fileName, bytes);
}

export function openBundle(
  file: string,
  bytes: Uint8Array,
  limits: ZipLimits = INPUT_LIMITS.bundle,
): OpenedBundle {
  let zipped: Map<string, Uint8Array>;
  try {
    zipped = readZip(bytes, limits);
  } catch (err) {
    if (!(err instanceof ZipProblem)) throw err;
    throw bundleRefusal(
      err.key,
      { file, ...(err.entry === undefined ? {} : { entry: err.entry }), ...err.params },
      {
        file: err.entry === undefined ? file : `${file}:${err.entry}`,
        why: err.message,
      },
    );
  }
  const raw = zipped.get('bundle.json');
  if (!raw) refuse(file, 'bundle.json', 'missing: a study bundle lists its entries and their hashes there');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(raw));
  } catch (err) {
    refuse(file, 'bundle.json', `not JSON (${(err as Error).message})`);
  }
  const parsed = bundleJsonSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join('.');
    refuse(file, 'bundle.json', `${field ? `${field}: ` : ''}${issue.message}`, field);
  }
  const meta = parsed.data as BundleJson;
  if (meta.layout !== BUNDLE_LAYOUT)
    refuse(
      file,
      'bundle.json',
      `layout ${meta.layout}; this release reads layout ${BUNDLE_LAYOUT} (written by Judge Lab ${meta.app_version})`,
      'layout',
    );
  for (const name of Object.keys(meta.entries)) {
    const problem = name === 'bundle.json' ? 'bundle.nameSelf' : entryNameProblem(name);
    if (problem) {
      const entry = `bundle.json (entries: ${JSON.stringify(name)})`;
      throw bundleRefusal(problem, { file, entry }, { file: `${file}:bundle.json`, field: 'entries' });
    }
  }
  const entries = new Map<string, Uint8Array>();
  for (const [name, expected] of Object.entries(meta.entries)) {
    const bytesOf = zipped.get(name);
    if (!bytesOf) refuse(file, name, 'listed in bundle.json but missing from the bundle');
    const actual = sha256Hex(bytesOf);
    if (actual !== expected)
      refuse(
        file,
        name,
        `content does not match its SHA-256 in bundle.json (listed ${expected}, found ${actual}): the bundle was changed after it was written`,
        'sha256',
      );
    entries.set(name, bytesOf);
  }
  const extra = [...zipped.keys()].filter((n) => n !== 'bundle.json' && !entries.has(n));
  if (extra.length)
    refuse(file, extra[0], 'in the bundle but not listed in bundle.json (no hash vouches for it)');
  // The BOM kept: a CSV is compared byte for byte, its BOM (for Excel) included.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return {
    file,
    meta,
    entries,
    text: (name) => {
      const b = entries.get(name);
      if (!b) refuse(file, name, 'missing from the bundle');
      return decoder.decode(b);
    },
  };
}
