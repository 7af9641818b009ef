// Methods files of a stored experiment (issue 24): methods.md, methods.tex and checklist.md, from
// the same metrics and tables the export writes. The export folder and `experiments.methods`
// both come here.
import type { MethodsFiles, MethodsLang } from '../../shared/paper/methods';
import type { PaperInputs } from '../../shared/paper/preregistration';
import type { Table } from '../../shared/report/table';
import type { LoadedExperiment } from '../experiments/load';
import type { MetricsContext } from '../protocols/plugin';
import type { Database } from '../store/db';
import { methodsFacts } from './methods-facts';
import { methodsChecklist, methodsLatex, methodsMarkdown } from './methods-render';
import { methodsDocument } from './methods-text';

/** Human labels stored for the experiment; null when its protocol offers nothing to rate. */
function humanLabels(db: Database, exp: LoadedExperiment): number | null {
  if (!exp.protocol.annotation) return null;
  return db
    .prepare(
      `SELECT COUNT(*) FROM annotation_labels l JOIN annotation_sets s ON s.id = l.set_id
         WHERE s.experiment_id = ? AND l.skipped = 0 AND l.value_json IS NOT NULL`,
    )
    .pluck()
    .get(exp.row.id) as number;
}

export function methodsFiles(
  db: Database,
  exp: LoadedExperiment,
  ctx: MetricsContext,
  metrics: unknown,
  tables: readonly Table[],
  lang: MethodsLang,
  paper: PaperInputs,
): MethodsFiles {
  const facts = methodsFacts(db, exp, ctx);
  const own = exp.protocol.methods?.({ exp: exp.view, metrics, lang }) ?? [];
  const doc = methodsDocument(
    facts,
    own,
    tables,
    lang,
    exp.protocol.flagged !== undefined,
    paper.preregistration,
  );
  return {
    markdown: methodsMarkdown(doc),
    latex: methodsLatex(doc),
    checklist: methodsChecklist(facts, lang, humanLabels(db, exp), paper),
  };
}
