// Plain JS with its types beside it (.d.mts): vitest.config.ts imports it, and Vite's native config
// loader, planned as its default, loads neither TypeScript nor JSON through an import.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { URL } from 'node:url';
import { BaseSequencer } from 'vitest/node';

/** Seconds a file took in a whole run on a 2-core machine, keyed `project:path` (long-files.mjs writes it). */
export const knownSeconds = JSON.parse(readFileSync(new URL('./long-files.json', import.meta.url), 'utf8'));

/**
 * Long files first. Vitest starts files in the sequencer's order, and its own sequencer orders by
 * the durations it cached on the last run; CI has no cache, so it took each project's files in
 * name order and `test/validation/e2e-planted.test.ts` (~130 s) started among the last node files and
 * ran alone at the end (in name order ~600 s against ~510 s longest first, simulated on a whole
 * run's durations with four workers). A project's files stay together: vitest's pool keeps a worker
 * process for the next file only when that file is of the same project, and starting one again costs
 * the module loading `isolate: false` saves. So the projects go in the order of their longest file,
 * and inside a project the listed files longest first, then the others in the order they came
 * (vitest's: its cache, else larger files first).
 */
export function longFirst(files, seconds = knownSeconds) {
  const secs = (f) => seconds[`${f.project}:${f.path}`] ?? 0;
  const blocks = new Map();
  for (const f of files) {
    const block = blocks.get(f.project);
    if (block) block.push(f);
    else blocks.set(f.project, [f]);
  }
  const sorted = [...blocks.values()].map((block) => [...block].sort((a, b) => secs(b) - secs(a)));
  return sorted.sort((a, b) => secs(b[0]) - secs(a[0])).flat();
}

export class LongFirstSequencer extends BaseSequencer {
  async sort(files) {
    const root = this.ctx.config.root;
    const placed = (await super.sort(files)).map((spec) => ({
      spec,
      project: spec.project.name,
      path: relative(root, spec.moduleId).split('\\').join('/'),
    }));
    return longFirst(placed).map((p) => p.spec);
  }
}
