// `node bench/run.mjs validate-e2e` (issue 33, the end-to-end half): planted effects run through
// the real runner and metrics, many times at small n, no network. For each study it prints the
// share of runs that detect a planted effect against the power the app's planner predicts, and
// the share that flag an absent one. Seeded: the same seed gives the same table.
//
//   node bench/run.mjs validate-e2e                  the full run (minutes)
//   node bench/run.mjs validate-e2e --reps 0.25      a quarter of the replicates (a draft)
//   node bench/run.mjs validate-e2e --only e2e-bias-position-power --seed 7
//   node bench/run.mjs validate-e2e --cells lean5-noisedefault-n188   one cell (of any check)
//   node bench/run.mjs validate-e2e --json /tmp/e2e.json   also write the results
//   node bench/run.mjs validate-e2e --out /tmp/v      write the section into /tmp/v/VALIDATION.md
//   node bench/run.mjs validate-e2e --load a.json,b.json   the section from the counts of runs of
//                                          parts (--only … --json), e.g. one process per core
//   node bench/run.mjs validate-e2e --part 2/3 --json b.json   replicates 2, 5, 8, … of each cell
//   node bench/run.mjs validate-e2e --load a.json --recheck s7.json   the section, and below its table
//                                          the flagged cells run again at another seed (--seed 7 --json
//                                          s7.json), each with the counts of both seeds pooled
//   node bench/run.mjs validate-e2e --test-probe --only e2e-bias-probes-null   also the kit's test-only
//                                          crowd probe (test/protocols/bias-probes-extra-probe), so the
//                                          probe cells run before a built-in probe has `detect`
//
// It writes its table into docs/VALIDATION.md (the section between the e2e markers; `npm run
// validate` keeps that section when it writes the statistical part), with the seed and version.
//
// The CI subset (test/validation/e2e-planted.test.ts) runs the cells marked `ci` with fewer replicates.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { allE2eChecks } from './validate-e2e/checks';
import { e2eSection, recheckRows, withSection, type SavedRun } from './validate-e2e/report';
import { DEFAULT_SEED, cellSeed, judgeCell, type CellResult, type Check } from './validate-e2e/runner';
import { openLab, type Lab } from './validate-e2e/studies';
import { registerBiasProbe } from '../src/shared/protocols/bias-probes/probe-registry';
import { crowdProbe } from '../test/protocols/bias-probes-extra-probe/probe';

function parseArgs(argv: string[]) {
  const opts = {
    scale: 1,
    seed: DEFAULT_SEED,
    only: null as string[] | null,
    cells: null as string[] | null,
    json: null as string | null,
    out: 'docs',
    load: null as string[] | null,
    recheck: null as string[] | null,
    part: { i: 0, k: 1 },
    testProbe: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--reps') opts.scale = Number(next());
    else if (a === '--seed') opts.seed = Number(next());
    else if (a === '--only') opts.only = next().split(',');
    else if (a === '--cells') opts.cells = next().split(',');
    else if (a === '--json') opts.json = next();
    else if (a === '--out') opts.out = next();
    else if (a === '--load') opts.load = next().split(',');
    else if (a === '--recheck') opts.recheck = next().split(',');
    else if (a === '--test-probe') opts.testProbe = true;
    else if (a === '--part') {
      const [i, k] = next().split('/').map(Number);
      if (!(Number.isInteger(i) && Number.isInteger(k) && i >= 1 && i <= k))
        throw new Error('--part is i/k, 1 ≤ i ≤ k');
      opts.part = { i: i - 1, k };
    } else throw new Error(`unknown option ${a} (see the head of bench/validate-e2e.ts)`);
  }
  if (!(opts.scale > 0)) throw new Error('--reps must be a positive number');
  if (!Number.isSafeInteger(opts.seed)) throw new Error('--seed must be an integer');
  return opts;
}

const f = (x: number | undefined, d = 3) => (x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));

export function table(results: CellResult[]): string {
  const head = ['check', 'cell', 'n', 'R', 'rate', 'MC SE', 'predicted', 'band', 'verdict', 'CPU s'];
  const rows = results.map((r) => [
    r.check,
    r.key,
    String(r.n),
    String(r.defined) + (r.defined < r.reps ? `/${r.reps}` : ''),
    f(r.rate),
    f(r.se),
    r.kind === 'power'
      ? f(r.expected)
      : r.kind === 'coverage'
        ? `≥ ${f(r.band[0] + 4 * r.se, 2)}`
        : `≤ ${f(r.band[1] - 4 * r.se, 2)}`,
    `[${f(r.band[0])}, ${f(r.band[1])}]`,
    r.flagged ? 'FLAG' : !r.claimed ? 'not claimed' : r.inBand ? 'ok' : 'out of band',
    r.cpuSeconds.toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [head, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n');
}

/**
 * Runs the selected cells' replicates in turns (one replicate of each cell, then the next), so a
 * run stopped early has a prefix of every cell's replicates, not all of some cells and none of the
 * rest; the counts are saved after every replicate (--load reads them).
 */
async function run(checks: Check[], opts: ReturnType<typeof parseArgs>): Promise<CellResult[]> {
  const cells = checks.flatMap((check) =>
    check.cells
      .filter((c) => !opts.cells || opts.cells.includes(c.key))
      .map((cell) => ({
        check,
        cell,
        reps: Math.max(20, Math.round(cell.reps * opts.scale)),
        counts: { reps: 0, defined: 0, hits: 0 },
        cpu: 0,
      })),
  );
  const results = () => cells.map((c) => judgeCell(c.check, c.cell, c.counts, c.cpu));
  const { i: first, k } = opts.part;
  for (let index = first; cells.some((c) => index < c.reps); index += k) {
    for (const c of cells) {
      if (index >= c.reps) continue;
      const before = process.cpuUsage();
      const hit = await c.cell.replicate(cellSeed(opts.seed, c.check, c.cell, index), index);
      const used = process.cpuUsage(before);
      c.cpu += (used.user + used.system) / 1e6;
      c.counts.reps++;
      if (hit !== null) {
        c.counts.defined++;
        if (hit) c.counts.hits++;
      }
      if (opts.json)
        writeFileSync(
          opts.json,
          JSON.stringify({ seed: opts.seed, scale: opts.scale, results: results() }, null, 2),
        );
    }
    if ((index - first) % (10 * k) === 0)
      process.stderr.write(
        `  replicate ${index + 1}: ${cells.map((c) => `${c.cell.key} ${c.counts.hits}/${c.counts.defined}`).join(', ')}\n`,
      );
  }
  return results();
}

/**
 * Counts saved by runs of parts of the checks (`--json`, e.g. two processes on two cores), judged
 * again by the current checks: the same seed and scale give the same table as one run.
 */
function load(files: string[], checks: Check[], opts: ReturnType<typeof parseArgs>): CellResult[] {
  const saved = files.map(
    (f) => JSON.parse(readFileSync(f, 'utf8')) as { seed: number; scale: number; results: CellResult[] },
  );
  if (saved.some((x) => x.seed !== saved[0].seed || x.scale !== saved[0].scale))
    throw new Error('--load: the files come from runs with different seeds or scales');
  opts.seed = saved[0].seed;
  opts.scale = saved[0].scale;
  const all = saved.flatMap((x) => x.results);
  return checks.flatMap((check) =>
    check.cells.flatMap((cell) => {
      // The parts of a cell (--part) are disjoint replicates: their counts add up.
      const parts = all.filter((x) => x.check === check.id && x.key === cell.key);
      if (!parts.length) return [];
      const sum = (f: (r: CellResult) => number) => parts.reduce((a, r) => a + f(r), 0);
      return [
        judgeCell(
          check,
          cell,
          { reps: sum((r) => r.reps), defined: sum((r) => r.defined), hits: sum((r) => r.hits) },
          sum((r) => r.cpuSeconds),
        ),
      ];
    }),
  );
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const root = process.cwd();
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
  // A check's cells only describe themselves until a replicate runs, so --load opens no lab.
  let lab: Lab | null = null;
  // Before the checks are built: their probe cells come from the registry.
  if (opts.testProbe) registerBiasProbe(crowdProbe);
  const checks = allE2eChecks(() => lab!).filter((c) => !opts.only || opts.only.includes(c.id));
  if (checks.length === 0) throw new Error(`no check named ${opts.only?.join(', ')}`);
  let results: CellResult[];
  if (opts.load) results = load(opts.load, checks, opts);
  else {
    lab = await openLab();
    try {
      results = await run(checks, opts);
    } finally {
      await lab.close();
    }
  }
  process.stdout.write(`\n${table(results)}\n`);
  for (const c of checks)
    for (const cell of c.cells)
      if (cell.plan) process.stdout.write(`${c.id} ${cell.key}: ${cell.planted}; ${cell.plan}\n`);
  const cpu = results.reduce((s, r) => s + r.cpuSeconds, 0);
  process.stdout.write(`seed ${opts.seed}, ${cpu.toFixed(0)} CPU-s in the cells\n`);
  if (opts.json)
    writeFileSync(opts.json, JSON.stringify({ seed: opts.seed, scale: opts.scale, results }, null, 2));
  // What reproduces the numbers (--out, --json and --load do not change them).
  const flags = [
    opts.scale !== 1 ? `--reps ${opts.scale}` : '',
    opts.seed !== DEFAULT_SEED ? `--seed ${opts.seed}` : '',
    opts.only ? `--only ${opts.only.join(',')}` : '',
    opts.cells ? `--cells ${opts.cells.join(',')}` : '',
    opts.testProbe ? '--test-probe' : '',
    opts.recheck ? `--recheck ${opts.recheck.join(',')}` : '',
  ].filter(Boolean);
  const rechecks = opts.recheck
    ? opts.recheck.flatMap((f) =>
        recheckRows(
          relative(root, resolve(root, f)),
          JSON.parse(readFileSync(f, 'utf8')) as SavedRun,
          checks,
          results,
          opts.seed,
        ),
      )
    : undefined;
  const section = e2eSection(
    {
      version,
      seed: opts.seed,
      scale: opts.scale,
      node: `Node ${process.version}`,
      command: `npm run validate:e2e${flags.length ? ` -- ${flags.join(' ')}` : ''}`,
      cpuSeconds: cpu,
      ...(opts.load ? { loaded: opts.load.map((f) => relative(root, resolve(root, f))) } : {}),
    },
    checks,
    results,
    rechecks,
  );
  const outDir = resolve(root, opts.out);
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'VALIDATION.md');
  writeFileSync(file, withSection(existsSync(file) ? readFileSync(file, 'utf8') : '', section));
  process.stderr.write(`wrote the end-to-end section of ${relative(root, file)}\n`);
  if (results.some((r) => r.flagged)) process.exitCode = 1;
}

await main();
