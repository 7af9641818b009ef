// The human-rating methods of the API table (DESIGN.md section 5d): parameters as zod schemas,
// results as types (see define.ts).
import { z } from 'zod';
import { FIGURE_LANGUAGES } from '../report/figure-i18n';
import { LEAST_SURE_CRITERIA, type LeastSureSelection } from '../annotation/least-sure';
import type { RatingValue } from '../annotation/types';
import type {
  AgreementReport,
  AnnotationFile,
  AnnotationSession,
  AnnotationSetSummary,
  AnnotatorProgress,
  AppliedMapping,
  Disagreement,
  GuidelinesVersion,
  MappingTargets,
  PackageImport,
} from '../annotation/api-types';
import { returns, type Agree, type AssertTrue, type MethodEntry } from './define';
import { seedSchema } from '../random';

const id = z.number().int().positive();
const set = z.strictObject({ setId: id });
const annotator = z.string().trim().min(1).max(100);
const threshold = z.number().min(-1).max(1).optional();
/** The alternative annotator test's cost–benefit allowance (Calderon et al. use 0.1–0.2). */
const epsilon = z.number().min(0).max(1).optional();
const file = { fileName: z.string().min(1).max(1024), contentBase64: z.string().max(200 * 1024 * 1024) };
const value = z.union([z.number(), z.string().max(100)]);

/** Which signs of doubt to look for, and how near a cut a score may be (score points). */
const leastSure = {
  criteria: z.array(z.enum(LEAST_SURE_CRITERIA)).min(1).max(LEAST_SURE_CRITERIA.length).optional(),
  margin: z.number().min(0).max(100).optional(),
  cuts: z.array(z.number().finite()).min(1).max(20).optional(),
};
const leastSureOptions = z.strictObject(leastSure);

export type CheckedTypes = AssertTrue<Agree<z.output<typeof value>, RatingValue>>;

export const annotationMethods = {
  /** A stratified sample (judge-score terciles × category, seeded) of an experiment's units. */
  'annotation.createSet': {
    params: z.strictObject({
      experimentId: id,
      size: z.number().int().min(1).max(100_000),
      seed: seedSchema.optional(),
      name: z.string().max(300).optional(),
      goldAsAnnotator: annotator.optional(),
      /** The set's first guidelines version, shown on the rating screen. */
      guidelines: z.string().max(200_000).optional(),
      /**
       * Instead of a stratified sample: the judge's least-sure units (`annotation.leastSure`), the
       * first `size` of them, most doubtful first. Refused when there are none.
       */
      leastSure: leastSureOptions.optional(),
      /** One of the protocol's own rating tasks (`annotation.tasks`); absent: its main units. */
      task: z.string().min(1).max(100).optional(),
      /**
       * Labels per judge-score band (the label budget's Neyman allocation), summing to `size`: each
       * band's count is shared among its categories by size; unjudged units get none.
       */
      bandCounts: z
        .strictObject({
          low: z.number().int().min(0).max(100_000).optional(),
          mid: z.number().int().min(0).max(100_000).optional(),
          high: z.number().int().min(0).max(100_000).optional(),
        })
        .optional(),
    }),
    result: returns<AnnotationSetSummary>(),
  },
  /**
   * The units the judge is least sure about — a score within `margin` points of a cut, the two
   * orders disagreeing, a repeat answering otherwise — each with the criterion and its numbers, most
   * doubtful first; and which criteria this experiment cannot show, with why (issue 36).
   */
  'annotation.leastSure': {
    params: z.strictObject({ experimentId: id, ...leastSure }),
    result: returns<LeastSureSelection>(),
  },
  /**
   * The rating tasks the experiment offers beside its main units (e.g. a translation study's
   * `translation_equivalence` when translations were verified), by id.
   */
  'annotation.tasks': {
    params: z.strictObject({ experimentId: id }),
    result: returns<{ tasks: string[] }>(),
  },
  /** Every version of the set's guidelines, oldest first. */
  'annotation.guidelines': { params: set, result: returns<GuidelinesVersion[]>() },
  /** Stores the text as the next guidelines version (the current text again makes none). */
  'annotation.setGuidelines': {
    params: z.strictObject({ setId: id, text: z.string().min(1).max(200_000) }),
    result: returns<GuidelinesVersion>(),
  },
  /** Items whose annotators differ (and items already adjudicated), labels side by side. */
  'annotation.disagreements': { params: set, result: returns<Disagreement[]>() },
  /** Stores an adjudicated label (who, when; null withdraws it): the item's human reference from then on. */
  'annotation.adjudicate': {
    params: z.strictObject({
      setId: id,
      unitUid: z.string().min(1).max(100),
      value: value.nullable(),
      adjudicator: annotator,
      note: z.string().max(10_000).nullable().optional(),
    }),
    result: returns<Disagreement[]>(),
  },
  'annotation.listSets': {
    params: z.strictObject({ experimentId: id.optional() }),
    result: returns<AnnotationSetSummary[]>(),
  },
  'annotation.getSet': { params: set, result: returns<AnnotationSetSummary>() },
  'annotation.deleteSet': { params: set, result: returns<{ deleted: boolean }>() },
  'annotation.annotators': {
    params: z.undefined(),
    result: returns<{ name: string; createdAt: string }[]>(),
  },
  'annotation.createAnnotator': {
    params: z.strictObject({ name: annotator }),
    result: returns<{ name: string; createdAt: string }[]>(),
  },
  /** The set blinded, in this annotator's order, with only this annotator's labels; where to resume. */
  'annotation.session': {
    params: z.strictObject({ setId: id, annotator }),
    result: returns<AnnotationSession>(),
  },
  /** One label, skip or comment: stored the moment it is given (one call = one committed row). */
  'annotation.label': {
    params: z.strictObject({
      setId: id,
      annotator,
      unitUid: z.string().min(1).max(100),
      value: value.nullable().optional(),
      skip: z.boolean().optional(),
      comment: z.string().max(10_000).nullable().optional(),
    }),
    result: returns<AnnotatorProgress>(),
  },
  /** Human labels from CSV/JSONL (item_id, annotator, score | preference | label): all or nothing. */
  'annotation.importLabels': {
    params: z.strictObject({ setId: id, ...file }),
    result: returns<{ imported: number; annotators: string[] }>(),
  },
  'annotation.exportPackage': { params: set, result: returns<AnnotationFile>() },
  /** The labels CSV to fill for importLabels: unit ids, blinded text, an empty value column. */
  'annotation.labelTemplate': {
    params: z.strictObject({ setId: id, annotator: annotator.optional() }),
    result: returns<AnnotationFile>(),
  },
  /**
   * Opens a package as a new set, or merges its labels into the set it came from. A package of a
   * set this store does not know, while it holds other sets, answers `foreign-set` (nothing is
   * imported): ask, then send `asNewSet: true` or `intoSetId` (units must match). A set's label is
   * replaced only by a later package label; the others come back as `conflicts`, unless
   * `takePackageLabels` takes the package's anyway.
   */
  'annotation.importPackage': {
    params: z.strictObject({
      ...file,
      asNewSet: z.boolean().optional(),
      intoSetId: z.number().int().positive().optional(),
      takePackageLabels: z.boolean().optional(),
    }),
    result: returns<PackageImport>(),
  },
  /** epsilon: the alternative annotator test's ε (default 0.2, the authors' value for experts). */
  'annotation.agreement': {
    params: z.strictObject({ setId: id, threshold, epsilon }),
    result: returns<AgreementReport>(),
  },
  /**
   * agreement.json, tables (CSV/XLSX/LaTeX), figures (SVG/PNG), annotations.csv, mapping, manifest:
   * one zip. lang: the figures' language (default English; the app sends its export language).
   * Tables stay English as in every export.
   */
  'annotation.exportZip': {
    params: z.strictObject({ setId: id, threshold, epsilon, lang: z.enum(FIGURE_LANGUAGES).optional() }),
    result: returns<AnnotationFile>(),
  },
  /** The experiments a judge's mapping can be applied to, the others with why not, and its held-out ρ. */
  'annotation.mappingTargets': {
    params: z.strictObject({ setId: id, judge: z.string().min(1).max(200) }),
    result: returns<MappingTargets>(),
  },
  /**
   * The set's calibration mapping applied to another experiment's scores of the same judge.
   * Refused when its held-out ρ is below MAPPING_RHO_FLOOR (or undefined) unless `force`.
   */
  'annotation.applyMapping': {
    params: z.strictObject({
      setId: id,
      judge: z.string().min(1).max(200),
      experimentId: id,
      targetJudge: z.string().min(1).max(200).optional(),
      force: z.boolean().optional(),
    }),
    result: returns<AppliedMapping>(),
  },
} satisfies Record<string, MethodEntry>;
