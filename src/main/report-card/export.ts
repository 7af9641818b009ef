// The report card's files: report-card.json (the card as computed), report-card.tex (its two
// tables, PDF-ready), report-card.svg and report-card.png (the one-page card). The folder is
// written through a staging folder beside it and renamed into place: never half-written.
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { renderSvg, svgToPng } from '../report/figures';
import { tableToLatex } from '../report/latex';
import type { FigureLanguage } from '../../shared/report/figure-i18n';
import { reportCardFigure } from '../../shared/report-card/figure';
import { gatesTable, rowsTable } from '../../shared/report-card/tables';
import type { ReportCard } from '../../shared/report-card/types';

export const REPORT_CARD_FILES = [
  'report-card.json',
  'report-card.tex',
  'report-card.svg',
  'report-card.png',
];

export async function reportCardFiles(
  card: ReportCard,
  lang: FigureLanguage,
): Promise<Map<string, string | Buffer>> {
  const figure = reportCardFigure(card, lang);
  const svg = renderSvg(figure);
  const png = await svgToPng(svg, figure.width);
  const tex = [
    tableToLatex(gatesTable(card, lang), 'report-card'),
    tableToLatex(rowsTable(card, lang), 'report-card'),
  ].join('\n');
  return new Map<string, string | Buffer>([
    ['report-card.json', JSON.stringify(card, null, 2) + '\n'],
    ['report-card.tex', tex],
    ['report-card.svg', svg],
    ['report-card.png', png],
  ]);
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
