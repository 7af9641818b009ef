import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const APP_NAME = 'Judge Lab';

/**
 * The folder Electron's app.getPath('userData') uses for an app named "Judge Lab",
 * computed without Electron so the CLI and the desktop app share one store.
 */
export function defaultUserDataDir(platform = process.platform, env = process.env): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

/** --data-dir wins, then JUDGE_LAB_HOME, then the desktop app's user-data folder. */
export function resolveDataDir(flag?: string, env = process.env): string {
  if (flag) return resolve(flag);
  if (env.JUDGE_LAB_HOME) return resolve(env.JUDGE_LAB_HOME);
  return defaultUserDataDir(process.platform, env);
}

let cachedResources: string | undefined;

/**
 * The bundled resources folder. Source, built (out/main) and packaged layouts put it at
 * different depths, so look upward from this module for the first folder that has it.
 */
export function resourcesDir(): string {
  if (cachedResources) return cachedResources;
  const override = process.env.JUDGE_LAB_RESOURCES;
  if (override) return (cachedResources = resolve(override));
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'resources');
    if (existsSync(join(candidate, 'samples'))) return (cachedResources = candidate);
    dir = dirname(dir);
  }
  const packaged = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  if (packaged && existsSync(join(packaged, 'samples'))) return (cachedResources = packaged);
  throw new Error('Cannot find the bundled resources folder (resources/samples).');
}

/** The built renderer (out/renderer), served by the web door. */
export function rendererDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'out', 'renderer');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    const sibling = join(dir, 'renderer');
    if (existsSync(join(sibling, 'index.html'))) return sibling;
    dir = dirname(dir);
  }
  return undefined;
}
