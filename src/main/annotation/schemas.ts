// Parameter schemas of the annotation methods (merged into the facade's table).
import { z } from 'zod';
import { FIGURE_LANGUAGES } from '../../shared/report/figure-i18n';
import { LEAST_SURE_CRITERIA } from '../../shared/annotation/least-sure';

const id = z.number().int().positive();
const set = z.strictObject({ setId: id });
const annotator = z.string().trim().min(1).max(100);
const threshold = z.number().min(-1).max(1).optional();
/** The alternative annotator test's cost–benefit allowance (Calderon et al. use 0.1–0.2). */
const epsilon = z.number().min(0).max(1).optional();
const file = { fileName: z.string().min(1).max(1024), contentBase64: z.string().max(200 * 1024 * 1024) };

/** Which signs of doubt to look for, and how near a cut a score may be (score points). */
const leastSure = {
  criteria: z.array(z.enum(LEAST_SURE_CRITERIA)).min(1).max(LEAST_SURE_CRITERIA.length).optional(),
  margin: z.number().min(0).max(100).optional(),
  cuts: z.array(z.number().finite()).min(1).max(20).optional(),
};

export const annotationSchemas = {
  'annotation.createSet': z.strictObject({
    experimentId: id,
    size: z.number().int().min(1).max(100_000),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    name: z.string().max(300).optional(),
    goldAsAnnotator: annotator.optional(),
    guidelines: z.string().max(200_000).optional(),
    leastSure: z.strictObject(leastSure).optional(),
    task: z.string().min(1).max(100).optional(),
    bandCounts: z
      .strictObject({
        low: z.number().int().min(0).max(100_000).optional(),
        mid: z.number().int().min(0).max(100_000).optional(),
        high: z.number().int().min(0).max(100_000).optional(),
      })
      .optional(),
  }),
  'annotation.leastSure': z.strictObject({ experimentId: id, ...leastSure }),
  'annotation.tasks': z.strictObject({ experimentId: id }),
  'annotation.guidelines': set,
  'annotation.setGuidelines': z.strictObject({ setId: id, text: z.string().min(1).max(200_000) }),
  'annotation.disagreements': set,
  'annotation.adjudicate': z.strictObject({
    setId: id,
    unitUid: z.string().min(1).max(100),
    value: z.union([z.number(), z.string().max(100)]).nullable(),
    adjudicator: annotator,
    note: z.string().max(10_000).nullable().optional(),
  }),
  'annotation.listSets': z.strictObject({ experimentId: id.optional() }),
  'annotation.getSet': set,
  'annotation.deleteSet': set,
  'annotation.annotators': z.undefined(),
  'annotation.createAnnotator': z.strictObject({ name: annotator }),
  'annotation.session': z.strictObject({ setId: id, annotator }),
  'annotation.label': z.strictObject({
    setId: id,
    annotator,
    unitUid: z.string().min(1).max(100),
    value: z
      .union([z.number(), z.string().max(100)])
      .nullable()
      .optional(),
    skip: z.boolean().optional(),
    comment: z.string().max(10_000).nullable().optional(),
  }),
  'annotation.importLabels': z.strictObject({ setId: id, ...file }),
  'annotation.exportPackage': set,
  'annotation.labelTemplate': z.strictObject({ setId: id, annotator: annotator.optional() }),
  'annotation.importPackage': z.strictObject({
    ...file,
    asNewSet: z.boolean().optional(),
    intoSetId: z.number().int().positive().optional(),
    takePackageLabels: z.boolean().optional(),
  }),
  'annotation.agreement': z.strictObject({ setId: id, threshold, epsilon }),
  'annotation.exportZip': z.strictObject({
    setId: id,
    threshold,
    epsilon,
    lang: z.enum(FIGURE_LANGUAGES).optional(),
  }),
  'annotation.mappingTargets': z.strictObject({ setId: id, judge: z.string().min(1).max(200) }),
  'annotation.applyMapping': z.strictObject({
    setId: id,
    judge: z.string().min(1).max(200),
    experimentId: id,
    targetJudge: z.string().min(1).max(200).optional(),
    force: z.boolean().optional(),
  }),
};
