// Checks for calls that come from a page (the web app, the desktop window) rather than from
// the user's own command line: such a caller may be any holder of the web token or a page
// compromised by hostile model text, so it may not name server paths outside the data
// folder, nor send a key to a server the user did not choose for it.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { InputIssue } from '../../shared/domain';
import { providerConfigSchema, type KeyStore } from '../providers/config';
import { keyScopeProblem } from '../providers/key-scope';
import { AppError } from '../base/errors';

export interface PageDoorContext {
  dataDir: string;
  keys: KeyStore;
  /** The providers block of a stored experiment. */
  storedProviders(experimentId: number): unknown;
}

/** Throws when a page's call names a path outside the data folder or sends a key astray. */
export function checkPageDoorCall(method: string, params: unknown, ctx: PageDoorContext): void {
  const p = (params ?? {}) as Record<string, unknown>;
  const issues: InputIssue[] = [];
  switch (method) {
    case 'experiments.estimate':
    case 'experiments.create':
    case 'experiments.editSetup':
    case 'experiments.previewPrompts':
    case 'experiments.recordedTemplate': {
      const config = isObject(p.config) ? p.config : {};
      if (typeof config.dataset === 'string') checkDataset(config.dataset, ctx.dataDir, issues);
      // A protocol's other input file given as a path (e.g. answers to judge): the same rule.
      if (typeof config.answers === 'string') checkInputFile('answers', config.answers, ctx.dataDir, issues);
      // A recorded provider's answers file, likewise (its errors quote what the file holds).
      if (isObject(config.providers))
        for (const [name, cfg] of Object.entries(config.providers))
          if (isObject(cfg) && typeof cfg.file === 'string')
            checkInputFile(`providers.${name}.file`, cfg.file, ctx.dataDir, issues);
      checkProviders(config.providers, 'providers', ctx, issues);
      break;
    }
    case 'datasets.importFile':
      // A path the server reads: a page sends the file's bytes instead.
      throw new AppError(
        'invalid_params',
        "datasets.importFile is the command line's (judge-lab import); pages send the file with datasets.import.",
      );
    case 'experiments.createForRun':
      // It holds the experiment until the core closes: from a page, as long as the server runs.
      throw new AppError(
        'invalid_params',
        "experiments.createForRun is the command line's (judge-lab run); pages use experiments.create and experiments.start.",
      );
    case 'experiments.start':
    case 'experiments.resume':
    case 'experiments.retryFailed':
    case 'experiments.runToEnd':
      checkProviders(ctx.storedProviders(p.experimentId as number), 'providers', ctx, issues);
      break;
    case 'providers.testConnection':
      checkProvider(p.provider, 'provider', ctx, issues);
      break;
    case 'experiments.export':
      if (typeof p.outDir === 'string' && !isInside(p.outDir, ctx.dataDir)) {
        issues.push({
          file: 'params',
          field: 'outDir',
          message: `must be a folder inside the data folder (${ctx.dataDir}); use the download buttons to save files elsewhere`,
        });
      }
      break;
  }
  if (issues.length) {
    throw new AppError('invalid_input', issues.map((i) => `${i.field}: ${i.message}`).join('; '), issues);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkProviders(providers: unknown, at: string, ctx: PageDoorContext, issues: InputIssue[]): void {
  if (!isObject(providers)) return;
  for (const [name, raw] of Object.entries(providers)) checkProvider(raw, `${at}.${name}`, ctx, issues);
}

function checkProvider(raw: unknown, at: string, ctx: PageDoorContext, issues: InputIssue[]): void {
  // A malformed block is the config validation's to report, with every field named.
  const parsed = providerConfigSchema.safeParse(raw);
  if (!parsed.success) return;
  const problem = keyScopeProblem(parsed.data, ctx.keys);
  if (problem) issues.push({ file: 'config', field: `${at}.baseURL`, message: problem });
}

function checkInputFile(field: string, path: string, dataDir: string, issues: InputIssue[]): void {
  if (!isInside(path, dataDir)) {
    issues.push({
      file: 'config',
      field,
      message: `a file outside the data folder (${dataDir}) cannot be read through the app; choose the file in the app, which sends its content`,
    });
  }
}

function checkDataset(dataset: string, dataDir: string, issues: InputIssue[]): void {
  // The service reads an existing path before looking the string up as a dataset name.
  if (existsSync(dataset) && !isInside(dataset, dataDir)) {
    issues.push({
      file: 'config',
      field: 'dataset',
      message: `a file outside the data folder (${dataDir}) cannot be read through the app; import it, then give the dataset's name or id`,
    });
  }
}

/** The path with every existing part resolved through symlinks, so a link cannot lead out. */
function realPath(path: string): string {
  let head = resolve(path);
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail);
    } catch {
      const parent = dirname(head);
      if (parent === head) return resolve(path);
      tail.unshift(basename(head));
      head = parent;
    }
  }
}

/** True when `path` is strictly inside `folder`. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(realPath(folder), realPath(path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
