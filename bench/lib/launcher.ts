// How the installed `judge-lab` command starts: the environment and Node options its first line
// (`#!/usr/bin/env -S VAR=value … node --flag …`) gives it. The benchmarks start the CLI the same
// way, so their figures are the command's as people run it, not `node bin/judge-lab.mjs`'s.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Launcher {
  /** Variables the first line sets. */
  env: Record<string, string>;
  /** Node options the first line passes, before the script. */
  nodeArgs: string[];
}

/** The launcher of a script from its first line; an error names the file and what it found. */
export function launcherOf(script: string): Launcher {
  const first = readFileSync(script, 'utf8').split('\n', 1)[0];
  const m = /^#!\/usr\/bin\/env(?:\s+-S)?\s+(.*)$/.exec(first);
  if (!m) throw new Error(`${script}:1: expected "#!/usr/bin/env [-S] … node …", found "${first}"`);
  const words = m[1].trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  if (words.shift() !== 'node') throw new Error(`${script}:1: the program must be "node", found "${first}"`);
  return { env, nodeArgs: words };
}

/** The installed command's launcher (bin/judge-lab.mjs under `root`). */
export const cliLauncher = (root: string): Launcher => launcherOf(join(root, 'bin', 'judge-lab.mjs'));
