#!/usr/bin/env node
// Runs `--smoke-test` on what a researcher downloads, as they would run it (the desktop workflow,
// after electron-builder wrote dist/): on Linux the AppImage, on macOS the app inside the .dmg for
// this machine's arch, on Windows the app the NSIS installer installed silently.
// Exit code: the app's (0 = store, window and IPC all worked), 1 with the reason otherwise.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const TIMEOUT_MS = 3 * 60_000;

/** The one installer in `dist` whose name ends with `suffix` (electron-builder's artifactName). */
export function findArtifact(dist, suffix) {
  const hits = existsSync(dist) ? readdirSync(dist).filter((f) => f.endsWith(suffix)) : [];
  if (hits.length !== 1) {
    throw new Error(`expected one *${suffix} in ${dist}, found ${hits.length ? hits.join(', ') : 'none'}`);
  }
  return join(dist, hits[0]);
}

/** The first file named `name` below `dir` (the NSIS install folder's name is the installer's choice). */
export function findFile(dir, name, depth = 3) {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return path;
    if (entry.isDirectory() && depth > 0) {
      const found = findFile(path, name, depth - 1);
      if (found) return found;
    }
  }
  return undefined;
}

function run(cmd, args, env = process.env) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, timeout: TIMEOUT_MS });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

function smokeLinux(dist) {
  const appImage = findArtifact(dist, '-linux-x86_64.AppImage');
  chmodSync(appImage, 0o755);
  // Runners have no FUSE to mount the image: extract and run it instead (same files).
  return run(appImage, ['--smoke-test'], { ...process.env, APPIMAGE_EXTRACT_AND_RUN: '1' });
}

function smokeMac(dist) {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const dmg = findArtifact(dist, `-mac-${arch}.dmg`);
  const mount = mkdtempSync(join(tmpdir(), 'judge-lab-dmg-'));
  if (run('hdiutil', ['attach', '-nobrowse', '-readonly', '-mountpoint', mount, dmg]) !== 0) {
    throw new Error(`could not mount ${dmg}`);
  }
  try {
    return run(join(mount, 'Judge Lab.app', 'Contents', 'MacOS', 'Judge Lab'), ['--smoke-test']);
  } finally {
    run('hdiutil', ['detach', mount]);
    rmSync(mount, { recursive: true, force: true });
  }
}

function smokeWindows(dist) {
  const installer = findArtifact(dist, '-win-x64.exe');
  // /S: the one-click installer runs silently, per user, into %LOCALAPPDATA%\Programs.
  if (run(installer, ['/S']) !== 0) throw new Error(`${installer} /S failed`);
  const programs = join(process.env.LOCALAPPDATA ?? '', 'Programs');
  const exe = findFile(programs, 'Judge Lab.exe');
  if (!exe) throw new Error(`the installer put no "Judge Lab.exe" under ${programs}`);
  return run(exe, ['--smoke-test']);
}

export function main(platform = process.platform, dist = DIST) {
  try {
    const smoke = { linux: smokeLinux, darwin: smokeMac, win32: smokeWindows }[platform];
    if (!smoke) throw new Error(`no installer is built for ${platform}`);
    const code = smoke(dist);
    console.log(
      code === 0 ? 'packaged app: smoke test passed' : `packaged app: smoke test failed (exit ${code})`,
    );
    return code;
  } catch (err) {
    console.error(`packaged app: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main();
}
