// Judge-LS rows as its pages' tests build them (the generic fake API names no protocol's rows).
import type { JudgmentView, VariantView } from '../../../../shared/protocols/judge-ls/views';

export function variant(over: Partial<VariantView> = {}): VariantView {
  return {
    itemId: 1,
    sourceId: 'X-001',
    subset: 'Natural',
    language: 'ZH',
    instruction: '指令 1',
    output1: '第一 1',
    output2: '第二 1',
    manual: false,
    reasons: [],
    ...over,
  };
}

export function judgment(over: Partial<JudgmentView> = {}): JudgmentView {
  return {
    judge: 'gpt-4.1-mini',
    itemId: 1,
    sourceId: 'X-001',
    subset: 'Natural',
    gold: 1,
    kind: 'quality',
    language: 'EN',
    order: 'orig',
    status: 'failed',
    winner: null,
    confidence: null,
    reason: null,
    failureReason: 'unparseable answer',
    rawText: null,
    attempts: 3,
    ...over,
  };
}
