// Verdict flips between English and a target language, computed from the stored judgments.
// Pure functions: the flip browser, its tests and its benchmark all run exactly this code.
import type { JudgmentView } from '../../../../../shared/protocols/judge-ls/views';
import {
  COMPARISONS,
  LANGUAGES,
  normalizeChoice,
  TARGET_OF,
  type QualityChoice,
} from '../../../../../shared/protocols/judge-ls/choice';
import { comparisonOf } from '../../../../../shared/protocols/judge-ls/languages';
import type {
  Comparison,
  QualityOrder,
  TargetLanguage,
} from '../../../../../shared/protocols/judge-ls/types';

/** A normalized quality choice: the output a verdict prefers, whatever position it was shown in. */
export type Choice = QualityChoice;

export const FLIP_TYPES = ['correct_to_wrong', 'wrong_to_correct', 'to_tie', 'from_tie', 'other'] as const;
export type FlipType = (typeof FLIP_TYPES)[number];

export interface Flip {
  /** Unique per (judge, item, comparison, order). */
  key: string;
  judge: string;
  itemId: number;
  sourceId: string;
  subset: string | null;
  gold: 1 | 2;
  comparison: Comparison;
  target: TargetLanguage;
  order: QualityOrder;
  en: JudgmentView;
  other: JudgmentView;
  enChoice: Choice;
  targetChoice: Choice;
  type: FlipType;
  /** Correctness differs (what the correctness-flip rate counts). */
  correctnessChanged: boolean;
  /**
   * With the noise floor on: whether the EN verdict's own repeat (sample 1, same order) chose
   * otherwise too ("flipped on repeat as well"); null when there is no valid repeat.
   */
  repeatFlipped: boolean | null;
}

/** The choice of a parsed quality verdict, or null when it failed or is not a quality verdict. */
export function choiceOf(j: JudgmentView): Choice | null {
  if (j.kind !== 'quality' || j.status !== 'ok' || !j.winner) return null;
  if (j.order !== 'orig' && j.order !== 'swap') return null;
  return normalizeChoice(j.order, j.winner);
}

export function classifyFlip(en: Choice, target: Choice, gold: 1 | 2): FlipType {
  if (en === 'tie') return 'from_tie';
  if (target === 'tie') return 'to_tie';
  const enRight = en === gold;
  const targetRight = target === gold;
  if (enRight && !targetRight) return 'correct_to_wrong';
  if (!enRight && targetRight) return 'wrong_to_correct';
  return 'other';
}

/**
 * Quality verdicts of one (judge, item): EN, ZH, LS, then the other targets (issue 37) × orig,
 * swap, then EN's repeat × orig, swap.
 */
type Slots = (JudgmentView | undefined)[];

/** EN, ZH, LS and any other language the verdicts hold (first seen), and each one's slot. */
function slotsOf(judgments: readonly JudgmentView[]): {
  slotOf: Record<string, number>;
  targets: [Comparison, TargetLanguage][];
} {
  const languages: string[] = [...LANGUAGES];
  const known = new Set(languages);
  for (const j of judgments) {
    if (j.kind === 'quality' && !known.has(j.language)) {
      known.add(j.language);
      languages.push(j.language);
    }
  }
  const targets = languages
    .filter((l) => l !== 'EN')
    .map((l): [Comparison, TargetLanguage] => [
      COMPARISONS.find((c) => TARGET_OF[c] === l) ?? comparisonOf(l),
      l,
    ]);
  return { slotOf: Object.fromEntries(languages.map((l, i) => [l, 2 * i])), targets };
}

/**
 * Every (judge, item, order) whose normalized choice differs between EN and ZH, or EN and LS.
 * Pairs where either verdict failed are not flips (they are not valid pairs). Output order:
 * judges, then their items, in the order their verdicts first appear; within an item EN-ZH
 * before EN-LS, orig before swap. One pass with numeric keys: 200,000 judgments take
 * milliseconds, not a noticeable pause.
 */
export function computeFlips(judgments: readonly JudgmentView[]): Flip[] {
  const { slotOf: SLOT_OF, targets } = slotsOf(judgments);
  const REPEAT_SLOT = 2 * (targets.length + 1);
  const byJudge = new Map<string, Map<number, Slots>>();
  for (const j of judgments) {
    if (j.kind !== 'quality') continue;
    const repeat = j.sample !== undefined && j.sample > 0;
    if (repeat && j.language !== 'EN') continue;
    const base = repeat ? REPEAT_SLOT : SLOT_OF[j.language];
    if (base === undefined || (j.order !== 'orig' && j.order !== 'swap')) continue;
    let items = byJudge.get(j.judge);
    if (!items) byJudge.set(j.judge, (items = new Map()));
    let slots = items.get(j.itemId);
    if (!slots) items.set(j.itemId, (slots = new Array<JudgmentView | undefined>(REPEAT_SLOT + 2)));
    slots[base + (j.order === 'orig' ? 0 : 1)] = j;
  }
  const flips: Flip[] = [];
  for (const items of byJudge.values()) {
    for (const slots of items.values()) {
      for (let c = 0; c < targets.length; c++) {
        const [comparison, target] = targets[c];
        for (let o = 0; o < 2; o++) {
          const en = slots[SLOT_OF.EN + o];
          const other = slots[SLOT_OF[target] + o];
          if (!en || !other) continue;
          const enChoice = choiceOf(en);
          const targetChoice = choiceOf(other);
          if (enChoice === null || targetChoice === null || enChoice === targetChoice) continue;
          const order: QualityOrder = o === 0 ? 'orig' : 'swap';
          const again = slots[REPEAT_SLOT + o];
          const repeatChoice = again ? choiceOf(again) : null;
          flips.push({
            key: `${en.judge}\u0000${en.itemId}\u0000${comparison}\u0000${order}`,
            judge: en.judge,
            itemId: en.itemId,
            sourceId: en.sourceId,
            subset: en.subset,
            gold: en.gold,
            comparison,
            target,
            order,
            en,
            other,
            enChoice,
            targetChoice,
            type: classifyFlip(enChoice, targetChoice, en.gold),
            correctnessChanged: (enChoice === en.gold) !== (targetChoice === en.gold),
            repeatFlipped: repeatChoice === null ? null : repeatChoice !== enChoice,
          });
        }
      }
    }
  }
  return flips;
}

/** 'correctness' is not a flip type but the group the correctness-flip rate counts. */
export type TypeFilter = FlipType | 'correctness';

export interface FlipFilter {
  judge?: string;
  comparison?: Comparison;
  /** '' selects items without a subset. */
  subset?: string;
  type?: TypeFilter;
  flagged?: 'yes' | 'no';
  q?: string;
}

export interface FilterContext {
  /** Source ids the audit flagged. */
  flagged: ReadonlySet<string>;
  /** Item ids whose texts match `q` (found by the server's item search), if known. */
  textMatches?: ReadonlySet<number>;
}

/** Lower-cased id and reasons of a flip, built once per list so typing stays fast. */
export function searchText(f: Flip): string {
  return `${f.sourceId}\n${f.en.reason ?? ''}\n${f.other.reason ?? ''}`.toLowerCase();
}

export function filterFlips(
  flips: readonly Flip[],
  filter: FlipFilter,
  ctx: FilterContext,
  haystacks?: readonly string[],
): Flip[] {
  const q = filter.q?.trim().toLowerCase() ?? '';
  const out: Flip[] = [];
  for (let i = 0; i < flips.length; i++) {
    const f = flips[i];
    if (filter.judge !== undefined && f.judge !== filter.judge) continue;
    if (filter.comparison !== undefined && f.comparison !== filter.comparison) continue;
    if (filter.subset !== undefined && (f.subset ?? '') !== filter.subset) continue;
    if (filter.type !== undefined) {
      if (filter.type === 'correctness' ? !f.correctnessChanged : f.type !== filter.type) continue;
    }
    if (filter.flagged !== undefined && ctx.flagged.has(f.sourceId) !== (filter.flagged === 'yes')) continue;
    if (q) {
      const text = haystacks ? haystacks[i] : searchText(f);
      if (!text.includes(q) && !ctx.textMatches?.has(f.itemId)) continue;
    }
    out.push(f);
  }
  return out;
}
