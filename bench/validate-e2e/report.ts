// The end-to-end part of docs/VALIDATION.md (issue 33): `validate:e2e` writes it between two
// markers, and `validate` keeps it when it writes the statistical part again, so each command
// owns its half and neither needs the other's run.
import type { CellResult, Check } from './runner';
import { BAND_Z, COVERAGE_FLAG, judgeCell, POWER_TOLERANCE, TYPE1_FLAG } from './runner';

export const E2E_BEGIN = '<!-- e2e:begin (written by `npm run validate:e2e`) -->';
export const E2E_END = '<!-- e2e:end -->';
/** The section's anchor: the statistical part's verdicts link here. */
export const E2E_ANCHOR = 'end-to-end';

export interface E2eRunInfo {
  version: string;
  seed: number;
  scale: number;
  node: string;
  command: string;
  cpuSeconds: number;
  /** The saved counts the table adds up (`--load`), when it was not one run. */
  loaded?: string[];
}

const pct = (v: number | undefined) =>
  v === undefined || !Number.isFinite(v) ? '—' : `${(v * 100).toFixed(1)}`;

/** The study a check runs, from its id (`e2e-<study>-…`). */
function study(check: Check): string {
  return check.id.startsWith('e2e-judge-ls')
    ? 'Judge-LS'
    : check.id.startsWith('e2e-bias')
      ? 'Bias probes'
      : check.id.startsWith('e2e-self-consistency')
        ? 'Self-consistency'
        : check.id.startsWith('e2e-human')
          ? 'Human ratings'
          : check.id;
}

export function verdictWord(r: CellResult): string {
  if (r.defined === 0) return '⚑ no run reported the test';
  if (!r.claimed)
    return r.inBand ? 'not claimed' : 'not claimed (outside the band: shown to explain another)';
  if (r.flagged)
    return r.kind === 'power'
      ? `⚑ more than ${POWER_TOLERANCE * 100} points off the plan`
      : r.kind === 'coverage'
        ? `⚑ coverage below ${COVERAGE_FLAG * 100} %`
        : `⚑ false positives above ${TYPE1_FLAG * 100} %`;
  return r.inBand ? 'pass' : `pass (outside the ${BAND_Z}-SE band)`;
}

/** A cell of the table run again at another seed (`--recheck`). */
export interface Recheck {
  file: string;
  seed: number;
  check: Check;
  /** The table's counts, the second seed's, and both added up (judged as one cell). */
  first: CellResult;
  again: CellResult;
  pooled: CellResult;
}

/** What `--json` saves: the counts of a run. */
export interface SavedRun {
  seed: number;
  scale: number;
  results: CellResult[];
}

/**
 * Cells run again at another seed (`--recheck`, counts saved with `--json`): a cell flagged at the
 * table's seed may be chance among many cells, or a defect; a second draw of as many runs tells
 * them apart, and the pooled counts are judged as one cell of twice the runs.
 */
export function recheckRows(
  file: string,
  saved: SavedRun,
  checks: Check[],
  results: CellResult[],
  tableSeed: number,
): Recheck[] {
  if (saved.seed === tableSeed)
    throw new Error(`--recheck ${file}: seed ${saved.seed} is the table's own (use --load to add runs)`);
  return saved.results.map((again) => {
    const check = checks.find((c) => c.id === again.check);
    const cell = check?.cells.find((c) => c.key === again.key);
    const first = results.find((r) => r.check === again.check && r.key === again.key);
    if (!check || !cell || !first)
      throw new Error(`--recheck ${file}: ${again.key} is not a cell of this table`);
    const counts = (...rs: CellResult[]) => ({
      reps: rs.reduce((a, r) => a + r.reps, 0),
      defined: rs.reduce((a, r) => a + r.defined, 0),
      hits: rs.reduce((a, r) => a + r.hits, 0),
    });
    return {
      file,
      seed: saved.seed,
      check,
      first,
      again: judgeCell(check, cell, counts(again), again.cpuSeconds),
      pooled: judgeCell(check, cell, counts(first, again), first.cpuSeconds + again.cpuSeconds),
    };
  });
}

/** The end-to-end section, markers included. */
export function e2eSection(
  info: E2eRunInfo,
  checks: Check[],
  results: CellResult[],
  rechecks: Recheck[] = [],
): string {
  const out: string[] = [
    E2E_BEGIN,
    `<a id="${E2E_ANCHOR}"></a>`,
    '',
    '## End to end: planted effects through the real runner',
    '',
  ];
  out.push(
    `Written by \`${info.command}\` (\`bench/validate-e2e.ts\`, issue 33); do not edit by hand. Judge Lab ${info.version}, seed ${info.seed}, replicates × ${info.scale} of each cell's default, ${info.node}, ${info.cpuSeconds.toFixed(0)} CPU-s. The same seed gives the same table.`,
  );
  if (info.loaded?.length)
    out.push(
      '',
      `Counts added up from saved runs (\`--load\`, same seed, each cell's replicates once): ${info.loaded.map((f) => `\`${f}\``).join(', ')}.`,
    );
  out.push('');
  out.push(
    'Each run is a whole study through the app (config validation, queue, ledger, parsing, the protocol’s metrics and Holm families, real SQLite), with the simulated provider planting a known effect: its judge’s model name carries the knob (`-first<NN>` a first-position lean on NN % of items, `-lang<NN>` a language flip on NN % of items, `-long<NN>` a point more for a longer variant on NN % of responses, `-quality<NN>` each response’s planted quality or, on NN % of asks, a random score, which three simulated annotators rate through the annotation service, `-noise<MM>` per-ask noise, `-bias-<probe><NN>` NN % of the calls a bias probe’s `detect` names moved its way; `src/main/providers/simulated/planted-*.ts`). Every run samples its own n LLMBar items and names its judge with its own seed, so items, planted items and noise are new draws. **Detected**: share of runs whose study flags the planted effect, against the power the app’s planner predicts for that n (± 5 points is the issue’s criterion; the MC SE says how far chance alone moves it). **False positives**: share of runs that flag an effect that is absent (≤ 5 %; flagged above 6.5 %). **Coverage**: share of runs whose reported 95 % interval holds the planted value (flagged below 93 %). Runs where the study reported no test or interval are left out and counted (“defined”).',
  );
  out.push('');
  out.push(
    '| Study | Check | Planted | n | Runs | Detected % (± MC SE) | Predicted % | False positives % | Coverage % | Verdict |',
  );
  out.push('|---|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const check of checks)
    for (const r of results.filter((x) => x.check === check.id)) {
      const runs = r.defined < r.reps ? `${r.defined} of ${r.reps}` : String(r.reps);
      const mcse = Math.sqrt((r.rate * (1 - r.rate)) / Math.max(1, r.defined));
      const shown = `${pct(r.rate)} ± ${pct(mcse)}`;
      out.push(
        `| ${study(check)} | [${check.title}](#${check.id}) | ${r.planted} | ${r.n} | ${runs} | ${r.kind === 'power' ? shown : '—'} | ${r.kind === 'power' ? pct(r.expected) : '—'} | ${r.kind === 'type1' ? shown : '—'} | ${r.kind === 'coverage' ? shown : '—'} | ${verdictWord(r)} |`,
      );
    }
  out.push('');
  if (rechecks.length) {
    const files = [...new Set(rechecks.map((r) => `\`${r.file}\``))].join(', ');
    out.push(
      `**The same cells at a second seed** (\`--recheck\`, counts in ${files}). Among this many cells some land outside their band by chance alone; a defect shows again at another seed, chance does not. Each row: the table's runs, the second seed's, and both added up, judged as one cell.`,
      '',
      '| Study | Cell | Seed | Runs | This table | Second seed | Both seeds | Verdict on both |',
      '|---|---|---:|---:|---:|---:|---:|---|',
    );
    const shown = (r: CellResult) =>
      `${pct(r.rate)} ± ${pct(Math.sqrt((r.rate * (1 - r.rate)) / Math.max(1, r.defined)))}`;
    for (const r of rechecks)
      out.push(
        `| ${study(r.check)} | \`${r.first.key}\` | ${r.seed} | ${r.first.defined} + ${r.again.defined} | ${shown(r.first)} | ${shown(r.again)} | ${shown(r.pooled)} | ${verdictWord(r.pooled)} |`,
      );
    out.push('');
  }
  for (const check of checks) {
    const rs = results.filter((x) => x.check === check.id);
    if (!rs.length) continue;
    out.push(`<a id="${check.id}"></a>`);
    out.push(`### ${check.title}`);
    out.push('');
    out.push(`Design: ${check.design}`);
    out.push('');
    for (const r of rs) {
      const cell = check.cells.find((c) => c.key === r.key);
      const band = `band [${pct(r.band[0])}, ${pct(r.band[1])}] %`;
      out.push(
        `- \`${r.key}\`: ${r.hits} of ${r.defined} runs (${pct(r.rate)} %), ${band}, ${r.cpuSeconds.toFixed(0)} CPU-s${cell?.plan ? `; plan: ${cell.plan}` : ''}.`,
      );
    }
    out.push('');
  }
  out.push(E2E_END);
  return out.join('\n');
}

/** The end-to-end section of an existing report, or null. */
export function existingSection(markdown: string): string | null {
  const a = markdown.indexOf(E2E_BEGIN);
  const b = markdown.indexOf(E2E_END);
  return a >= 0 && b > a ? markdown.slice(a, b + E2E_END.length) : null;
}

/** The report with its end-to-end section replaced (or added at the end). */
export function withSection(markdown: string, section: string): string {
  const old = existingSection(markdown);
  if (old !== null) return markdown.replace(old, () => section);
  return `${markdown.replace(/\s*$/, '')}\n\n${section}\n`;
}
