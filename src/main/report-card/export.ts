// The report card's files: report-card.json (the card as computed), report-card.tex (its two
// tables, PDF-ready), report-card.md (the same tables in Markdown), report-card.csv and
// report-card-gates.csv (every figure and every gate check with its raw numbers, for scripts),
// report-card.svg and report-card.png (the one-page card). The folder is written through a
// staging folder beside it and renamed into place: never half-written.
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { renderSvg, svgToPng } from '../report/figures';
import { tableToLatex } from '../report/latex';
import { tableToMarkdown } from '../report/markdown';
import { toCsv } from '../report/csv';
import type { FigureLanguage } from '../../shared/report/figure-i18n';
import { reportCardFigure } from '../../shared/report-card/figure';
import { cardView, type CardDictionaries, type CardView } from '../../shared/report-card/phrases';
import { checkProtocol, experimentName, gatesTable, rowsTable } from '../../shared/report-card/tables';
import type { ReportCard } from '../../shared/report-card/types';
import { listProtocols } from '../protocols/registry';

export const REPORT_CARD_FILES = [
  'report-card.json',
  'report-card.tex',
  'report-card.md',
  'report-card.csv',
  'report-card-gates.csv',
  'report-card.svg',
  'report-card.png',
];

/** A number as JavaScript prints it (full precision, as in metrics.json); empty when undefined. */
const num = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const flag = (b: boolean) => (b ? '1' : '0');

/** A measurement's columns, alike in the rows and the gate checks: scripts join the two files on them. */
const MEASUREMENT_COLUMNS = ['condition', 'n', 'value', 'ci_low', 'ci_high'];

/** A measurement's cells (its condition already in words): raw value and interval, as metrics.json has them. */
const measurementCells = (
  condition: string,
  m: { n: number; value: number | null; ci: [number, number] | null },
): string[] => [condition, String(m.n), num(m.value), num(m.ci?.[0]), num(m.ci?.[1])];

/** Each registered protocol's card words (its plug-in's `reportCard.text`). */
export const registryCardText: CardDictionaries = (id) =>
  listProtocols().find((p) => p.id === id)?.reportCard?.text;

/**
 * Every headline figure with its raw value and interval (shares as 0–1, as metrics.json has
 * them); the condition and the note in the card's language.
 */
export function rowsCsv({ card, say }: CardView): string {
  const header = [
    'experiment_id',
    'experiment',
    'protocol',
    'dataset',
    'simulated',
    'recorded',
    'judge',
    'measure',
    ...MEASUREMENT_COLUMNS,
    'unit',
    'note',
  ];
  const rows = card.experiments.flatMap((e) =>
    e.rows.map((r) => [
      String(e.experimentId),
      e.name,
      e.protocol,
      e.dataset,
      flag(e.simulated),
      flag(e.recorded),
      r.judge,
      r.measure,
      ...measurementCells(say.phrase(r.condition, e.protocol), r),
      r.unit,
      say.rowNote(r, e.protocol),
    ]),
  );
  return toCsv(header, rows);
}

/** Every gate check (each experiment's measurement against the gate), with the gate's verdict. */
export function gatesCsv({ card, say }: CardView): string {
  const header = [
    'gate',
    'comparator',
    'threshold',
    'ci_must_clear',
    'threshold_source',
    'gate_status',
    'experiment_id',
    'experiment',
    'dataset',
    ...MEASUREMENT_COLUMNS,
    'check_status',
    'reason',
  ];
  const rows = card.gates.flatMap((g) => {
    const d = g.definition;
    const gate = [
      d.id,
      d.comparator,
      String(d.threshold),
      flag(d.ciMustClear),
      d.source ?? 'researcher',
      g.status,
    ];
    if (!g.checks.length) return [[...gate, '', '', '', '', '', '', '', '', g.status, '']];
    return g.checks.map((c) => [
      ...gate,
      String(c.experimentId),
      c.experimentName,
      c.dataset,
      ...measurementCells(say.phrase(c.condition, checkProtocol(card, c)), c),
      c.status,
      c.reason ? say.phrase(c.reason, checkProtocol(card, c)) : '',
    ]);
  });
  return toCsv(header, rows);
}

/** The card in Markdown: the judge, the gates, then the figures, each experiment marked as answered. */
export function cardMarkdown(view: CardView): string {
  const { card, lang, t, say } = view;
  const list = card.experiments.map(
    (e) =>
      `- ${experimentName(e, lang)} — ${say.protocolTitle(e)}, ${t.dataset}: ${e.dataset} (${say.runStatus(e.status)})` +
      (e.note ? ` — ${say.phrase(e.note, e.protocol)}` : ''),
  );
  return [
    `# ${t.title}: ${card.judge.kind}:${card.judge.model}`,
    '',
    ...(list.length ? list : [t.noExperiments]),
    '',
    tableToMarkdown(gatesTable(view)),
    tableToMarkdown(rowsTable(view)),
  ].join('\n');
}

export async function reportCardFiles(
  card: ReportCard,
  lang: FigureLanguage,
  protocols: CardDictionaries = registryCardText,
  /** One file's name: only that file is made (the app's download of one format draws no PNG for a .md). */
  only?: string,
): Promise<Map<string, string | Buffer>> {
  const view = cardView(card, lang, protocols);
  let drawn: { svg: string; width: number } | undefined;
  const figure = () => {
    if (!drawn) {
      const spec = reportCardFigure(view);
      drawn = { svg: renderSvg(spec), width: spec.width };
    }
    return drawn;
  };
  const makers: [string, () => string | Buffer | Promise<Buffer>][] = [
    ['report-card.json', () => JSON.stringify(card, null, 2) + '\n'],
    [
      'report-card.tex',
      () =>
        [tableToLatex(gatesTable(view), 'report-card'), tableToLatex(rowsTable(view), 'report-card')].join(
          '\n',
        ),
    ],
    ['report-card.md', () => cardMarkdown(view)],
    ['report-card.csv', () => rowsCsv(view)],
    ['report-card-gates.csv', () => gatesCsv(view)],
    ['report-card.svg', () => figure().svg],
    ['report-card.png', () => svgToPng(figure().svg, figure().width)],
  ];
  if (only !== undefined && !makers.some(([name]) => name === only))
    throw new Error(`a report card has no file "${only}"`);
  const files = new Map<string, string | Buffer>();
  for (const [name, make] of makers) if (only === undefined || name === only) files.set(name, await make());
  return files;
}

/** Writes the card's files into `outDir` (created; files of the same names replaced). */
export async function writeReportCard(
  card: ReportCard,
  outDir: string,
  lang: FigureLanguage,
): Promise<string[]> {
  const files = await reportCardFiles(card, lang);
  await mkdir(dirname(outDir), { recursive: true });
  const stage = await mkdtemp(join(dirname(outDir), `.${basename(outDir)}-`));
  try {
    for (const [name, content] of files) await writeFile(join(stage, name), content);
    await mkdir(outDir, { recursive: true });
    for (const name of files.keys()) {
      if (existsSync(join(outDir, name))) await rm(join(outDir, name));
      await rename(join(stage, name), join(outDir, name));
    }
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  return [...files.keys()].map((n) => join(outDir, n));
}
