// Human ratings behind the Core API (DESIGN.md section 5d), one method per question a caller asks
// (handlers, the report card, the agreement export). Each concern lives in its own module:
// what an experiment offers to rate (ratings.ts), sets and their sampling (sets.ts), people rating
// (labelling.ts), guidelines and adjudication (review.ts), package files (package-exchange.ts),
// the agreement report (agreement.ts) and calibration mappings (mappings.ts).
import type { AgreementReport } from '../../shared/annotation/agreement';
import type {
  AnnotationSession,
  AnnotationSetSummary,
  AnnotatorProgress,
  AppliedMapping,
  Disagreement,
  GuidelinesVersion,
  MappingTargets,
  PackageImport,
} from '../../shared/annotation/api-types';
import type { RatingValue } from '../../shared/annotation/types';
import type { Database } from '../store/db';
import { agreementInput, agreementOf, humanReferences, type AgreementInput } from './agreement';
import {
  annotatorSession,
  giveLabel,
  importLabelFile,
  labelTemplateFile,
  type GivenLabel,
} from './labelling';
import { applyMappingTo, mappingTargets, type MappingRequest } from './mappings';
import { importPackageFile, packageFile, type PackageChoice } from './package-exchange';
import { adjudicateItem, disagreementsOf, guidelineVersions, newGuidelines } from './review';
import { annotatorOrder, createSet, setRow, setSummary, type NewSet } from './sets';
import { annotatorId, deleteSet, ensureAnnotator, listAnnotators, listSets, type SetRow } from './store';
import { annotatorName } from './values';

type FileAnswer = { fileName: string; mime: string; contentBase64: string };

export class AnnotationService {
  constructor(private readonly db: Database) {}

  summary(set: SetRow): AnnotationSetSummary {
    return setSummary(this.db, set);
  }

  list(experimentId?: number): AnnotationSetSummary[] {
    return listSets(this.db, experimentId).map((s) => this.summary(s));
  }

  get(setId: number): AnnotationSetSummary {
    return this.summary(setRow(this.db, setId));
  }

  delete(setId: number): { deleted: boolean } {
    return { deleted: deleteSet(this.db, setId) };
  }

  annotators(): { name: string; createdAt: string }[] {
    return listAnnotators(this.db).map((a) => ({ name: a.name, createdAt: a.createdAt }));
  }

  createAnnotator(name: string): { name: string; createdAt: string }[] {
    ensureAnnotator(this.db, annotatorName(name));
    return this.annotators();
  }

  annotatorExists(name: string): boolean {
    return annotatorId(this.db, name) !== null;
  }

  /** See `createSet`. */
  create(p: NewSet): AnnotationSetSummary {
    return createSet(this.db, p);
  }

  order(set: SetRow, annotator: string): string[] {
    return annotatorOrder(this.db, set, annotator);
  }

  session(setId: number, annotator: string): AnnotationSession {
    return annotatorSession(this.db, setId, annotator);
  }

  label(p: GivenLabel): AnnotatorProgress {
    return giveLabel(this.db, p);
  }

  importLabels(p: { setId: number; fileName: string; bytes: Buffer }): {
    imported: number;
    annotators: string[];
  } {
    return importLabelFile(this.db, p);
  }

  labelTemplate(setId: number, annotator?: string): FileAnswer {
    return labelTemplateFile(this.db, setId, annotator);
  }

  guidelines(setId: number): GuidelinesVersion[] {
    return guidelineVersions(this.db, setId);
  }

  setGuidelines(setId: number, raw: string): GuidelinesVersion {
    return newGuidelines(this.db, setId, raw);
  }

  disagreements(setId: number): Disagreement[] {
    return disagreementsOf(this.db, setId);
  }

  adjudicate(p: {
    setId: number;
    unitUid: string;
    value: RatingValue | null;
    adjudicator: string;
    note?: string | null;
  }): Disagreement[] {
    return adjudicateItem(this.db, p);
  }

  exportPackage(setId: number): FileAnswer {
    return packageFile(this.db, setId);
  }

  /** See `importPackageFile`. */
  importPackage(fileName: string, bytes: Buffer, choice: PackageChoice = {}): PackageImport {
    return importPackageFile(this.db, fileName, bytes, choice);
  }

  agreementInput(setId: number): AgreementInput {
    return agreementInput(this.db, setId);
  }

  agreement(setId: number, threshold?: number, altTestEpsilon?: number): AgreementReport {
    return agreementOf(this.db, setId, threshold, altTestEpsilon);
  }

  references(setId: number): Map<string, RatingValue> {
    return humanReferences(this.db, setId);
  }

  mappingTargets(setId: number, judge: string): MappingTargets {
    return mappingTargets(this.db, setId, judge);
  }

  applyMapping(p: MappingRequest): AppliedMapping {
    return applyMappingTo(this.db, p);
  }
}
