// The self-consistency part of the wizard draft (repeats, temperatures, orders, scale) and the
// config keys it becomes (README "Self-consistency").
import type { DraftIssue, WizardDraft } from '../host';

export const SC_ID = 'self-consistency';

export interface ScDraft {
  repeats: number;
  /** Comma-separated temperatures as typed; empty = each judge's own. */
  temperatures: string;
  orders: 'one' | 'both';
  scale: 5 | 10;
}

export function initialScDraft(): ScDraft {
  return { repeats: 5, temperatures: '', orders: 'both', scale: 5 };
}

export function scDraft(draft: WizardDraft): ScDraft {
  return (draft.protocolDrafts[SC_ID] as ScDraft | undefined) ?? initialScDraft();
}

export function withScDraft(draft: WizardDraft, own: ScDraft): WizardDraft {
  return { ...draft, protocolDrafts: { ...draft.protocolDrafts, [SC_ID]: own } };
}

/** The typed temperatures as numbers; null when one is not a number from 0 to 2. */
export function parseTemperatures(text: string): number[] | null {
  const parts = text
    .split(/[,，\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const values = parts.map(Number);
  return values.every((v) => Number.isFinite(v) && v >= 0 && v <= 2) ? values : null;
}

export function validateSc(draft: WizardDraft): DraftIssue[] {
  const own = scDraft(draft);
  const issues: DraftIssue[] = [];
  if (!(Number.isInteger(own.repeats) && own.repeats >= 2 && own.repeats <= 20))
    issues.push({ field: 'repeats', code: 'repeatsRange' });
  const temps = parseTemperatures(own.temperatures);
  if (temps === null) issues.push({ field: 'temperatures', code: 'temperaturesInvalid' });
  else if (temps.length > 4 || new Set(temps).size !== temps.length)
    issues.push({ field: 'temperatures', code: 'temperaturesInvalid' });
  return issues;
}

export function scConfig(draft: WizardDraft): Record<string, unknown> {
  const own = scDraft(draft);
  const temps = parseTemperatures(own.temperatures) ?? [];
  return {
    repeats: own.repeats,
    orders: own.orders,
    scale: own.scale,
    ...(temps.length ? { temperatures: temps } : {}),
  };
}
