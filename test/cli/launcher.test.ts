// Issue 39: the installed command starts with a smaller young generation, two malloc arenas and a
// fixed trim threshold (bin/judge-lab.mjs's first line; the benchmarks start the CLI the same way,
// bench/lib/launcher.ts).
// Run as a PATH command runs it: the script file itself, so the kernel (or npm's shim) reads the line.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliLauncher, launcherOf } from '../../bench/lib/launcher';
import { assertBuilt } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const BIN = join(process.cwd(), 'bin', 'judge-lab.mjs');

describe('the judge-lab launcher', () => {
  it('names its memory settings on its first line', () => {
    expect(cliLauncher(process.cwd())).toEqual({
      env: { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MIMALLOC_PURGE_DELAY: '0' },
      nodeArgs: ['--max-semi-space-size=8'],
    });
  });

  it('starts the CLI with them when the script itself is run', () => {
    assertBuilt();
    // What the started process sees, written as it exits (after the CLI printed its version).
    const seen = `data:text/javascript,${encodeURIComponent(
      `process.on('exit',()=>process.stderr.write(JSON.stringify({argv:process.execArgv,arenas:process.env.MALLOC_ARENA_MAX,trim:process.env.MALLOC_TRIM_THRESHOLD_,purge:process.env.MIMALLOC_PURGE_DELAY})))`,
    )}`;
    const {
      MALLOC_ARENA_MAX: _set,
      MALLOC_TRIM_THRESHOLD_: _trim,
      MIMALLOC_PURGE_DELAY: _purge,
      ...rest
    } = process.env;
    const env = { ...rest, NODE_OPTIONS: `--import=${seen}` };
    const run = spawnSync(BIN, ['--version'], { env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const s = JSON.parse(run.stderr) as { argv: string[]; arenas: string; trim: string; purge: string };
    expect(s.argv).toContain('--max-semi-space-size=8');
    expect(s.arenas).toBe('2');
    expect(s.trim).toBe('131072');
    expect(s.purge).toBe('0');
  });

  it('refuses a first line it cannot read, naming the file and line', () => {
    const { dir, cleanup } = tempDir();
    try {
      const bad = join(dir, 'x.mjs');
      writeFileSync(bad, '#!/bin/sh\necho\n');
      expect(() => launcherOf(bad)).toThrow(`${bad}:1: expected`);
      writeFileSync(bad, '#!/usr/bin/env -S A=1 deno run\n');
      expect(() => launcherOf(bad)).toThrow(`${bad}:1: the program must be "node"`);
    } finally {
      cleanup();
    }
  });
});
