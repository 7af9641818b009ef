// `judge-lab annotate …`: the human-rating doors of the CLI (DESIGN.md section 5d and the CLI
// contract of section 7), over the same API methods the app calls: list and create rating
// sets, write the blinded package for colleagues, import their labels, print the agreement
// report (the dashboard's tables, as text or JSON) and apply a calibration mapping to another
// experiment's scores.
import { statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  MAPPING_RHO_FLOOR,
  type AnnotationFile,
  type AnnotationSetSummary,
  type PackageImport,
} from '../../shared/annotation/api-types';
import type { CalibratedRow } from '../../shared/annotation/calibrate';
import { agreementTables } from '../../shared/annotation/report';
import { JUDGE_BANDS, neymanBandAllocation, ppiLabelBudget } from '../../shared/stats';
import {
  DEFAULT_LEAST_SURE_MARGIN,
  LEAST_SURE_CRITERIA,
  leastSureReasonText,
  type LeastSureCriterion,
  type LeastSureSelection,
} from '../../shared/annotation/least-sure';
import { FIGURE_LANGUAGES, type FigureLanguage } from '../../shared/report/figure-i18n';
import { scaleHint, tableToCsv } from '../facade/cli-kit';
import { formatCell, type Table } from '../../shared/report/table';
import { AppError } from '../base/errors';
import { INPUT_LIMITS, readRegularFile } from '../base/input-limits';
import type { CoreDoor } from '../facade/door';
import { experimentIdOf, type WithCore } from './door';

/** A guidelines file's text; a file that cannot be read or holds nothing names itself. */
function guidelinesFile(file: string): string {
  const bytes = readRegularFile(resolve(file), INPUT_LIMITS.guidelinesFileBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch (e) {
    throw new AppError('invalid_input', `${file}: cannot read the guidelines (${(e as Error).message})`, [
      { file, message: 'not a readable UTF-8 text file' },
    ]);
  }
  if (!text.trim())
    throw new AppError('invalid_input', `${file}: the guidelines file is empty`, [
      { file, message: 'empty' },
    ]);
  return text;
}

/**
 * A commander parser of one number: what `accepts` takes, else the option is refused with
 * `expected` (commander adds the option's name).
 */
function numberArg(accepts: (n: number) => boolean, expected: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!accepts(n)) throw new InvalidArgumentError(expected);
    return n;
  };
}

const wholeNumber = numberArg((n) => Number.isSafeInteger(n) && n >= 1, 'expected a whole number ≥ 1');
const fraction = numberArg((n) => Number.isFinite(n) && n >= -1 && n <= 1, 'expected a number from -1 to 1');
const wholeOrZero = numberArg((n) => Number.isSafeInteger(n) && n >= 0, 'expected a whole number ≥ 0');
const epsilonArg = numberArg((n) => Number.isFinite(n) && n >= 0 && n <= 1, 'expected a number from 0 to 1');
const marginArg = numberArg(
  (n) => Number.isFinite(n) && n >= 0 && n <= 100,
  'expected a number from 0 to 100',
);

/** Three numbers, low, mid and high judge-score band: "0.1,0.3,0.1" or "30,40,30". */
function threeBands(kind: 'fraction' | 'count') {
  return (v: string): [number, number, number] => {
    const parts = v.split(',').map((x) => Number(x.trim()));
    const ok = (n: number) =>
      kind === 'fraction' ? Number.isFinite(n) && n >= 0 && n <= 1 : Number.isSafeInteger(n) && n >= 0;
    if (parts.length !== 3 || !parts.every(ok))
      throw new InvalidArgumentError(
        kind === 'fraction'
          ? 'expected three numbers from 0 to 1 (low,mid,high), e.g. 0.1,0.3,0.1'
          : 'expected three whole numbers ≥ 0 (low,mid,high), e.g. 30,40,30',
      );
    return parts as [number, number, number];
  };
}

function criteriaArg(v: string): LeastSureCriterion[] {
  const list = v
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const bad = list.find((c) => !(LEAST_SURE_CRITERIA as readonly string[]).includes(c));
  if (bad !== undefined || !list.length)
    throw new InvalidArgumentError(`expected some of ${LEAST_SURE_CRITERIA.join(', ')}, comma-separated`);
  return list as LeastSureCriterion[];
}

function cutArg(v: string, previous: number[] | undefined): number[] {
  const n = Number(v);
  if (!v.trim() || !Number.isFinite(n)) throw new InvalidArgumentError('expected a score');
  return [...(previous ?? []), n];
}

/** What the least-sure options (`leastSureOptions`) give a command's action. */
interface LeastSureFlags {
  criteria?: LeastSureCriterion[];
  margin?: number;
  cut?: number[];
}

function leastSureParams(o: LeastSureFlags) {
  return {
    ...(o.criteria ? { criteria: o.criteria } : {}),
    ...(o.margin === undefined ? {} : { margin: o.margin }),
    ...(o.cut ? { cuts: o.cut } : {}),
  };
}

/** The least-sure units as text: counts per criterion, what cannot be looked for, each unit's reasons. */
export function leastSureText(sel: LeastSureSelection, size?: number): string {
  const lines = [
    `${sel.items.length} of ${sel.units} units the judge is least sure about` +
      (sel.items.length ? ` (${sel.criteria.map((c) => `${c}: ${sel.counts[c]}`).join(', ')})` : ''),
  ];
  if (sel.criteria.includes('boundary') && sel.cuts.length)
    lines.push(
      `Boundary: within ${sel.margin} point${sel.margin === 1 ? '' : 's'} of ${sel.cuts.map((c) => `≥ ${c}`).join(', ')}`,
    );
  for (const u of sel.unavailable) lines.push(`Not looked for: ${u.criterion} (${u.reason})`);
  if (size !== undefined)
    lines.push(`A set of ${size} takes the first ${Math.min(size, sel.items.length)} (most doubtful first)`);
  for (const i of sel.items.slice(0, size ?? sel.items.length))
    lines.push(`  ${i.itemKey}  ${i.reasons.map(leastSureReasonText).join('; ')}`);
  return lines.join('\n') + '\n';
}

/** A set by id, or by its name when that is unique. */
async function findSet(core: CoreDoor, ref: string): Promise<AnnotationSetSummary> {
  const sets = await core.call('annotation.listSets', {});
  const byId = /^\d+$/.test(ref) ? sets.find((s) => s.id === Number(ref)) : undefined;
  if (byId) return byId;
  const named = sets.filter((s) => s.name === ref);
  if (named.length > 1)
    throw new AppError('invalid_params', `Several rating sets are named "${ref}": give the id`);
  if (named.length === 1) return named[0];
  const known = sets.map((s) => `${s.id} "${s.name}"`).join(', ');
  throw new AppError(
    'not_found',
    `No rating set "${ref}"${known ? ` (there are: ${known})` : ' (none yet)'}`,
  );
}

/** Why a package was not opened: its set is not one of this store's; what to run instead. */
function foreignSetMessage(file: string, r: Extract<PackageImport, { outcome: 'foreign-set' }>): string {
  const p = r.package;
  const matches = r.candidates.map((c) => `${c.id} "${c.name}"`).join(', ');
  return (
    `${file} holds rating set "${p.name}" (uid ${p.uid}, ${p.units} units, ${p.labels} labels), ` +
    "which is not one of this store's rating sets; nothing was imported. " +
    (matches
      ? `Its units match ${r.candidates.length === 1 ? 'set' : 'sets'} ${matches}: to merge its labels there, ` +
        `add --into ${r.candidates[0].id}; to open it as a separate set, add --as-new-set.`
      : 'No set here has its units. To open it as a new set, add --as-new-set ' +
        '(or --into SET to merge into a set whose units match).')
  );
}

/** Writes a file from the API into `out` (a folder takes the file's own name); returns the path. */
function writeApiFile(file: AnnotationFile, out: string): string {
  let path = resolve(out);
  try {
    if (statSync(path).isDirectory()) path = join(path, file.fileName);
  } catch {
    // Not there yet: `out` is the file's path.
  }
  writeFileSync(path, Buffer.from(file.contentBase64, 'base64'));
  return path;
}

/** A table as aligned plain text, cells formatted as on the dashboard and in the exports. */
export function tableText(table: Table): string {
  const header = table.columns.map((c) => c.header);
  const rows = [...table.rows, ...(table.footer ?? [])].map((r) =>
    table.columns.map((c) => formatCell(c, r[c.key])),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((s, i) => (table.columns[i].align === 'r' ? s.padStart(widths[i]) : s.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [table.title, line(header), ...rows.map(line)].join('\n') + '\n';
}

function setLine(s: AnnotationSetSummary): string {
  const rated = s.progress.map((p) => `${p.annotator} ${p.labelled}/${p.total}`).join(', ');
  return (
    `  ${s.id}  ${s.name}  ${s.itemCount} items  scale: ${s.scale.kind}` +
    `${s.experimentId === null ? '  (from a package)' : `  experiment ${s.experimentId}`}` +
    `${rated ? `  rated: ${rated}` : ''}\n`
  );
}

export function registerAnnotateCommands(
  program: Command,
  withCore: WithCore,
  out: (s: string) => void,
): void {
  const annotate = program
    .command('annotate')
    .description('human ratings: rating sets, packages for annotators, labels, agreement, calibration');

  annotate
    .command('budget')
    .description(
      'before people rate: human labels PPI++ needs for a 95% CI of a given width on a rate, at an assumed judge–human correlation',
    )
    .requiredOption('--width <w>', 'the 95% CI width to reach (0–1), e.g. 0.1', epsilonArg)
    .requiredOption('--rho <r>', 'the assumed correlation between judge and people (−1 to 1)', fraction)
    .requiredOption('--unlabelled <n>', 'units the judge rates that people will not', wholeOrZero)
    .option('--rate <p>', 'the assumed rate (default 0.5, the widest interval)', epsilonArg)
    .option(
      '--disagreement <low,mid,high>',
      "share of items where judge and people disagree in the judge's low, middle and high score band (pilot or assumption; default 0.1,0.3,0.1)",
      threeBands('fraction'),
    )
    .option('--floor <n>', 'labels every band gets at least (default 10)', wholeOrZero)
    .option(
      '--pilot <set>',
      'a rated set (name or id) whose judge–person disagreement per band replaces the assumed one where it has labels',
    )
    .option('--json', 'print JSON')
    .action(
      (
        opts: {
          width: number;
          rho: number;
          unlabelled: number;
          rate?: number;
          disagreement?: [number, number, number];
          floor?: number;
          pilot?: string;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const { disagreement: assumed = [0.1, 0.3, 0.1], floor = 10, json, pilot, ...plan } = opts;
        let b: ReturnType<typeof ppiLabelBudget>;
        try {
          b = ppiLabelBudget(plan);
        } catch (e) {
          throw new InvalidArgumentError((e as Error).message);
        }
        const print = (disagreement: number[], source: string) => {
          const n = b.ppi_plus_plus;
          // The bands are terciles of the judge's score, so about a third of all units each.
          const size = n === null ? 0 : Math.ceil((plan.unlabelled + n) / 3);
          const allocation =
            n === null
              ? null
              : neymanBandAllocation({
                  total: n,
                  floor,
                  bands: JUDGE_BANDS.map((band, i) => ({ band, size, disagreement: disagreement[i] })),
                });
          if (json)
            return out(JSON.stringify({ ...plan, disagreement, floor, ...b, allocation }, null, 2) + '\n');
          out(
            b.ppi_plus_plus === null
              ? `Not reachable with these numbers; people alone need ${b.human_only} labels.\n`
              : `PPI++ reaches a 95% CI width of ${opts.width} with about ${b.ppi_plus_plus} human labels ` +
                  `(people alone: ${b.human_only}), using the judge on ${opts.unlabelled} other units at ρ = ${opts.rho}.\n` +
                  'At the optimal λ: Var = p(1 − p)/n · (1 − ρ²/(1 + n/N)); a planning figure.\n',
          );
          if (allocation) {
            const [lo, mid, hi] = allocation.map((a) => a.count);
            out(
              `Which items: ${lo} from the judge's low score band, ${mid} from the middle, ${hi} from the high ` +
                `(Neyman allocation by the disagreement ${disagreement.map((d) => d.toFixed(3)).join(', ')}, ${source}; at least ${floor} a band). ` +
                `create-set --size ${n} --band-counts ${lo},${mid},${hi} draws them.\n`,
            );
          }
        };
        if (pilot === undefined) return print(assumed, 'assumed');
        return withCore(cmd, async (core) => {
          const set = await findSet(core, pilot);
          const report = await core.call('annotation.agreement', { setId: set.id });
          const judge = report.judge_and_people?.judges[0];
          if (!judge)
            throw new AppError('conflict', `Set "${set.name}" has no judge ratings to compare with people`);
          // Bands the pilot has no labels in keep the assumed share.
          const measured = judge.band_disagreement.map((d, i) => d.disagreement ?? assumed[i]);
          print(
            measured,
            `from set "${set.name}" (judge ${judge.judge}; ${judge.band_disagreement.map((d) => `${d.band} ${d.labelled} labelled`).join(', ')})`,
          );
        });
      },
    );

  annotate
    .command('sets')
    .description('list rating sets (of one experiment, or all)')
    .argument('[experiment]', 'experiment name or id')
    .option('--json', 'print JSON')
    .action((ref: string | undefined, opts: { json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const experimentId = ref === undefined ? undefined : await experimentIdOf(core, ref);
        const sets = await core.call(
          'annotation.listSets',
          experimentId === undefined ? {} : { experimentId },
        );
        if (opts.json) return out(JSON.stringify(sets, null, 2) + '\n');
        if (!sets.length)
          return out('No rating sets yet. Make one with: judge-lab annotate create-set <experiment>\n');
        for (const s of sets) out(setLine(s));
      }),
    );

  const leastSureOptions = (c: Command) =>
    c
      .option(
        '--criteria <list>',
        `signs of doubt, comma-separated: ${LEAST_SURE_CRITERIA.join(', ')} (default: all)`,
        criteriaArg,
      )
      .option(
        '--margin <points>',
        `boundary: score points from a cut that still count as near it (default ${DEFAULT_LEAST_SURE_MARGIN})`,
        marginArg,
      )
      .option(
        '--cut <score>',
        'boundary: a score cut (≥ cut is above; repeat for several; default the pass mark of the corrected estimates)',
        cutArg,
      );

  leastSureOptions(
    annotate
      .command('least-sure')
      .description(
        'the units the judge is least sure about (score near a cut, orders disagreeing, flipped on repeat), each with why; `create-set --least-sure` sends them to people',
      )
      .argument('<experiment>', 'experiment name or id')
      .option('--size <n>', 'show how a set of this size would be cut from them', wholeNumber)
      .option('--json', 'print JSON'),
  ).action((ref: string, opts: LeastSureFlags & { size?: number; json?: boolean }, cmd: Command) =>
    withCore(cmd, async (core) => {
      const experimentId = await experimentIdOf(core, ref);
      const sel = await core.call('annotation.leastSure', { experimentId, ...leastSureParams(opts) });
      if (opts.json) return out(JSON.stringify(sel, null, 2) + '\n');
      out(leastSureText(sel, opts.size));
    }),
  );

  leastSureOptions(
    annotate
      .command('create-set')
      .description(
        "draw a stratified sample of an experiment's units for people to rate (or, with --least-sure, the units the judge is least sure about)",
      )
      .argument('<experiment>', 'experiment name or id')
      .requiredOption(
        '--size <n>',
        'how many units (with --least-sure: at most, most doubtful first)',
        wholeNumber,
      )
      .option('--seed <n>', 'sampling seed (default: a fixed one)', wholeNumber)
      .option(
        '--band-counts <low,mid,high>',
        "units from the judge's low, middle and high score band (as `annotate budget` allocates them; they sum to --size)",
        threeBands('count'),
      )
      .option('--name <name>', 'the set name')
      .option('--guidelines <file>', "the set's guidelines for annotators (a text or Markdown file)")
      .option(
        '--task <id>',
        "rate one of the study's own tasks instead of the judges' units (e.g. translation_equivalence where translations were verified)",
      )
      .option(
        '--least-sure',
        'take the units the judge is least sure about instead of a random sample (see `annotate least-sure`)',
      ),
  ).action(
    (
      ref: string,
      opts: {
        size: number;
        seed?: number;
        name?: string;
        guidelines?: string;
        task?: string;
        bandCounts?: [number, number, number];
        leastSure?: boolean;
      } & LeastSureFlags,
      cmd: Command,
    ) =>
      withCore(cmd, async (core) => {
        const experimentId = await experimentIdOf(core, ref);
        const { guidelines: file, leastSure, criteria, margin, cut, bandCounts, ...rest } = opts;
        if (!leastSure && (criteria || margin !== undefined || cut))
          throw new AppError(
            'invalid_params',
            '--criteria, --margin and --cut choose least-sure units: add --least-sure',
          );
        const set = await core.call('annotation.createSet', {
          experimentId,
          ...rest,
          ...(file === undefined ? {} : { guidelines: guidelinesFile(file) }),
          ...(leastSure ? { leastSure: leastSureParams({ criteria, margin, cut }) } : {}),
          ...(bandCounts
            ? { bandCounts: { low: bandCounts[0], mid: bandCounts[1], high: bandCounts[2] } }
            : {}),
        });
        out(
          `Created rating set ${set.id} "${set.name}" with ${set.itemCount} units` +
            `${set.guidelinesVersion === null ? '' : ` and guidelines version ${set.guidelinesVersion}`}\n`,
        );
        if (set.selection === 'least-sure')
          out(
            `Chosen as the judge's least sure: ${set.strata
              .filter((st) => st.sampled > 0)
              .map((st) => `${st.criterion} ${st.sampled}`)
              .join(', ')}. ` +
              'Not a random sample: the corrected estimates (PPI, PPI++, Rogan–Gladen, people alone) are undefined for this set.\n',
          );
      }),
  );

  annotate
    .command('guidelines')
    .description(
      "print a set's guidelines, or store a file as their next version (labels record the version they were made under)",
    )
    .argument('<set>', 'rating set name or id')
    .option('--file <file>', 'the new guidelines (a text or Markdown file)')
    .option('--json', 'print every version as JSON')
    .action((ref: string, opts: { file?: string; json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const set = await findSet(core, ref);
        if (opts.file !== undefined) {
          const before = set.guidelinesVersion;
          const v = await core.call('annotation.setGuidelines', {
            setId: set.id,
            text: guidelinesFile(opts.file),
          });
          out(
            v.version === before
              ? `The guidelines of "${set.name}" are unchanged: still version ${v.version}\n`
              : `Stored the guidelines of "${set.name}" as version ${v.version}\n`,
          );
          return;
        }
        const versions = await core.call('annotation.guidelines', { setId: set.id });
        if (opts.json) return out(JSON.stringify(versions, null, 2) + '\n');
        const last = versions.at(-1);
        if (!last)
          return out(
            `"${set.name}" has no guidelines yet. Write them with: judge-lab annotate guidelines ${set.id} --file <file>\n`,
          );
        out(
          `Guidelines of "${set.name}", version ${last.version} of ${versions.length} (${last.createdAt}):\n\n`,
        );
        out(last.text + '\n');
      }),
    );

  annotate
    .command('disagreements')
    .description(
      'items whose annotators gave different labels (and items already adjudicated), labels side by side',
    )
    .argument('<set>', 'rating set name or id')
    .option('--json', "print JSON (the units' text included)")
    .action((ref: string, opts: { json?: boolean }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const set = await findSet(core, ref);
        const items = await core.call('annotation.disagreements', { setId: set.id });
        if (opts.json) return out(JSON.stringify(items, null, 2) + '\n');
        if (!items.length) return out(`No disagreements in "${set.name}"\n`);
        for (const d of items) {
          const labels = d.labels.map((l) => `${l.annotator}=${l.value}`).join('  ');
          const settled = d.adjudication
            ? `  adjudicated: ${d.adjudication.value} by ${d.adjudication.adjudicator} at ${d.adjudication.createdAt}`
            : '';
          out(`  ${d.unitUid}  ${labels}  median/majority: ${d.majority ?? 'undefined (tie)'}${settled}\n`);
        }
      }),
    );

  annotate
    .command('adjudicate')
    .description(
      "settle an item: the adjudicated label is the item's human reference (stored apart from the labels)",
    )
    .argument('<set>', 'rating set name or id')
    .argument('<unit>', 'the unit id (as `annotate disagreements` prints it)')
    .argument('<value>', "the label on the set's scale, or `none` to withdraw the adjudication")
    .requiredOption('--by <name>', 'who adjudicates')
    .option('--note <text>', 'why')
    .action((ref: string, unit: string, value: string, opts: { by: string; note?: string }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const set = await findSet(core, ref);
        const withdraw = value === 'none';
        const items = await core.call('annotation.adjudicate', {
          setId: set.id,
          unitUid: unit,
          value: withdraw ? null : value,
          adjudicator: opts.by,
          ...(opts.note === undefined ? {} : { note: opts.note }),
        });
        out(
          withdraw
            ? `Withdrew the adjudication of ${unit} in "${set.name}"\n`
            : `Adjudicated ${unit} in "${set.name}" as ${items.find((d) => d.unitUid === unit)?.adjudication?.value ?? value}\n`,
        );
      }),
    );

  annotate
    .command('export-package')
    .description('write the blinded annotation package (JSON) for annotators using another copy of the app')
    .argument('<set>', 'rating set name or id')
    .requiredOption('--out <path>', 'file, or folder for the package under its own name')
    .action((ref: string, opts: { out: string }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const set = await findSet(core, ref);
        const path = writeApiFile(await core.call('annotation.exportPackage', { setId: set.id }), opts.out);
        out(`Wrote the package of "${set.name}" (${set.itemCount} units) to ${path}\n`);
      }),
    );

  annotate
    .command('label-template')
    .description(
      'write the labels CSV to fill for import-labels: unit ids, the blinded text, an empty value column',
    )
    .argument('<set>', 'rating set name or id')
    .option('--annotator <name>', "prefill the annotator column with this person's name")
    .requiredOption('--out <path>', 'file, or folder for the CSV under its own name')
    .action((ref: string, opts: { annotator?: string; out: string }, cmd: Command) =>
      withCore(cmd, async (core) => {
        const set = await findSet(core, ref);
        const file = await core.call('annotation.labelTemplate', {
          setId: set.id,
          ...(opts.annotator === undefined ? {} : { annotator: opts.annotator }),
        });
        const path = writeApiFile(file, opts.out);
        out(
          `Wrote the label template of "${set.name}" (${set.itemCount} units) to ${path}\n` +
            `Fill the ${set.scale.kind} column with ${scaleHint(set.scale)}` +
            `${opts.annotator === undefined ? ' and the annotator column with a name' : ''}, ` +
            `then: judge-lab annotate import-labels ${set.id} ${basename(path)}\n`,
        );
      }),
    );

  annotate
    .command('import-package')
    .description('open an annotation package as a new set, or merge its labels into the set it came from')
    .argument('<file>', 'the package (.json)')
    .option('--as-new-set', 'open a package of a set this store does not know as a new set')
    .option('--into <set>', 'merge the labels into this rating set (name or id; its units must match)')
    .option(
      '--take-package-labels',
      "replace the set's labels with the package's even where the set's are newer (the conflicts listed without it)",
    )
    .action(
      (
        file: string,
        opts: { asNewSet?: boolean; into?: string; takePackageLabels?: boolean },
        cmd: Command,
      ) =>
        withCore(cmd, async (core) => {
          const into = opts.into === undefined ? undefined : await findSet(core, opts.into);
          const r = await core.call('annotation.importPackage', {
            fileName: basename(file),
            contentBase64: readRegularFile(resolve(file), INPUT_LIMITS.annotationFileBytes).toString(
              'base64',
            ),
            ...(opts.asNewSet ? { asNewSet: true } : {}),
            ...(into ? { intoSetId: into.id } : {}),
            ...(opts.takePackageLabels ? { takePackageLabels: true } : {}),
          });
          if (r.outcome === 'foreign-set')
            throw new AppError('conflict', foreignSetMessage(basename(file), r));
          out(
            `${r.created ? 'Opened as a new' : 'Merged into'} rating set ${r.set.id} "${r.set.name}": ${r.labels} labels\n`,
          );
          if (r.conflicts.length) out(conflictsText(basename(file), r.conflicts));
        }),
    );

  annotate
    .command('import-labels')
    .description(
      'import human labels from CSV or JSONL (item_id, annotator, score | preference | label, comment)',
    )
    .argument('<set>', 'rating set name or id')
    .argument('<file>', 'labels file (.csv or .jsonl); all or nothing')
    .action((ref: string, file: string, _opts: unknown, cmd: Command) =>
      withCore(cmd, async (core) => {
        const set = await findSet(core, ref);
        const r = await core.call('annotation.importLabels', {
          setId: set.id,
          fileName: basename(file),
          contentBase64: readRegularFile(resolve(file), INPUT_LIMITS.annotationFileBytes).toString('base64'),
        });
        out(`Imported ${r.imported} labels into "${set.name}" from ${r.annotators.join(', ')}\n`);
      }),
    );

  annotate
    .command('agreement')
    .description('agreement among people and between judges and people, with the decision at a threshold')
    .argument('<set>', 'rating set name or id')
    .option('--threshold <rho>', "the bar for Spearman's rho (default 0.8)", fraction)
    .option(
      '--epsilon <e>',
      'the alternative annotator test’s cost–benefit ε (default 0.2 for experts; 0.15 skilled, 0.1 crowd workers)',
      epsilonArg,
    )
    .option('--json', 'print the report as JSON (agreement.json of the export)')
    .option('--out <file>', 'also write the export zip (tables, figures, annotations, mapping) here')
    .addOption(
      new Option('--lang <lang>', "the zip's figures' language (titles, axes, legends)")
        .choices([...FIGURE_LANGUAGES])
        .default('en'),
    )
    .action(
      (
        ref: string,
        opts: { threshold?: number; epsilon?: number; json?: boolean; out?: string; lang: FigureLanguage },
        cmd: Command,
      ) =>
        withCore(cmd, async (core) => {
          const set = await findSet(core, ref);
          const params = {
            setId: set.id,
            ...(opts.threshold === undefined ? {} : { threshold: opts.threshold }),
            ...(opts.epsilon === undefined ? {} : { epsilon: opts.epsilon }),
          };
          const report = await core.call('annotation.agreement', params);
          if (opts.json) out(JSON.stringify(report, null, 2) + '\n');
          else {
            out(`Rating set ${set.id} "${set.name}" (threshold ${report.threshold})\n\n`);
            out(agreementTables(report).map(tableText).join('\n'));
            if (report.unresolved_items)
              out(
                `\n${report.unresolved_items} items have no human reference (no labels, or a tied majority).\n`,
              );
          }
          if (opts.out) {
            const path = writeApiFile(
              await core.call('annotation.exportZip', { ...params, lang: opts.lang }),
              opts.out,
            );
            (opts.json ? (s: string) => process.stderr.write(s) : out)(`Wrote ${path}\n`);
          }
        }),
    );

  annotate
    .command('apply-mapping')
    .description("apply a set's calibration mapping of one judge to another experiment's scores")
    .argument('<set>', 'rating set name or id (the mapping is its judge’s)')
    .argument('<experiment>', 'target experiment name or id (same protocol, judge model and rubric)')
    .requiredOption('--judge <label>', 'the judge whose mapping to apply')
    .option('--target-judge <label>', "the judge's label in the target experiment (default: the same)")
    .option('--out <file>', 'write the calibrated scores as CSV')
    .option(
      '--force',
      `apply even when the mapping's held-out ρ is below ${MAPPING_RHO_FLOOR} (or undefined)`,
    )
    .option('--json', 'print JSON')
    .action(
      (
        ref: string,
        expRef: string,
        opts: { judge: string; targetJudge?: string; out?: string; json?: boolean; force?: boolean },
        cmd: Command,
      ) =>
        withCore(cmd, async (core) => {
          const set = await findSet(core, ref);
          const experimentId = await experimentIdOf(core, expRef);
          const r = await core.call('annotation.applyMapping', {
            setId: set.id,
            judge: opts.judge,
            experimentId,
            ...(opts.targetJudge === undefined ? {} : { targetJudge: opts.targetJudge }),
            ...(opts.force ? { force: true } : {}),
          });
          if (r.forced)
            process.stderr.write(
              `Warning: applied with --force: the mapping's held-out ρ is ${r.quality.rho === null ? 'undefined' : r.quality.rho.toFixed(2)}, ` +
                `below the floor of ${r.quality.floor}; ${r.flattened} of ${r.rows.length} scores share a calibrated value with another raw score.\n`,
            );
          if (opts.out) writeFileSync(resolve(opts.out), tableToCsv(calibratedTable(r.rows)));
          if (opts.json) return out(JSON.stringify(r, null, 2) + '\n');
          out(
            `Calibrated ${r.rows.length} scores of "${opts.targetJudge ?? opts.judge}" in experiment ${experimentId} ` +
              `with the ${r.category} mapping of "${set.name}" (mapping ${r.mappingId})` +
              `${opts.out ? `; wrote ${resolve(opts.out)}` : ''}\n`,
          );
        }),
    );
}

/** The calibrated scores as a table (the CSV of apply-mapping). */
function calibratedTable(rows: readonly CalibratedRow[]): Table {
  const text = (key: string, header: string) => ({ key, header, kind: 'text' as const, align: 'l' as const });
  return {
    id: 'calibrated_scores',
    title: 'Calibrated scores',
    caption: 'Judge scores mapped by the isotonic calibration (and the linear fit beside it).',
    columns: [
      text('item', 'item_id'),
      text('judge', 'judge'),
      text('category', 'category'),
      text('raw', 'raw'),
      text('calibrated', 'calibrated'),
      text('linear', 'linear'),
      text('mapping', 'mapping'),
    ],
    rows: rows.map((r) => ({
      item: r.itemKey,
      judge: r.judge,
      category: r.category,
      raw: String(r.raw),
      calibrated: String(r.calibrated),
      linear: String(r.linear),
      mapping: r.mapping,
    })),
  };
}

/** The package labels kept out because the set's are newer, and how to take them anyway. */
function conflictsText(
  file: string,
  conflicts: {
    unit: string;
    annotator: string;
    ours: { value: unknown; skipped: boolean; time: string };
    package: { value: unknown; skipped: boolean; time: string | null };
  }[],
): string {
  const show = (l: { value: unknown; skipped: boolean }) => (l.skipped ? 'skipped' : JSON.stringify(l.value));
  const lines = conflicts
    .slice(0, 50)
    .map(
      (c) =>
        `  unit ${c.unit}, ${c.annotator}: kept ${show(c.ours)} (${c.ours.time}); the package has ${show(c.package)} (${c.package.time ?? 'no time'})\n`,
    );
  return (
    `${conflicts.length} label${conflicts.length === 1 ? '' : 's'} of ${file} not taken: this set's label is newer (or the package gives no time):\n` +
    lines.join('') +
    (conflicts.length > 50 ? `  … and ${conflicts.length - 50} more\n` : '') +
    `To replace them with the package's anyway, run the same command with --take-package-labels.\n`
  );
}
