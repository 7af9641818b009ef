#!/usr/bin/env node
// Gives the Electron main process its own build of better-sqlite3, kept beside the Node build that
// `npm ci` compiled (the CLI, the web door and the tests keep using that one). Runs as npm's
// postinstall, where it must never fail the install: with Electron's binary skipped
// (ELECTRON_SKIP_BINARY_DOWNLOAD=1, as in CI and on servers) it does nothing, and when fetching
// fails it warns and exits 0, because the app names the command to run when it starts without it.
// `npm run setup:electron` runs it with --required: make the build whatever the binary, fail loudly.
//
// How: the prebuilt binary better-sqlite3 publishes for this Electron (prebuild-install, which
// better-sqlite3 already depends on), else a compile against Electron's headers (node-gyp). Both
// work in a staging folder, so the Node build in node_modules/better-sqlite3 is never touched, and
// the result is renamed into place only when complete.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SETUP_COMMAND = 'npm run setup:electron';
// A stalled download must not hang `npm ci` forever.
const STEP_TIMEOUT_MS = 10 * 60_000;

/** Same convention as src/main/store/native-binding.ts (a test checks they agree). */
export function electronBindingPath(nodeModulesDir, betterSqliteVersion, electronVersion, platform, arch) {
  const folder = `better-sqlite3-${betterSqliteVersion}-electron-${electronVersion}-${platform}-${arch}`;
  return join(nodeModulesDir, '.judge-lab', folder, 'better_sqlite3.node');
}

function readVersion(packageDir) {
  return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
}

/** Whether Electron's own install step downloaded its binary (it writes path.txt after extracting). */
export function electronBinaryInstalled(electronDir) {
  try {
    const rel = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
    return rel !== '' && existsSync(join(electronDir, 'dist', rel));
  } catch {
    return false;
  }
}

/** The published prebuilt for this Electron ABI, through better-sqlite3's own prebuild-install. */
export const prebuiltFetcher = {
  name: 'prebuilt download',
  make({ packageDir, staging, electronVersion, platform, arch, env }) {
    copyFileSync(join(packageDir, 'package.json'), join(staging, 'package.json'));
    const bin = createRequire(join(packageDir, 'package.json')).resolve('prebuild-install/bin.js');
    const args = [
      '--runtime',
      'electron',
      '--target',
      electronVersion,
      '--platform',
      platform,
      '--arch',
      arch,
    ];
    // prebuild-install reads the package from its working folder and unpacks into --path.
    run(process.execPath, [bin, ...args, '--path', staging], packageDir, env);
  },
};

/** A compile against Electron's headers, for platforms or versions with no prebuilt. */
export const sourceFetcher = {
  name: 'compile from source',
  make({ packageDir, staging, electronVersion, arch, env }) {
    for (const part of ['package.json', 'binding.gyp', 'src', 'deps']) {
      cpSync(join(packageDir, part), join(staging, part), { recursive: true });
    }
    // npm bundles node-gyp and names it to every script it runs.
    const gyp = env.npm_config_node_gyp;
    if (!gyp) throw new Error('node-gyp not found: run this through npm (`' + SETUP_COMMAND + '`)');
    const args = ['rebuild', '--release', `--target=${electronVersion}`, `--arch=${arch}`];
    args.push(`--dist-url=${env.JUDGE_LAB_ELECTRON_HEADERS_URL ?? 'https://electronjs.org/headers'}`);
    run(process.execPath, [gyp, ...args], staging, env);
  },
};

function run(cmd, args, cwd, env) {
  const r = spawnSync(cmd, args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: STEP_TIMEOUT_MS,
    maxBuffer: 64 << 20,
  });
  if (r.status === 0) return;
  // The first warnings and errors say why; the tails of these tools' logs are boilerplate.
  const lines = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.split('\n').filter((l) => /err|warn/i.test(l));
  const output = lines.slice(0, 3).join(' | ');
  const how = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
  throw new Error(`${how}${output ? `: ${output}` : ''}`);
}

/**
 * Makes the Electron build if it is missing. Returns what happened; never throws for a failed
 * fetch (the caller decides whether that fails the process).
 * status: skipped (no Electron binary and not required) | present | made | failed
 */
export function ensureElectronBinding({
  root = ROOT,
  required = false,
  env = process.env,
  platform = process.platform,
  arch = process.arch,
  fetchers = [prebuiltFetcher, sourceFetcher],
} = {}) {
  const nodeModules = join(root, 'node_modules');
  const electronDir = join(nodeModules, 'electron');
  const packageDir = join(nodeModules, 'better-sqlite3');
  if (!existsSync(join(electronDir, 'package.json')) || !existsSync(join(packageDir, 'package.json'))) {
    if (!required) return { status: 'skipped', reason: 'electron or better-sqlite3 is not installed' };
    return { status: 'failed', reason: 'electron or better-sqlite3 is not installed: run `npm ci` first' };
  }
  if (!required && env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return { status: 'skipped', reason: "Electron's binary was skipped (ELECTRON_SKIP_BINARY_DOWNLOAD)" };
  }
  if (!required && !electronBinaryInstalled(electronDir)) {
    return { status: 'skipped', reason: "Electron's binary is not installed" };
  }
  const electronVersion = readVersion(electronDir);
  const target = electronBindingPath(nodeModules, readVersion(packageDir), electronVersion, platform, arch);
  if (existsSync(target)) return { status: 'present', path: target };

  const work = join(nodeModules, '.judge-lab');
  mkdirSync(work, { recursive: true });
  const reasons = [];
  for (const fetcher of fetchers) {
    const staging = mkdtempSync(join(work, '.staging-'));
    try {
      fetcher.make({ packageDir, staging, electronVersion, platform, arch, env });
      const made = join(staging, 'build', 'Release', 'better_sqlite3.node');
      if (!existsSync(made)) throw new Error('it finished without writing build/Release/better_sqlite3.node');
      mkdirSync(dirname(target), { recursive: true });
      // Same file system as the target, so the rename is atomic: a build is there whole or not at all.
      renameSync(made, target);
      return { status: 'made', path: target, via: fetcher.name };
    } catch (err) {
      reasons.push(`${fetcher.name}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  // Leave no empty folder behind either: a failed run changes nothing.
  rmEmptyDir(work);
  return { status: 'failed', path: target, reason: reasons.join('; ') };
}

function rmEmptyDir(dir) {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // Not there or not empty: nothing to tidy.
  }
}

/**
 * The command: prints one line on stdout (stderr for a failure) and returns the exit code.
 * `print` and `warn` let tests read what it says.
 */
export function main(
  argv = process.argv.slice(2),
  { print = console.log, warn = console.error, ...options } = {},
) {
  const required = argv.includes('--required');
  const result = ensureElectronBinding({ ...options, required });
  const tag = 'judge-lab electron-native:';
  switch (result.status) {
    case 'skipped':
      print(`${tag} nothing to do: ${result.reason}.`);
      return 0;
    case 'present':
      print(`${tag} the Electron build of better-sqlite3 is in place: ${result.path}`);
      return 0;
    case 'made':
      print(`${tag} made the Electron build of better-sqlite3 (${result.via}): ${result.path}`);
      return 0;
    default:
      warn(`${tag} could not make the Electron build of better-sqlite3: ${result.reason}`);
      if (required) return 1;
      // The install itself succeeded; the app will say this again if started without the build.
      warn(`${tag} npm start needs it: run \`${SETUP_COMMAND}\` when online.`);
      return 0;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main();
}
