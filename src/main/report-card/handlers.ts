// The report card methods of the API table (src/shared/api/methods.ts).
import type { HandlersOf } from '../../shared/api';
import type { judgeMethods } from '../../shared/api/methods';
import { resolveGates } from '../../shared/report-card/gates';
import { judgeKey, type GateSettings } from '../../shared/report-card/types';
import type { AnnotationService } from '../annotation/service';
import { AppError } from '../base/errors';
import type { Database } from '../store/db';
import { buildReportCard, listJudges, resolveJudge } from './card';
import { reportCardFiles } from './export';
import { checkGateSettings, declaredGates, loadStoredGates, saveStoredGates } from './gates-file';

const MIME = {
  json: 'application/json',
  tex: 'application/x-tex',
  md: 'text/markdown',
  csv: 'text/csv',
  'gates-csv': 'text/csv',
  svg: 'image/svg+xml',
  png: 'image/png',
};
/** The file of each format among the card's files. */
const FILE = {
  json: 'report-card.json',
  tex: 'report-card.tex',
  md: 'report-card.md',
  csv: 'report-card.csv',
  'gates-csv': 'report-card-gates.csv',
  svg: 'report-card.svg',
  png: 'report-card.png',
};

export function reportCardHandlers(
  db: Database,
  dataDir: string,
  annotation: AnnotationService,
): HandlersOf<keyof typeof judgeMethods> {
  const gatesView = (settings: GateSettings) => ({
    settings,
    gates: resolveGates(settings, declaredGates()),
  });
  const card = (model: string, gates?: GateSettings) =>
    buildReportCard(
      db,
      annotation,
      resolveJudge(db, model),
      // Which gate ids exist is known from the registered protocols, not the call's schema.
      gates ? checkGateSettings(gates, 'gates') : loadStoredGates(dataDir),
    );
  return {
    'judges.list': () => listJudges(db),
    'judges.reportCard': ({ model, gates }) => card(model, gates),
    'judges.reportCardFile': async ({ model, format, lang }) => {
      const c = card(model);
      const files = await reportCardFiles(c, lang ?? 'en', undefined, FILE[format]);
      const content = files.get(FILE[format])!;
      const stem = judgeKey(c.judge).replace(/[^A-Za-z0-9._-]+/g, '-');
      return {
        fileName: FILE[format].replace('report-card', `report-card-${stem}`),
        mime: MIME[format],
        contentBase64: Buffer.from(content).toString('base64'),
      };
    },
    'judges.gates': () => gatesView(loadStoredGates(dataDir)),
    'judges.setGates': ({ settings }) => {
      if (db.readonly)
        throw new AppError('conflict', 'The data store is open read-only: gates cannot be saved.');
      saveStoredGates(dataDir, settings);
      return gatesView(loadStoredGates(dataDir));
    },
  };
}
