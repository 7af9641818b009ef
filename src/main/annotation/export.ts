// The agreement export (DESIGN.md section 5d) as one zip: agreement.json, the tables as CSV,
// LaTeX and one XLSX workbook, the figures as SVG and PNG, every annotation as CSV, the
// calibration mapping as JSON and CSV, and a manifest. Built in memory: nothing half-written.
// Figures speak the chosen language (as the experiment exports); tables, CSV headers and JSON
// keys stay English, as in every export, so scripts read them the same way.
import { zipSync } from 'fflate';
import { mappingCsvRows } from '../../shared/annotation/calibrate';
import { AGREEMENT_FIGURES_ZH } from '../../shared/annotation/figure-zh';
import { agreementFigures, agreementTables } from '../../shared/annotation/report';
import { localizeFigure, type FigureLanguage } from '../../shared/report/figure-i18n';
import { markSimulatedFigure, markSimulatedTable } from '../../shared/report/simulated';
import { APP_VERSION } from '../base/version';
import { loadExperiment } from '../experiments/load';
import { anySimulated } from '../providers/config';
import { tableToCsv, toCsv } from '../report/csv';
import { renderSvg, svgToPng } from '../report/figures';
import { tableToLatex } from '../report/latex';
import { buildWorkbook } from '../report/xlsx';
import type { Database } from '../store/db';
import type { AnnotationService } from './service';
import { adjudicationsOf, guidelinesOf, labelsOf, setItems } from './store';

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
  const stem = set.name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'annotation-set';
  const files: Record<string, Uint8Array> = {};
  const put = (name: string, content: string | Uint8Array) =>
    (files[`${stem}/${name}`] = typeof content === 'string' ? Buffer.from(content, 'utf8') : content);

  put('agreement.json', JSON.stringify(report, null, 1) + '\n');
  for (const t of tables) {
    put(`tables/${t.id}.csv`, tableToCsv(t));
    put(`tables/${t.id}.tex`, tableToLatex(t, 'judge-lab-annotation'));
  }
  put('tables/agreement.xlsx', new Uint8Array(await buildWorkbook(tables).xlsx.writeBuffer()));
  // A figure that cannot be drawn never costs the tables: it is left out and named in the manifest.
  const figuresFailed: { id: string; format: 'svg' | 'png'; error: string }[] = [];
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
  const items = setItems(db, setId);
  const itemOf = new Map(items.map((i) => [i.itemKey, i]));
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
  // Every guidelines version (labels name theirs), and the adjudicated labels: who, when, why.
  const guidelines = guidelinesOf(db, setId);
  if (guidelines.length)
    put(
      'guidelines.json',
      JSON.stringify(
        guidelines.map((g) => ({ version: g.version, text: g.text, created_at: g.createdAt })),
        null,
        1,
      ) + '\n',
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
  put('calibration_mapping.json', JSON.stringify(report.calibration_mapping, null, 1) + '\n');
  put(
    'calibration_mapping.csv',
    toCsv(
      ['judge', 'category', 'judge_score', 'human_score', 'linear_slope', 'linear_intercept'],
      mappingCsvRows(report.calibration_mapping),
    ),
  );
  put(
    'manifest.json',
    JSON.stringify(
      {
        app_version: APP_VERSION,
        kind: 'annotation-agreement',
        simulated,
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
        figure_language: lang,
        time: new Date().toISOString(),
        files: Object.keys(files)
          .map((f) => f.slice(stem.length + 1))
          .concat('manifest.json'),
        figures_failed: figuresFailed,
      },
      null,
      1,
    ) + '\n',
  );
  const zip = zipSync(files, { level: 6, mtime: new Date() });
  return {
    fileName: `${stem}-agreement.zip`,
    mime: 'application/zip',
    contentBase64: Buffer.from(zip).toString('base64'),
  };
}
