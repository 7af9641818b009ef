import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  electronBindingPath,
  ensureElectronBinding,
  main,
  prebuiltFetcher,
} from '../../scripts/electron-native.mjs';
import { ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const SCRIPT = join(ROOT, 'scripts', 'electron-native.mjs');
const REAL_MODULES = join(ROOT, 'node_modules');
const BS_VERSION = (
  JSON.parse(readFileSync(join(REAL_MODULES, 'better-sqlite3', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
const NODE_BUILD = join(REAL_MODULES, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const ELECTRON = '41.7.1';

/** The environment npm gives the install step, minus CI's skip flag. */
function installEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  return env;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * A project folder as `npm ci` leaves it: electron (with or without its binary) and the real
 * better-sqlite3 and prebuild-install, linked so the Node build can be checked to stay as it was.
 */
function fakeProject(withBinary: boolean): { root: string; cleanup: () => void } {
  const t = tempDir('judge-lab-install-');
  const nm = join(t.dir, 'node_modules');
  const electron = join(nm, 'electron');
  mkdirSync(electron, { recursive: true });
  writeFileSync(join(electron, 'package.json'), JSON.stringify({ name: 'electron', version: ELECTRON }));
  if (withBinary) {
    mkdirSync(join(electron, 'dist'));
    writeFileSync(join(electron, 'dist', 'electron'), '');
    writeFileSync(join(electron, 'path.txt'), 'electron');
  }
  symlinkSync(join(REAL_MODULES, 'better-sqlite3'), join(nm, 'better-sqlite3'), 'junction');
  symlinkSync(join(REAL_MODULES, 'prebuild-install'), join(nm, 'prebuild-install'), 'junction');
  return { root: t.dir, cleanup: t.cleanup };
}

describe('the install step where Electron has no binary (ELECTRON_SKIP_BINARY_DOWNLOAD, CI)', () => {
  it('postinstall exits 0 with one line and writes nothing', () => {
    const before = readdirSync(REAL_MODULES).includes('.judge-lab')
      ? readdirSync(join(REAL_MODULES, '.judge-lab'))
      : null;
    const r = spawnSync(process.execPath, [SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual([
      "judge-lab electron-native: nothing to do: Electron's binary was skipped (ELECTRON_SKIP_BINARY_DOWNLOAD).",
    ]);
    const after = readdirSync(REAL_MODULES).includes('.judge-lab')
      ? readdirSync(join(REAL_MODULES, '.judge-lab'))
      : null;
    expect(after).toEqual(before);
  });

  it('does nothing either when the binary is simply absent, without trying a download', () => {
    const p = fakeProject(false);
    try {
      const tried: string[] = [];
      const result = ensureElectronBinding({
        root: p.root,
        env: installEnv(),
        fetchers: [{ name: 'spy', make: () => void tried.push('spy') }],
      });
      expect(result).toEqual({ status: 'skipped', reason: "Electron's binary is not installed" });
      expect(tried).toEqual([]);
      expect(existsSync(join(p.root, 'node_modules', '.judge-lab'))).toBe(false);
    } finally {
      p.cleanup();
    }
  });
});

/**
 * A stand-in for better-sqlite3's GitHub releases, which prebuild-install reaches through its
 * mirror variable. It runs in its own process: the install step waits on its child synchronously,
 * which would stall a server in this one.
 */
const MIRROR = String.raw`
const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');
const [tarball, status] = process.argv.slice(1);
const server = createServer((req, res) => {
  process.stdout.write('GET ' + req.url + '\n');
  res.writeHead(Number(status));
  res.end(status === '200' ? readFileSync(tarball) : undefined);
});
server.listen(0, '127.0.0.1', () => process.stdout.write('PORT ' + server.address().port + '\n'));
`;

async function startMirror(tarball: string, status: number) {
  const child = spawn(process.execPath, ['-e', MIRROR, tarball, String(status)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('\n') && resolve());
    child.on('exit', () => reject(new Error(`mirror exited: ${out}`)));
  });
  const url = `http://127.0.0.1:${/PORT (\d+)/.exec(out)![1]}`;
  return {
    url,
    /** The paths asked for so far (waits for the pipe to drain first). */
    requests: async () => {
      await new Promise((r) => setTimeout(r, 100));
      return [...out.matchAll(/^GET (.*)$/gm)].map((m) => m[1]);
    },
    stop: () => child.kill(),
  };
}

describe('the install step where Electron has its binary', () => {
  let work: { dir: string; cleanup: () => void };
  let tarball: string;

  beforeAll(() => {
    work = tempDir('judge-lab-prebuilt-');
    mkdirSync(join(work.dir, 'build', 'Release'), { recursive: true });
    writeFileSync(join(work.dir, 'build', 'Release', 'better_sqlite3.node'), 'the Electron build');
    tarball = join(work.dir, 'prebuilt.tar.gz');
    expect(spawnSync('tar', ['-czf', tarball, 'build'], { cwd: work.dir }).status).toBe(0);
  });
  afterAll(() => work.cleanup());

  const env = (mirror: string, cache: string) =>
    installEnv({ npm_config_better_sqlite3_binary_host: mirror, npm_config_cache: cache });

  it("fetches the prebuilt for that Electron into its own folder, leaving Node's build as it was", async () => {
    const p = fakeProject(true);
    const mirror = await startMirror(tarball, 200);
    const cache = tempDir('judge-lab-npm-cache-');
    const nodeBuild = sha(NODE_BUILD);
    try {
      const options = { root: p.root, env: env(mirror.url, cache.dir), platform: 'linux', arch: 'x64' };
      // Only the download: compiling from source would need Electron's headers from the internet.
      const result = ensureElectronBinding({ ...options, fetchers: [prebuiltFetcher] });
      const target = electronBindingPath(join(p.root, 'node_modules'), BS_VERSION, ELECTRON, 'linux', 'x64');
      expect(result).toEqual({ status: 'made', path: target, via: 'prebuilt download' });
      const asked = await mirror.requests();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(
        new RegExp(`^/v${BS_VERSION}/better-sqlite3-v${BS_VERSION}-electron-v\\d+-linux-x64\\.tar\\.gz$`),
      );
      expect(readFileSync(target, 'utf8')).toBe('the Electron build');
      expect(sha(NODE_BUILD)).toBe(nodeBuild);
      // Only the finished build is left: no staging folders.
      expect(readdirSync(join(p.root, 'node_modules', '.judge-lab'))).toEqual([
        `better-sqlite3-${BS_VERSION}-electron-${ELECTRON}-linux-x64`,
      ]);

      // The next install finds it and asks nobody.
      const tried: string[] = [];
      const again = ensureElectronBinding({
        ...options,
        fetchers: [{ name: 'spy', make: () => void tried.push('x') }],
      });
      expect(again).toEqual({ status: 'present', path: target });
      expect(tried).toEqual([]);
    } finally {
      mirror.stop();
      cache.cleanup();
      p.cleanup();
    }
  });

  it('a failed download leaves nothing behind and does not fail npm ci; setup:electron fails', async () => {
    const p = fakeProject(true);
    const mirror = await startMirror(tarball, 404);
    const cache = tempDir('judge-lab-npm-cache-');
    const said: string[] = [];
    try {
      const options = {
        root: p.root,
        env: env(mirror.url, cache.dir),
        fetchers: [prebuiltFetcher],
        print: (l: string) => said.push(l),
        warn: (l: string) => said.push(l),
      };
      expect(main([], options)).toBe(0);
      expect(existsSync(join(p.root, 'node_modules', '.judge-lab'))).toBe(false);
      expect(said.join('\n')).toContain('No prebuilt binaries found');
      expect(said.join('\n')).toContain('run `npm run setup:electron` when online');
      said.length = 0;
      expect(main(['--required'], options)).toBe(1);
      expect(said.join('\n')).toMatch(
        /could not make the Electron build of better-sqlite3: prebuilt download: exit 1/,
      );
      expect(existsSync(join(p.root, 'node_modules', '.judge-lab'))).toBe(false);
    } finally {
      mirror.stop();
      cache.cleanup();
      p.cleanup();
    }
  });
});
