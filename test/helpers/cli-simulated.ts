// The keyless demo through the real CLI, as every protocol's simulated-run test does it: a run
// with no key in the environment, and the marks every export of a simulated run carries.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCliInProcess } from './cli';

/** Every *_KEY and *_TOKEN variable emptied: the simulated provider needs none. */
export function keylessEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.keys(process.env)
      .filter((k) => /_KEY$|_TOKEN$/.test(k))
      .map((k) => [k, '']),
  );
}

/**
 * Runs `cfg` (experiment `name`) with no key through the CLI's entry in this process (see
 * `runCliInProcess`): it must finish (exit 0) and `list` must mark it simulated.
 */
export async function runKeylessInProcess(
  cfg: string,
  name: string,
  out: string,
  data: string,
): Promise<void> {
  const r = await runCliInProcess(['run', cfg, '--out', out, '--data-dir', data], keylessEnv());
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`Finished "${name}"`));
  expect((await runCliInProcess(['list', '--data-dir', data])).stdout).toMatch(
    new RegExp(`${name}\\s+finished .*\\[simulated: made-up answers\\]`),
  );
}

/**
 * The export in `out` says "simulated" everywhere: the manifest, every LaTeX table caption
 * (LaTeX spells the em dash "---"; the caption starts with the title) and every SVG figure.
 * Returns the .tex and .svg file names for the caller's own checks of what is there.
 */
export function expectExportsMarkedSimulated(out: string): { tex: string[]; svgs: string[] } {
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  expect(manifest.simulated).toBe(true);
  const tex = readdirSync(join(out, 'tables')).filter((f) => f.endsWith('.tex'));
  for (const f of tex)
    expect(readFileSync(join(out, 'tables', f), 'utf8'), f).toMatch(/\\caption\{Simulated --- /);
  const svgs = readdirSync(join(out, 'figures')).filter((f) => f.endsWith('.svg'));
  for (const f of svgs) expect(readFileSync(join(out, 'figures', f), 'utf8'), f).toContain('Simulated — ');
  return { tex, svgs };
}
