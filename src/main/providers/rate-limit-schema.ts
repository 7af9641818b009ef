// The config schema of a rate limit. Apart from input-limits.ts so that what only needs the
// limits (the CLI's command table, the importers) does not load zod (issue 27: startup).
import { z } from 'zod';
import { INPUT_LIMITS } from '../base/input-limits';
import { groupedInt } from '../../shared/report/format';

/** A rate limit (`rpm` or `tpm`) within its documented range; the message names the range. */
export function rateLimitSchema(kind: 'rpm' | 'tpm') {
  const { min, max } = INPUT_LIMITS[kind];
  const range = `must be between ${groupedInt(min)} and ${groupedInt(max)} (${kind === 'rpm' ? 'requests' : 'tokens'} per minute)`;
  return z.number().min(min, range).max(max, range);
}
