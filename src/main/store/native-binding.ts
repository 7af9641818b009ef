// better-sqlite3 is a native module, and Node and Electron load different builds of it (different
// ABIs). `npm ci` compiles the one in node_modules/better-sqlite3 for Node, which the CLI, the web
// door and the tests use. The Electron main process of a source checkout loads a second build kept
// beside it, which scripts/electron-native.mjs (npm's postinstall) fetches for the installed
// Electron. A packaged app has only one build, rebuilt for its Electron by the packager.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, isAbsolute } from 'node:path';

/** What a developer runs to (re)make the Electron build; package.json defines it. */
export const ELECTRON_SETUP_COMMAND = 'npm run setup:electron';

/**
 * Where the Electron build lives. Keep in step with scripts/electron-native.mjs (a test checks):
 * the folder names both versions, so upgrading either one never loads a stale build.
 */
export function electronBindingPath(
  nodeModulesDir: string,
  betterSqliteVersion: string,
  electronVersion: string,
  platform: string,
  arch: string,
): string {
  const folder = `better-sqlite3-${betterSqliteVersion}-electron-${electronVersion}-${platform}-${arch}`;
  return join(nodeModulesDir, '.judge-lab', folder, 'better_sqlite3.node');
}

export interface BindingContext {
  /** process.versions.electron; undefined under plain Node. */
  electronVersion?: string;
  /** process.resourcesPath under Electron: a packaged app lives below it. */
  resourcesPath?: string;
  platform: string;
  arch: string;
  /** The folder of the better-sqlite3 package that will be loaded. */
  packageDir: string;
  betterSqliteVersion: string;
  exists: (path: string) => boolean;
}

export type BindingChoice =
  | { kind: 'default'; why: 'node' | 'packaged' }
  | { kind: 'electron'; path: string }
  | { kind: 'missing'; path: string; message: string };

export function chooseNativeBinding(ctx: BindingContext): BindingChoice {
  if (!ctx.electronVersion) return { kind: 'default', why: 'node' };
  if (ctx.resourcesPath && isInside(ctx.packageDir, ctx.resourcesPath))
    return { kind: 'default', why: 'packaged' };
  const path = electronBindingPath(
    dirname(ctx.packageDir),
    ctx.betterSqliteVersion,
    ctx.electronVersion,
    ctx.platform,
    ctx.arch,
  );
  if (ctx.exists(path)) return { kind: 'electron', path };
  return {
    kind: 'missing',
    path,
    message:
      `The Electron build of better-sqlite3 (the database module) is missing: ${path}\n` +
      `Run \`${ELECTRON_SETUP_COMMAND}\` in the project folder (it downloads it once), then \`npm start\` again.\n` +
      'The command line and `judge-lab serve` do not need it.',
  };
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Thrown when the Electron app starts without its build; the message says what to run. */
export class ElectronBindingMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ElectronBindingMissingError';
  }
}

/** The binding choice for this process, from the real better-sqlite3 package it resolves. */
export function currentBindingChoice(): BindingChoice {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('better-sqlite3/package.json');
  const { version } = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string };
  return chooseNativeBinding({
    electronVersion: process.versions.electron,
    resourcesPath: (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath,
    platform: process.platform,
    arch: process.arch,
    packageDir: dirname(pkgFile),
    betterSqliteVersion: version,
    exists: existsSync,
  });
}

let cached: BindingChoice | undefined;

/** better-sqlite3's `nativeBinding` option for this process: undefined means its own build. */
export function nativeBinding(): string | undefined {
  cached ??= currentBindingChoice();
  if (cached.kind === 'missing') throw new ElectronBindingMissingError(cached.message);
  return cached.kind === 'electron' ? cached.path : undefined;
}
