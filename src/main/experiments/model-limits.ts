// Per-model rate limits, in their own module: protocol plug-ins use them in their config
// schemas, and importing them from config.ts would be an import cycle (config → registry → plug-in).
import { z } from 'zod';
import { rateLimitSchema } from '../core/rate-limit-schema';

/** rpm/tpm/concurrency on a provider, or on one model entry (which overrides its provider's). */
export const modelLimits = {
  rpm: rateLimitSchema('rpm').optional(),
  tpm: rateLimitSchema('tpm').optional(),
  concurrency: z.number().int().positive().max(1024).optional(),
};
