// Judge-LS's hand-edited variants in a study bundle (`edits.json`, plugin.ts `bundleEdits`): the
// replay would otherwise store the transformer's recorded text where a person had corrected it,
// and judge that, so the audit, its sensitivity analysis and every verdict on the item differ.
import { z } from 'zod';
import { AppError } from '../host';
import type { Database } from '../host';
import type { ExperimentView } from '../plugin';
import { listVariants, variantsEditedSince } from './variants-store';
import { targetLanguageSchema } from './config';
import { applyVariantEdit } from './views';

const EditSchema = z.strictObject({
  source_id: z.string(),
  language: targetLanguageSchema,
  instruction: z.string(),
  output_1: z.string(),
  output_2: z.string(),
});
type BundleEdit = z.infer<typeof EditSchema>;

export function listBundleEdits(db: Database, exp: ExperimentView, since?: string): BundleEdit[] {
  const sourceOf = new Map(exp.items.map((i) => [i.id, i.sourceId]));
  const after = since === undefined ? null : variantsEditedSince(db, exp.id, since);
  return listVariants(db, exp.id)
    .filter((v) => v.manual && sourceOf.has(v.itemId) && (!after || after.has(`${v.itemId}:${v.language}`)))
    .map((v) => ({
      source_id: sourceOf.get(v.itemId)!,
      language: v.language,
      instruction: v.instruction,
      output_1: v.output1,
      output_2: v.output2,
    }))
    .sort((a, b) => a.source_id.localeCompare(b.source_id) || a.language.localeCompare(b.language));
}

export function applyBundleEdits(db: Database, exp: ExperimentView, edits: unknown[], where: string): void {
  const itemOf = new Map(exp.items.map((i) => [i.sourceId, i.id]));
  edits.forEach((raw, i) => {
    const parsed = EditSchema.safeParse(raw);
    const refuse = (field: string, message: string) => {
      throw new AppError('invalid_input', `${where}: entry ${i + 1}: ${field}: ${message}`, [
        { file: where, field: `[${i}].${field}`, message },
      ]);
    };
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refuse(issue.path.join('.') || '(entry)', issue.message);
    }
    const e = parsed.data;
    const itemId = itemOf.get(e.source_id);
    if (itemId === undefined)
      return refuse('source_id', `item "${e.source_id}" is not part of the experiment`);
    applyVariantEdit(db, exp, {
      itemId,
      language: e.language,
      instruction: e.instruction,
      output1: e.output_1,
      output2: e.output_2,
    });
  });
}
