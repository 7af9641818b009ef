import { z } from 'zod';
import type { MethodName } from '../../shared/api';

const id = z.number().int().positive();

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
  }),
  'datasets.loadSample': z.strictObject({ sampleId: z.string().min(1) }),
  'datasets.delete': z.strictObject({ datasetId: id }),
  'items.list': z.strictObject({
    datasetId: id,
    subset: z.string().max(200).optional(),
    search: z.string().max(1000).optional(),
  }),
  'items.get': z.strictObject({ itemId: id }),
} satisfies Record<MethodName, z.ZodType>;
