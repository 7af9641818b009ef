import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/store/db';
import {
  chooseNativeBinding,
  currentBindingChoice,
  electronBindingPath,
  type BindingContext,
} from '../../src/main/store/native-binding';
// The install step is plain JS (it runs before anything is built); both must agree on the path.
import { electronBindingPath as installStepPath } from '../../scripts/electron-native.mjs';
import { tempDir } from '../helpers/tmp';

const require = createRequire(import.meta.url);
const PKG_FILE = require.resolve('better-sqlite3/package.json');
const PKG_DIR = dirname(PKG_FILE);
const BS_VERSION = (JSON.parse(readFileSync(PKG_FILE, 'utf8')) as { version: string }).version;
const NODE_BUILD = join(PKG_DIR, 'build', 'Release', 'better_sqlite3.node');

function ctx(over: Partial<BindingContext>): BindingContext {
  return {
    platform: 'linux',
    arch: 'x64',
    packageDir: '/proj/node_modules/better-sqlite3',
    betterSqliteVersion: '12.11.1',
    exists: () => false,
    ...over,
  };
}

describe('choosing the better-sqlite3 build', () => {
  it('plain Node (CLI, web door, tests) keeps the build npm compiled', () => {
    expect(chooseNativeBinding(ctx({ exists: () => true }))).toEqual({ kind: 'default', why: 'node' });
  });

  it('the Electron app of a checkout loads the Electron build kept beside the Node one', () => {
    const expected = join(
      '/proj/node_modules/.judge-lab/better-sqlite3-12.11.1-electron-41.7.1-linux-x64/better_sqlite3.node',
    );
    const choice = chooseNativeBinding(
      ctx({
        electronVersion: '41.7.1',
        resourcesPath: '/opt/electron/resources',
        exists: (p) => p === expected,
      }),
    );
    expect(choice).toEqual({ kind: 'electron', path: expected });
  });

  it('a missing Electron build names the file and the command to run', () => {
    const choice = chooseNativeBinding(ctx({ electronVersion: '41.7.1', platform: 'darwin', arch: 'arm64' }));
    expect(choice.kind).toBe('missing');
    if (choice.kind !== 'missing') return;
    expect(choice.path).toContain('better-sqlite3-12.11.1-electron-41.7.1-darwin-arm64');
    expect(choice.message).toContain(choice.path);
    expect(choice.message).toContain('npm run setup:electron');
  });

  it('a packaged app loads its only build, which the packager rebuilt for Electron', () => {
    const resources = '/opt/Judge Lab/resources';
    for (const packageDir of [
      join(resources, 'app.asar', 'node_modules', 'better-sqlite3'),
      join(resources, 'app', 'node_modules', 'better-sqlite3'),
    ]) {
      expect(
        chooseNativeBinding(ctx({ electronVersion: '41.7.1', resourcesPath: resources, packageDir })),
      ).toEqual({
        kind: 'default',
        why: 'packaged',
      });
    }
    // A folder that merely starts with the same letters is not inside it.
    const sibling = ctx({ electronVersion: '41.7.1', resourcesPath: '/opt/app', packageDir: '/opt/app2/x' });
    expect(chooseNativeBinding(sibling).kind).toBe('missing');
  });

  it('the install step writes the build where the app looks for it', () => {
    for (const [p, a] of [
      ['linux', 'x64'],
      ['darwin', 'arm64'],
      ['win32', 'x64'],
    ]) {
      expect(installStepPath('/p/node_modules', '1.2.3', '41.7.1', p, a)).toBe(
        electronBindingPath('/p/node_modules', '1.2.3', '41.7.1', p, a),
      );
    }
  });
});

describe('opening the store under Electron (process.versions.electron set)', () => {
  const fakeElectron = '0.0.0-judge-lab-test';
  const sideBuild = electronBindingPath(
    dirname(PKG_DIR),
    BS_VERSION,
    fakeElectron,
    process.platform,
    process.arch,
  );
  afterEach(() => {
    rmSync(dirname(sideBuild), { recursive: true, force: true });
    // The shared parent goes too if this test made it (a real Electron build may live there).
    const parent = dirname(dirname(sideBuild));
    if (existsSync(parent) && readdirSync(parent).length === 0) rmSync(parent, { recursive: true });
    delete (process.versions as Record<string, string | undefined>).electron;
  });

  it('without the Electron build, the choice says what to run instead of failing in the loader', () => {
    Object.defineProperty(process.versions, 'electron', { value: fakeElectron, configurable: true });
    const choice = currentBindingChoice();
    expect(choice).toMatchObject({ kind: 'missing', path: sideBuild });
  });

  it('loads the build beside the default one through nativeBinding', () => {
    // This process is Node, so a copy of the Node build stands in for the Electron one.
    mkdirSync(dirname(sideBuild), { recursive: true });
    copyFileSync(NODE_BUILD, sideBuild);
    Object.defineProperty(process.versions, 'electron', { value: fakeElectron, configurable: true });
    const t = tempDir();
    try {
      const db = openDatabase(join(t.dir, 'store.sqlite'));
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      db.close();
      expect(require.cache[sideBuild]).toBeDefined();
      expect(existsSync(NODE_BUILD)).toBe(true);
    } finally {
      t.cleanup();
    }
  });
});
