// A core refusal's stable words (issue 24): besides its English `message` (what the CLI prints and
// logs keep), a refusal may carry a key from this list and its params, so a page in another
// language says the same thing in its own words (the renderer's `refusals` namespace translates
// every key; its type makes a missing translation a compile error). An issue's field message may
// carry one too. A refusal without a key is shown as the core wrote it.

import { BUNDLE_REFUSALS_EN, type BundleRefusalKey } from './paper/bundle-refusals';

/** A study bundle's refusals: their params are the `{{…}}` of their English (paper/bundle-refusals.ts). */
const BUNDLE_KEYS = Object.fromEntries(
  Object.entries(BUNDLE_REFUSALS_EN).map(([k, text]) => [
    k,
    [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]),
  ]),
) as unknown as Record<BundleRefusalKey, readonly string[]>;

/** Every key, with the params its text uses. */
export const REFUSALS = {
  ...BUNDLE_KEYS,
  /** A lock exists and a new version came without a reason. */
  'prereg.supersedeNeedsReason': ['experiment', 'version', 'lockedAt', 'sha256'],
  'prereg.reasonRequired': [],
  /** A confirmatory id the experiment's power plan does not make. */
  'prereg.unknownComparison': ['field', 'id', 'have'],
  'prereg.notInPowerPlan': [],
  /** A changed plan in a config without `amendment`. */
  'prereg.amendmentRequired': ['experiment', 'version'],
  'prereg.amendmentRequiredField': [],
  /** The plan's own checks (the lock form's payload or the config's key). */
  'prereg.unknownKey': ['keys'],
  'prereg.duplicate': ['id'],
  'prereg.primaryNotConfirmatory': [],
  'prereg.exclusionsMissing': [],
  'prereg.stoppingMissing': [],
  'prereg.planInvalid': ['field', 'detail'],
  /** A call's parameters use `__proto__`, `constructor` or `prototype` as a key (issue 40 item 14). */
  'input.forbiddenKey': ['field'],
} as const satisfies Record<string, readonly string[]>;

export type RefusalKey = keyof typeof REFUSALS;

export interface Refusal {
  key: RefusalKey;
  params?: Record<string, string | number>;
}

export function isRefusal(v: unknown): v is Refusal {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.key === 'string' &&
    Object.hasOwn(REFUSALS, r.key) &&
    (r.params === undefined || (typeof r.params === 'object' && r.params !== null))
  );
}
