// The agreement export (DESIGN.md section 5d) as one zip: agreement.json, the tables as CSV,
// LaTeX and one XLSX workbook, the figures as SVG and PNG, every annotation as CSV, the
// calibration mapping as JSON and CSV, and a manifest. Built in memory: nothing half-written.
// Figures speak the chosen language (as the experiment exports); tables, CSV headers and JSON
// keys stay English, as in every export, so scripts read them the same way.
import { zipSync } from 'fflate';
import type { AgreementReport } from '../../shared/annotation/agreement';
import type { AnnotationSetSummary } from '../../shared/annotation/api-types';
import { mappingCsvRows } from '../../shared/annotation/calibrate';
import { AGREEMENT_FIGURES_ZH } from '../../shared/annotation/figure-zh';
import { agreementFigures, agreementTables } from '../../shared/annotation/report';
import { localizeFigure, type FigureLanguage } from '../../shared/report/figure-i18n';
import type { FigureSpec } from '../../shared/report/chart-kit';
import { markSimulatedFigure, markSimulatedTable } from '../../shared/report/simulated';
import type { Table } from '../../shared/report/table';
import { APP_VERSION } from '../base/version';
import { loadExperiment } from '../experiments/load';
import { anySimulated } from '../providers/config';
import { tableToCsv, toCsv } from '../report/csv';
import { renderSvg, svgToPng } from '../report/figures';
import { tableToLatex } from '../report/latex';
import { buildWorkbook } from '../report/xlsx';
import type { Database } from '../store/db';
import type { AnnotationService } from './service';
import { adjudicationsOf, guidelinesOf, labelsOf, setItems, type SetItemRow } from './store';
import { fileStem } from './values';

/** Adds one file under the zip's folder. */
type Put = (name: string, content: string | Uint8Array) => void;
type FigureFailure = { id: string; format: 'svg' | 'png'; error: string };

export async function agreementZip(
  db: Database,
  service: AnnotationService,
  setId: number,
  threshold?: number,
  lang: FigureLanguage = 'en',
  epsilon?: number,
): Promise<{ fileName: string; mime: string; contentBase64: string }> {
  const set = service.get(setId);
  const report = service.agreement(setId, threshold, epsilon);
  // Judge scores from the keyless demo are marked as every export of that experiment is.
  const simulated = set.experimentId !== null && anySimulated(loadExperiment(db, set.experimentId).providers);
  const tables = agreementTables(report).map((t) => (simulated ? markSimulatedTable(t) : t));
  const figures = agreementFigures(report).map((f) =>
    localizeFigure(simulated ? markSimulatedFigure(f) : f, lang, [AGREEMENT_FIGURES_ZH]),
  );
  const stem = fileStem(set.name);
  const files: Record<string, Uint8Array> = {};
  const put: Put = (name, content) =>
    (files[`${stem}/${name}`] = typeof content === 'string' ? Buffer.from(content, 'utf8') : content);

  put('agreement.json', json(report));
  await putTables(put, tables);
  const figuresFailed = await putFigures(put, figures);
  putLabels(put, db, setId);
  putMapping(put, report);
  const names = Object.keys(files)
    .map((f) => f.slice(stem.length + 1))
    .concat('manifest.json');
  put('manifest.json', json(manifest(set, report, { simulated, lang, names, figuresFailed })));
  const zip = zipSync(files, { level: 6, mtime: new Date() });
  return {
    fileName: `${stem}-agreement.zip`,
    mime: 'application/zip',
    contentBase64: Buffer.from(zip).toString('base64'),
  };
}

const json = (value: unknown): string => JSON.stringify(value, null, 1) + '\n';

async function putTables(put: Put, tables: readonly Table[]): Promise<void> {
  for (const t of tables) {
    put(`tables/${t.id}.csv`, tableToCsv(t));
    put(`tables/${t.id}.tex`, tableToLatex(t, 'judge-lab-annotation'));
  }
  put('tables/agreement.xlsx', new Uint8Array(await buildWorkbook(tables).xlsx.writeBuffer()));
}

/** A figure that cannot be drawn never costs the tables: it is left out and named in the manifest. */
async function putFigures(put: Put, figures: readonly FigureSpec[]): Promise<FigureFailure[]> {
  const figuresFailed: FigureFailure[] = [];
  const failed = (id: string, format: 'svg' | 'png', err: unknown) =>
    figuresFailed.push({ id, format, error: err instanceof Error ? err.message : String(err) });
  for (const f of figures) {
    let svg: string;
    try {
      svg = renderSvg(f);
    } catch (err) {
      failed(f.id, 'svg', err);
      continue;
    }
    put(`figures/${f.id}.svg`, svg);
    try {
      put(`figures/${f.id}.png`, await svgToPng(svg, f.width));
    } catch (err) {
      failed(f.id, 'png', err);
    }
  }
  return figuresFailed;
}

/** Every annotation, every guidelines version (labels name theirs), and the adjudicated labels: who, when, why. */
function putLabels(put: Put, db: Database, setId: number): void {
  const itemOf = new Map<string, SetItemRow>(setItems(db, setId).map((i) => [i.itemKey, i]));
  put(
    'annotations.csv',
    toCsv(
      [
        'item_id',
        'unit',
        'category',
        'annotator',
        'value',
        'skipped',
        'comment',
        'created_at',
        'updated_at',
        'guidelines_version',
      ],
      labelsOf(db, setId).map((l) => [
        l.itemKey,
        itemOf.get(l.itemKey)?.unitUid ?? '',
        itemOf.get(l.itemKey)?.category ?? '',
        l.annotator,
        l.value === null ? '' : String(l.value),
        l.skipped ? '1' : '0',
        l.comment ?? '',
        l.createdAt,
        l.updatedAt,
        l.guidelinesVersion === null ? '' : String(l.guidelinesVersion),
      ]),
    ),
  );
  const guidelines = guidelinesOf(db, setId);
  if (guidelines.length)
    put(
      'guidelines.json',
      json(guidelines.map((g) => ({ version: g.version, text: g.text, created_at: g.createdAt }))),
    );
  const adjudications = adjudicationsOf(db, setId);
  if (adjudications.length)
    put(
      'adjudications.csv',
      toCsv(
        ['item_id', 'unit', 'value', 'adjudicator', 'note', 'created_at'],
        adjudications.map((a) => [
          a.itemKey,
          itemOf.get(a.itemKey)?.unitUid ?? '',
          String(a.value),
          a.adjudicator,
          a.note ?? '',
          a.createdAt,
        ]),
      ),
    );
}

function putMapping(put: Put, report: AgreementReport): void {
  put('calibration_mapping.json', json(report.calibration_mapping));
  put(
    'calibration_mapping.csv',
    toCsv(
      ['judge', 'category', 'judge_score', 'human_score', 'linear_slope', 'linear_intercept'],
      mappingCsvRows(report.calibration_mapping),
    ),
  );
}

function manifest(
  set: AnnotationSetSummary,
  report: AgreementReport,
  o: { simulated: boolean; lang: FigureLanguage; names: string[]; figuresFailed: FigureFailure[] },
) {
  return {
    app_version: APP_VERSION,
    kind: 'annotation-agreement',
    simulated: o.simulated,
    set: {
      uid: set.uid,
      name: set.name,
      experiment_id: set.experimentId,
      seed: set.seed,
      scale: set.scale,
    },
    items: set.itemCount,
    guidelines_version: set.guidelinesVersion,
    adjudicated_items: report.adjudicated_items,
    strata: set.strata,
    annotators: set.progress,
    threshold: report.threshold,
    figure_language: o.lang,
    time: new Date().toISOString(),
    files: o.names,
    figures_failed: o.figuresFailed,
  };
}
