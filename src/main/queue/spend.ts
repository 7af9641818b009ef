// What a unit's calls cost: usage and price owed until the ledger row is written, then counted
// into the run (cost/usage accounting of the engine).
import { costOf, type PriceTable } from '../providers/pricing';
import type { Usage } from '../providers/types';
import type { Completion } from '../store/ledger';
import { ZERO_USAGE, type RunState, type Unit } from './run-state';

/** An answer (or a failed call that reported usage) was paid for: the unit owes it until written. */
export function owe(r: RunState, u: Unit, usage: Usage, prices: PriceTable, flex = false): void {
  const cost = costOf(u.lane.model, usage, prices, { flex });
  if (!cost.priced) r.unpricedModel(u.lane.model);
  u.owedUsage = {
    inputTokens: u.owedUsage.inputTokens + usage.inputTokens,
    outputTokens: u.owedUsage.outputTokens + usage.outputTokens,
    cachedInputTokens: u.owedUsage.cachedInputTokens + usage.cachedInputTokens,
    cacheWriteTokens: (u.owedUsage.cacheWriteTokens ?? 0) + (usage.cacheWriteTokens ?? 0),
  };
  u.owedCost += cost.usd;
}

/** The fields of the unit's next ledger write that add what it owes. */
export function owed(u: Unit): { usage: Usage; costUsd: number; extraAttempts: number } {
  return { usage: u.owedUsage, costUsd: u.owedCost, extraAttempts: u.owedAttempts };
}

export function owesSomething(u: Unit): boolean {
  const t = u.owedUsage;
  return u.owedCost !== 0 || t.inputTokens + t.outputTokens + t.cachedInputTokens !== 0;
}

/** Spend counts once written (or once the write was refused: it was paid all the same). */
export function countOwed(r: RunState, u: Unit, c: Completion): void {
  r.spent(c.usage, c.costUsd);
  u.owedUsage = ZERO_USAGE();
  u.owedCost = 0;
  u.owedAttempts = 0;
}
