// `npm run validate` (issue 33): Monte Carlo under planted truth of every interval and test
// the app reports, through the app's own statistics code; writes docs/VALIDATION.md and its
// figures (docs/validation/*.svg, one PNG). Seeded: the same seed gives the same report.
//
//   npm run validate                      the full run (minutes)
//   npm run validate -- --quick           a tenth of the replicates (a draft, not for committing)
//   npm run validate -- --reps 2          twice the replicates
//   npm run validate -- --only wilson,icc21 --seed 7 --out /tmp/v
//   npm run validate -- --save /tmp/r.json   keep the counts; --load /tmp/r.json writes the
//                                          report from them again (e.g. after a caption changed)
//
// The CI subset (test/stats/validation-subset.test.ts) runs the cells marked `ci` with the
// same modules and fails when a method leaves its Monte Carlo tolerance band.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { renderSvg, svgToPng } from '../src/main/report/figures';
import { allChecks } from './validate/checks';
import { existingSection, withSection } from './validate-e2e/report';
import { lineFigure, markdown, powerFigure, verdictOf } from './validate/report';
import { DEFAULT_SEED, judge, runChecks, stderrProgress, type CellResult } from './validate/runner';

function parseArgs(argv: string[]) {
  const opts = {
    scale: 1,
    seed: DEFAULT_SEED,
    only: null as string[] | null,
    out: 'docs',
    png: true,
    save: null as string | null,
    load: null as string | null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') opts.scale = 0.1;
    else if (a === '--reps') opts.scale = Number(next());
    else if (a === '--seed') opts.seed = Number(next());
    else if (a === '--only') opts.only = next().split(',');
    else if (a === '--out') opts.out = next();
    else if (a === '--no-png') opts.png = false;
    else if (a === '--save') opts.save = next();
    else if (a === '--load') opts.load = next();
    else throw new Error(`unknown option ${a} (see the head of bench/validate.ts)`);
  }
  if (!(opts.scale > 0)) throw new Error('--reps must be a positive number');
  if (!Number.isSafeInteger(opts.seed)) throw new Error('--seed must be an integer');
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const root = process.cwd();
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
  const checks = allChecks().filter((c) => !opts.only || opts.only.includes(c.id));
  if (checks.length === 0) throw new Error(`no check named ${opts.only?.join(', ')}`);
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  let results: CellResult[];
  if (opts.load) {
    // The same counts judged by the current checks (claims, captions, bands).
    const saved = JSON.parse(readFileSync(opts.load, 'utf8')) as {
      seed: number;
      scale: number;
      results: CellResult[];
    };
    opts.seed = saved.seed;
    opts.scale = saved.scale;
    results = saved.results.flatMap((r) => {
      const check = checks.find((c) => c.id === r.check);
      const cell = check?.cells.find((c) => c.key === r.key);
      return check && cell ? [judge(check, cell, r.counts)] : [];
    });
  } else {
    const cpuSeconds = new Map<string, number>();
    results = runChecks(checks, {
      seed: opts.seed,
      scale: opts.scale,
      progress: stderrProgress(),
      cpuSeconds,
    });
    process.stderr.write(
      `CPU-s per check: ${[...cpuSeconds].map(([id, t]) => `${id} ${t.toFixed(1)}`).join(', ')}\n`,
    );
  }
  if (opts.save) writeFileSync(opts.save, JSON.stringify({ seed: opts.seed, scale: opts.scale, results }));
  const verdicts = checks.map((c) =>
    verdictOf(
      c,
      results.filter((r) => r.check === c.id),
    ),
  );

  const outDir = resolve(root, opts.out);
  const figDir = join(outDir, 'validation');
  rmSync(figDir, { recursive: true, force: true });
  mkdirSync(figDir, { recursive: true });
  const figures: { id: string; file: string }[] = [];
  for (const v of verdicts) {
    const spec = v.check.kind === 'power' ? powerFigure(v.check, v.results) : lineFigure(v.check, v.results);
    const svg = renderSvg(spec);
    const file = join(figDir, `${spec.id}.svg`);
    writeFileSync(file, svg);
    figures.push({ id: spec.id, file: relative(outDir, file) });
    // One PNG (the power figure) for places that show no SVG, at about 1.5× rather than the
    // exports' 300 dpi; the rest stay SVG to keep the repository small.
    if (opts.png && v.check.kind === 'power')
      writeFileSync(join(figDir, `${spec.id}.png`), await svgToPng(svg, Math.round(spec.width * 0.5)));
  }
  // What reproduces the numbers (not how this file was written: --load, --out, --save do not change them).
  const flags = [
    opts.scale !== 1 ? `--reps ${opts.scale}` : '',
    opts.seed !== DEFAULT_SEED ? `--seed ${opts.seed}` : '',
    opts.only ? `--only ${opts.only.join(',')}` : '',
  ].filter(Boolean);
  const command = `npm run validate${flags.length ? ` -- ${flags.join(' ')}` : ''}`;
  const report = markdown(
    { version, seed: opts.seed, scale: opts.scale, node: `Node ${process.version}`, command },
    verdicts,
    figures,
  );
  // The end-to-end section is `validate:e2e`'s (its own seed and run): kept as it stands.
  const file = join(outDir, 'VALIDATION.md');
  const e2e = existsSync(file) ? existingSection(readFileSync(file, 'utf8')) : null;
  writeFileSync(file, e2e === null ? report : withSection(report, e2e));
  const cpu = process.cpuUsage(cpu0);
  process.stderr.write(
    `\n${results.length} cells in ${((Date.now() - t0) / 1000).toFixed(0)} s (${((cpu.user + cpu.system) / 1e6).toFixed(0)} CPU-s); wrote ${relative(root, join(outDir, 'VALIDATION.md'))}\n`,
  );
  for (const v of verdicts)
    process.stdout.write(
      `${v.claimBroken.length || v.range.length || v.point.length ? 'FAIL ' : v.flagged.length ? 'flag ' : 'ok   '} ${v.check.id}: ${v.line}\n\n`,
    );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
