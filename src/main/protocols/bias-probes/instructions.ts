// Paraphrases of the judging instructions (a condition with `instructions`, the rubric probe):
// their audit (as a response rewrite's: not empty, numbers kept, token ratio inside the band) and
// per judge × paraphrase how the verdicts under it moved against the original instructions
// (metrics.json `instruction_paraphrases`; DESIGN.md §5c). Pure over the stored results.
import type {
  InstructionParaphraseRow,
  InstructionParaphrases,
} from '../../../shared/protocols/bias-probes/types';
import { ORIGINAL } from '../../../shared/protocols/bias-probes/probe-registry';
import { wilsonInterval } from '../../../shared/stats/intervals';
import type { TaskResult } from '../plugin';
import type { PairwiseVerdict } from '../../judging/pairwise';
import type { ScoreVerdict } from '../../judging/score';
import { choiceOf } from '../../judging/order';
import { numbersOf, tokenCount } from './audit';
import type { BiasOptions } from './config';
import type { BiasItem } from './item';
import type { Rewrite } from './parse';
import { instructionRewrites, type JudgeMeta, type RewriteMeta } from './plan';
import { judgingInstructions } from './prompts';

type Audited = InstructionParaphrases['paraphrases'][number];

/** A paraphrase's audit against the original instructions. */
export function auditParaphrase(original: string, text: string, band: [number, number]): Audited['reasons'] {
  if (text.trim() === '') return ['empty'];
  const reasons: string[] = [];
  const have = new Set(numbersOf(text));
  const missing = [...new Set(numbersOf(original))].filter((n) => !have.has(n));
  if (missing.length) reasons.push(`numbers missing: ${missing.slice(0, 8).join(', ')}`);
  const ratio = tokenCount(text) / Math.max(1, tokenCount(original));
  if (ratio < band[0] || ratio > band[1])
    reasons.push(`length ratio ${ratio.toFixed(2)} outside [${band[0]}, ${band[1]}]`);
  return reasons;
}

const k = (...p: (string | number | null)[]) => p.join('\u0000');

export function instructionParaphrases(
  opts: BiasOptions,
  judges: readonly string[],
  items: readonly BiasItem[],
  results: readonly TaskResult[],
): InstructionParaphrases[] {
  const original = judgingInstructions(opts);
  const keep = new Map(items.map((i) => [i.sourceId, i]));
  return instructionRewrites(opts).map(({ id, spec }) => {
    const band = spec.band(opts);
    const paraphrases: Audited[] = [];
    for (const r of results) {
      const m = r.meta as RewriteMeta;
      if (r.stage !== 'rewrite' || m.paraphrase === undefined || m.kind !== id) continue;
      const v = r.status === 'ok' ? (r.value as Rewrite) : null;
      const text = v?.text ?? null;
      paraphrases.push({
        paraphrase: m.paraphrase,
        text,
        ratio: text === null ? null : tokenCount(text) / Math.max(1, tokenCount(original)),
        reasons: text === null ? [] : auditParaphrase(original, text, band),
        // Only on a paraphrase a person edited: metrics.json is as before without edits.
        ...(v?.text != null && v.hand ? { edited_by: v.hand.by, edited_at: v.hand.at } : {}),
      });
    }
    paraphrases.sort((a, b) => a.paraphrase - b.paraphrase);
    return { condition: id, original, band, paraphrases, rows: rowsOf(id, opts, judges, keep, results) };
  });
}

/**
 * The manifest's templates for the paraphrases as judged (`paraphrase.<condition>.<k>`, k from 1),
 * a person's edit included; a paraphrase not made (yet) is left out.
 */
export function paraphraseTemplates(
  opts: BiasOptions,
  results: readonly TaskResult[],
): Record<string, string> {
  const conditions = new Set(instructionRewrites(opts).map((c) => c.id));
  const out: [string, string][] = [];
  for (const r of results) {
    const m = r.meta as RewriteMeta;
    if (r.stage !== 'rewrite' || r.status !== 'ok' || m.paraphrase === undefined || !conditions.has(m.kind))
      continue;
    const text = (r.value as Rewrite).text;
    if (text !== null) out.push([`paraphrase.${m.kind}.${m.paraphrase + 1}`, text]);
  }
  return Object.fromEntries(out.sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
}

/** The first asks' value per unit: a score (pointwise) or the worse response's win score and choice. */
interface Unit {
  value: number;
  /** What the verdict chose: the score, or 1 | 2 | tie. */
  choice: string;
  worseWon: boolean;
  paraphrase?: number;
}

function rowsOf(
  condition: string,
  opts: BiasOptions,
  judges: readonly string[],
  items: ReadonlyMap<string, BiasItem>,
  results: readonly TaskResult[],
): InstructionParaphraseRow[] {
  const base = new Map<string, Unit>();
  const under = new Map<string, Unit>();
  for (const r of results) {
    if (r.stage !== 'judge' || r.status !== 'ok') continue;
    const m = r.meta as JudgeMeta;
    if (m.sample || m.shown || (m.condition !== ORIGINAL && m.condition !== condition)) continue;
    const item = items.get(m.sourceId);
    if (!item) continue;
    let unit: Unit;
    if (m.mode === 'pointwise') {
      const score = (r.value as ScoreVerdict).score;
      unit = { value: score, choice: String(score), worseWon: false };
    } else {
      // Pairwise: the worse (non-gold) response's win score, as the effect measures it.
      if (item.label === null) continue;
      const worse = item.label === 1 ? 2 : 1;
      const c = choiceOf(m.order!, (r.value as PairwiseVerdict).winner);
      unit = { value: c === 'tie' ? 0.5 : c === worse ? 1 : 0, choice: String(c), worseWon: c === worse };
    }
    const key = k(m.judge, m.sourceId, m.slot, m.order);
    if (m.condition === ORIGINAL) base.set(key, unit);
    else under.set(key, { ...unit, paraphrase: m.paraphrase });
  }
  const count = instructionRewrites(opts)
    .find((c) => c.id === condition)!
    .spec.count(opts);
  const rows: InstructionParaphraseRow[] = [];
  for (const judge of judges)
    for (let p = 0; p < count; p++) {
      const pairs: [Unit, Unit][] = [];
      for (const [key, v] of under) {
        const b = base.get(key);
        if (v.paraphrase === p && key.startsWith(`${judge}\u0000`) && b) pairs.push([b, v]);
      }
      const n = pairs.length;
      const changed = pairs.filter(([b, v]) => b.choice !== v.choice).length;
      const row: InstructionParaphraseRow = {
        judge,
        paraphrase: p,
        n,
        mean: n ? pairs.reduce((s, [b, v]) => s + v.value - b.value, 0) / n : null,
        changed,
        changed_rate: n ? changed / n : null,
        changed_rate_ci: n ? wilsonInterval(changed, n) : null,
      };
      if (opts.mode === 'pairwise') {
        const flippable = pairs.filter(([b]) => !b.worseWon);
        const flips = flippable.filter(([, v]) => v.worseWon).length;
        row.flip_n = flippable.length;
        row.flip_rate = flippable.length ? flips / flippable.length : null;
        row.flip_rate_ci = flippable.length ? wilsonInterval(flips, flippable.length) : null;
      }
      rows.push(row);
    }
  return rows;
}
