import { z } from 'zod';
import type { MethodName } from '../../shared/api';
import { annotationSchemas } from '../annotation/schemas';
import { gateSettingsSchema } from '../../shared/report-card/gates';
import { INPUT_LIMITS } from '../base/input-limits';
import { BUNDLE_READS } from '../../shared/paper/bundle';

const id = z.number().int().positive();
const experiment = z.strictObject({ experimentId: id });
const text = z.string().max(1_000_000);
const compareSide = z.strictObject({ experimentId: id, judge: z.string().min(1).max(200).optional() });
/** The language of exported figures' words. */
const lang = z.enum(['en', 'zh']).optional();

/**
 * Every method's parameters, validated in the core so no door can pass bad input.
 * Strict objects: an unknown key is a caller bug worth hearing about.
 */
export const paramSchemas = {
  'app.info': z.undefined(),
  'datasets.list': z.undefined(),
  'datasets.import': z.strictObject({
    fileName: z.string().min(1).max(1024),
    contentBase64: z.string().max(700 * 1024 * 1024),
    name: z.string().trim().min(1).max(200).optional(),
    columns: z.record(z.string().min(1).max(100), z.string().min(1).max(1000)).optional(),
  }),
  // As the command line gives them: the name untrimmed, the columns already checked by --column.
  'datasets.importFile': z.strictObject({
    path: z.string().max(100_000),
    name: z.string().max(100_000).optional(),
    columns: z.record(z.string(), z.string()).optional(),
  }),
  'datasets.loadSample': z.strictObject({ sampleId: z.string().min(1) }),
  'datasets.delete': z.strictObject({ datasetId: id }),
  'datasets.rename': z.strictObject({ datasetId: id, name: z.string().max(1000) }),
  'items.list': z.strictObject({
    datasetId: id,
    subset: z.string().max(200).optional(),
    search: z.string().max(1000).optional(),
  }),
  'items.get': z.strictObject({ itemId: id }),
  // The config itself is validated by the experiment config schema, which names every key.
  'experiments.estimate': z.strictObject({
    config: z.unknown(),
    /** Effects typed for the power plan's inverse, by comparison id (issue 24). */
    effects: z.record(z.string().min(1).max(200), z.number().finite()).optional(),
  }),
  'experiments.create': z.strictObject({ config: z.unknown() }),
  'experiments.createForRun': z.strictObject({ config: z.unknown() }),
  // A name as the person typed it: no trimming, so the lookup is exact (an empty one is not found).
  'experiments.find': z.strictObject({ ref: z.string().max(100_000) }),
  'experiments.list': z.undefined(),
  'experiments.get': experiment,
  'experiments.delete': experiment,
  'experiments.duplicate': z.strictObject({ experimentId: id, name: z.string().min(1).max(200).optional() }),
  'experiments.editSetup': z.strictObject({ experimentId: id, config: z.unknown() }),
  'experiments.cliConfig': experiment,
  'experiments.start': experiment,
  'experiments.pause': experiment,
  'experiments.resume': experiment,
  'experiments.cancel': experiment,
  'experiments.resumeJudge': z.strictObject({ experimentId: id, judge: z.string().min(1) }),
  'experiments.retryFailed': experiment,
  'experiments.runToEnd': z.strictObject({
    experimentId: id,
    resumeJudges: z.array(z.string().min(1).max(200)).max(100).optional(),
  }),
  'experiments.interrupt': experiment,
  'experiments.progress': experiment,
  'experiments.results': z.strictObject({
    experimentId: id,
    excludeFlagged: z.boolean().optional(),
    verifiedOnly: z.boolean().optional(),
  }),
  'experiments.verdictLinks': experiment,
  'experiments.verdicts': z.strictObject({
    experimentId: id,
    excludeFlagged: z.boolean().optional(),
    verifiedOnly: z.boolean().optional(),
  }),
  'experiments.flagged': experiment,
  'experiments.failures': experiment,
  'experiments.export': z.strictObject({ experimentId: id, outDir: z.string().min(1).optional(), lang }),
  'experiments.previewPrompts': z.strictObject({ config: z.unknown(), itemId: id.optional() }),
  // The query is checked again by the protocol's own schema for the view.
  'experiments.protocolView': z.strictObject({
    experimentId: id,
    view: z.string().min(1).max(100),
    query: z.record(z.string(), z.unknown()).optional(),
  }),
  // The fields are checked again by the protocol's own schema for the edit; every text the
  // protocol may take is at most `text` long.
  'experiments.protocolEdit': z.strictObject({
    experimentId: id,
    edit: z.string().min(1).max(100),
    fields: z.record(z.string(), z.union([text, z.number(), z.boolean(), z.null()])),
  }),
  'experiments.exportZip': z.strictObject({ experimentId: id, lang }),
  'experiments.methods': z.strictObject({ experimentId: id, lang }),
  'experiments.preregistration': z.strictObject({ experimentId: id, lang }),
  // The plan's fields are checked by its own schema when locked (errors name plan.<field>).
  'experiments.preregister': z.strictObject({
    experimentId: id,
    plan: z.record(z.string(), z.unknown()),
    reason: z.string().max(20_000).optional(),
  }),
  'experiments.exportBundle': z.strictObject({ experimentId: id }),
  // Base64 of a bundle up to INPUT_LIMITS.bundle.fileBytes (a larger one is refused by name in paper/bundle.ts).
  'bundles.verify': z.strictObject({
    fileName: z.string().min(1).max(1000),
    contentBase64: z.string().max(Math.ceil(INPUT_LIMITS.bundle.fileBytes / 3) * 4 + 4),
  }),
  'bundles.open': z.strictObject({
    fileName: z.string().min(1).max(1000),
    contentBase64: z.string().max(Math.ceil(INPUT_LIMITS.bundle.fileBytes / 3) * 4 + 4),
  }),
  // The read's own parameters are checked by its method's schema (paper/bundle-session.ts).
  'bundles.read': z.strictObject({
    session: z.string().min(1).max(100),
    method: z.enum(BUNDLE_READS),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
  'bundles.close': z.strictObject({ session: z.string().min(1).max(100) }),
  'experiments.exportFile': z.strictObject({
    experimentId: id,
    target: z.union([
      z.strictObject({ table: z.string().min(1), format: z.enum(['csv', 'xlsx', 'tex']) }),
      z.strictObject({ figure: z.string().min(1), format: z.enum(['svg', 'png']) }),
    ]),
    sensitivity: z.boolean().optional(),
    lang,
  }),
  'experiments.compare': z.strictObject({ a: compareSide, b: compareSide }),
  'experiments.compareFile': z.strictObject({
    a: compareSide,
    b: compareSide,
    format: z.enum(['csv', 'xlsx', 'tex']),
  }),
  'experiments.recordedTemplate': z.strictObject({ config: z.unknown(), format: z.enum(['jsonl', 'csv']) }),
  'experiments.exportAnswers': z.strictObject({ experimentId: id, format: z.enum(['jsonl', 'csv']) }),
  'protocols.defaults': z.strictObject({ protocol: z.string().min(1).max(100) }),
  'keys.status': z.undefined(),
  'keys.set': z.strictObject({
    name: z.string().min(1).max(200),
    value: z.string().min(1).max(10_000),
    baseURL: z.string().max(2_000).optional(),
  }),
  'keys.delete': z.strictObject({ name: z.string().min(1).max(200) }),
  'providers.keyStatus': z.strictObject({ providers: z.record(z.string(), z.unknown()) }),
  'providers.testConnection': z.strictObject({
    provider: z.unknown(),
    name: z.string().min(1),
    model: z.string().min(1).optional(),
  }),
  'prices.get': z.strictObject({ models: z.array(z.string().min(1).max(200)).max(1000) }),
  ...annotationSchemas,
  'judges.list': z.undefined(),
  'judges.reportCard': z.strictObject({
    model: z.string().min(1).max(500),
    gates: gateSettingsSchema.optional(),
  }),
  'judges.reportCardFile': z.strictObject({
    model: z.string().min(1).max(500),
    format: z.enum(['json', 'tex', 'md', 'csv', 'gates-csv', 'svg', 'png']),
    lang,
  }),
  'judges.gates': z.undefined(),
  'judges.setGates': z.strictObject({ settings: gateSettingsSchema }),
} satisfies Record<MethodName, z.ZodType>;
